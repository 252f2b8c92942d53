/**
 * Waiting in tests, one way everywhere (unit, integration inside the extension host, UI): a plain
 * sleep, and polling until something holds, failing with what never happened instead of hanging
 * until mocha's own timeout.
 */

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface PollOptions {
  /** How long to keep polling before failing (default 15 s). */
  timeoutMs?: number;
  /** The pause between two checks (default 100 ms). */
  everyMs?: number;
}

/** Resolves with what `check` returns once it is truthy; rejects after the timeout naming `what`. */
export async function waitFor<T>(check: () => T | undefined | null | false | '' | 0 | Promise<T | undefined | null | false | '' | 0>, what: string, opts: PollOptions | number = {}): Promise<T> {
  const { timeoutMs = 15_000, everyMs = 100 } = typeof opts === 'number' ? { timeoutMs: opts } : opts;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as T;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Resolves once `check` holds; rejects after the timeout naming `what`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, opts: PollOptions | number = {}): Promise<void> {
  await waitFor(check, what, opts);
}
