/**
 * Remembers what the agent last saw of each file (after a read, or after its own write) so an edit
 * of a file that changed on disk since is never merged blindly: the edit is re-matched against the
 * current text only where the user's change and the edit are apart (userChangeMerge.ts), otherwise
 * it is refused.
 *
 * The text itself is kept so the user's change can be told apart from the agent's, but only up to a
 * total size (the most recently seen files first): a long task reads many files, and memory should
 * not grow with their sizes. A file whose text was let go is still known by its digest; a change to
 * it is refused as stale, as before.
 */
import { createHash } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest('base64');

/** Characters of seen text kept in all (about 32 MB as JS strings). */
export const SEEN_TEXT_BUDGET = 16 * 1024 * 1024;

interface Seen {
  digest: string;
  text?: string;
}

export class ReadTracker {
  /** Insertion order is recency order: a record moves the file to the end. */
  private readonly seen = new Map<string, Seen>();
  private keptChars = 0;

  constructor(private readonly budget = SEEN_TEXT_BUDGET) {}

  /** Record the full text the agent has seen of a file (after a read or after its own write). */
  record(realPath: string, text: string): void {
    this.forget(realPath);
    const entry: Seen = { digest: digest(text) };
    if (text.length <= this.budget) {
      entry.text = text;
      this.keptChars += text.length;
    }
    this.seen.set(realPath, entry);
    for (const [p, e] of this.seen) {
      if (this.keptChars <= this.budget) break;
      if (e.text !== undefined && p !== realPath) {
        this.keptChars -= e.text.length;
        delete e.text;
      }
    }
  }

  /** undefined = never read; true = unchanged since; false = changed on disk since the agent read it. */
  isFresh(realPath: string, currentText: string): boolean | undefined {
    const before = this.seen.get(realPath);
    return before === undefined ? undefined : before.digest === digest(currentText);
  }

  /** The text the agent last saw of a file, when it is still kept. */
  seenText(realPath: string): string | undefined {
    return this.seen.get(realPath)?.text;
  }

  forget(realPath: string): void {
    const old = this.seen.get(realPath);
    if (old?.text !== undefined) this.keptChars -= old.text.length;
    this.seen.delete(realPath);
  }
}
