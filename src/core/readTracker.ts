// OWNED BY the tools work: remembers what the agent last read of each file so stale edits are refused.
export class ReadTracker {
  private readonly seen = new Map<string, string>();
  /** Record the full text the agent has seen of a file (after a read or after its own write). */
  record(realPath: string, text: string): void {
    this.seen.set(realPath, text);
  }
  /** undefined = never read; true = unchanged since; false = changed on disk since the agent read it. */
  isFresh(realPath: string, currentText: string): boolean | undefined {
    const before = this.seen.get(realPath);
    return before === undefined ? undefined : before === currentText;
  }
  forget(realPath: string): void {
    this.seen.delete(realPath);
  }
}
