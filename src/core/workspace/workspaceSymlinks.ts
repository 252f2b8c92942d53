/**
 * The symlinks inside a workspace folder that lead somewhere inside it. A file reached through one
 * has a second name (`.git -> gitstore` makes `gitstore/config` also `.git/config`), and protections
 * tied to names must see both. Walked each time it is asked, never cached across tool calls: a
 * command may have created a link since.
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../ports/ports';
import { isWithin } from './pathWithin';

export interface WorkspaceSymlink {
  /** Absolute path of the link itself. */
  at: string;
  /** Real absolute path it resolves to (inside the same root). */
  target: string;
}

export async function symlinksInside(fs: WorkspaceFs, root: string): Promise<WorkspaceSymlink[]> {
  const out: WorkspaceSymlink[] = [];
  const dirs = [root];
  while (dirs.length) {
    const dir = dirs.pop()!;
    let entries: { name: string; type: string }[];
    try {
      entries = await fs.readDir(dir);
    } catch {
      continue; // unreadable or vanished meanwhile: nothing under it can be reached this way either
    }
    for (const e of entries) {
      const at = path.join(dir, e.name);
      if (e.type === 'directory') dirs.push(at);
      else if (e.type === 'symlink') {
        try {
          const target = await fs.realpath(at);
          if (isWithin(root, target)) out.push({ at, target });
        } catch {
          /* a loop or an unreadable link leads nowhere */
        }
      }
    }
  }
  return out;
}
