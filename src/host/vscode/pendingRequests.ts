/**
 * Requests waiting on a user's click, keyed by id (a tool call's id, a question card's id). The
 * panel (or a diff editor's title bar) settles them; Stop settles them through the signal.
 */
export class PendingRequests<T> {
  private readonly waiting = new Map<string, (value: T) => void>();

  /** Waits for `settle(id, …)`; an abort resolves with `onAbort()` so the turn can end cleanly. */
  wait(id: string, signal: AbortSignal, onAbort: () => T): Promise<T> {
    // A second request for the same id replaces the first (a retried call): the old one is aborted.
    this.waiting.get(id)?.(onAbort());
    return new Promise<T>((resolve) => {
      const finish = (value: T) => {
        if (this.waiting.get(id) === finish) this.waiting.delete(id);
        signal.removeEventListener('abort', abort);
        resolve(value);
      };
      const abort = () => finish(onAbort());
      if (signal.aborted) { resolve(onAbort()); return; }
      this.waiting.set(id, finish);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** False when nothing waits on that id (a stale or forged click): the caller logs and ignores it. */
  settle(id: string, value: T): boolean {
    const finish = this.waiting.get(id);
    if (!finish) return false;
    finish(value);
    return true;
  }

  has(id: string): boolean { return this.waiting.has(id); }
  ids(): string[] { return [...this.waiting.keys()]; }
}
