/**
 * Remembers what the agent last saw of each file (after a read, or after its own write) so an edit
 * of a file that changed on disk since is refused instead of merged blindly.
 *
 * Only a digest is kept, not the text: a long task reads many files, and memory should not grow
 * with their sizes.
 */
import { createHash } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest('base64');

export class ReadTracker {
  private readonly seen = new Map<string, string>();
  /** Record the full text the agent has seen of a file (after a read or after its own write). */
  record(realPath: string, text: string): void {
    this.seen.set(realPath, digest(text));
  }
  /** undefined = never read; true = unchanged since; false = changed on disk since the agent read it. */
  isFresh(realPath: string, currentText: string): boolean | undefined {
    const before = this.seen.get(realPath);
    return before === undefined ? undefined : before === digest(currentText);
  }
  forget(realPath: string): void {
    this.seen.delete(realPath);
  }
}
