/**
 * What a command changed in the workspace, found by comparing the workspace before and after it:
 * each file's size and modification time (links by what they point to is not needed: a link is
 * recorded as one). A command can name any file (`sed -i … a.txt b.txt`, `find … -exec`), so while a
 * plan step runs its commands and its check are judged by what they did, not by what they said.
 *
 * Why not `git status`: it runs the repository's clean filters (`.gitattributes` + config) outside
 * the sandbox on files whose stat changed, which is code the repository chooses. `.git` and
 * `node_modules` are not walked (nothing a step names lives there; they hold most of the files).
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../ports/ports';

/** Absolute path → `size:mtime` (or `link`); compare two with `changedBetween`. */
export type WorkspaceSnapshot = ReadonlyMap<string, string>;

/** A workspace larger than this is compared on its first files only (said in the result). */
export const MAX_SNAPSHOT_FILES = 100_000;

const SKIP = new Set(['.git', 'node_modules']);

export async function snapshotWorkspace(fs: WorkspaceFs, roots: readonly string[]): Promise<{ files: WorkspaceSnapshot; complete: boolean }> {
  const files = new Map<string, string>();
  const dirs = [...roots];
  while (dirs.length) {
    const dir = dirs.pop()!;
    const entries = await fs.readDir(dir).catch(() => []);
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.type === 'directory') {
        if (!SKIP.has(e.name)) dirs.push(abs);
        continue;
      }
      if (files.size >= MAX_SNAPSHOT_FILES) return { files, complete: false };
      if (e.type === 'symlink') files.set(abs, 'link');
      else {
        const st = await fs.stat(abs).catch(() => undefined);
        if (st) files.set(abs, `${st.size}:${st.mtimeMs}`);
      }
    }
  }
  return { files, complete: true };
}

/** Paths created, deleted or changed between two snapshots, sorted. */
export function changedBetween(before: WorkspaceSnapshot, after: WorkspaceSnapshot): string[] {
  const out = new Set<string>();
  for (const [p, sig] of after) if (before.get(p) !== sig) out.add(p);
  for (const p of before.keys()) if (!after.has(p)) out.add(p);
  return [...out].sort();
}
