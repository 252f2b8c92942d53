/**
 * The one workspace walk behind list_files, find_files and the JS search: depth-first in name
 * order (stable output), never following symlinks (so a symlink cycle cannot loop), applying the
 * ignore rules and, when asked, the fixed skips (.git, node_modules, dist, build, lock files,
 * minified files).
 */
import * as path from 'node:path';
import type { FileStat } from '../ports/ports';
import { IgnoreMatcher, skippedByWalk } from '../policy/ignorePolicy';
import type { ToolContext } from './tool';

export interface WalkEntry {
  abs: string;
  /** Relative to the workspace root, forward slashes. */
  rel: string;
  name: string;
  type: FileStat['type'];
  depth: number;
  /** A folder the walk shows but does not enter (node_modules and friends). */
  notEntered?: boolean;
}

export interface WalkOptions {
  recursive: boolean;
  matcher: IgnoreMatcher;
  /** Apply the fixed skips (search/find do; a plain one-level listing does not). */
  fixedSkips: boolean;
  /** Yield folders that fixedSkips keeps out (marked notEntered) instead of hiding them. */
  showSkippedDirs?: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export async function* walk(ctx: ToolContext, root: string, startAbs: string, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  const stack: { abs: string; depth: number }[] = [{ abs: startAbs, depth: 0 }];
  while (stack.length) {
    ctx.signal.throwIfAborted();
    const dir = stack.pop()!;
    let entries: { name: string; type: FileStat['type'] }[];
    try {
      entries = await ctx.host.fs.readDir(dir.abs);
    } catch {
      continue; // unreadable folder: skip it, as a search would
    }
    entries.sort(byName);
    const subdirs: { abs: string; depth: number }[] = [];
    for (const e of entries) {
      const abs = path.join(dir.abs, e.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      const isDir = e.type === 'directory';
      if (e.name === '.git') continue;
      if (await opts.matcher.ignores(root, rel, isDir)) continue;
      const skip = opts.fixedSkips && skippedByWalk(e.name, isDir);
      if (skip && !(isDir && opts.showSkippedDirs)) continue;
      const entry: WalkEntry = { abs, rel, name: e.name, type: e.type, depth: dir.depth };
      if (skip) entry.notEntered = true;
      yield entry;
      if (isDir && !skip && opts.recursive) subdirs.push({ abs, depth: dir.depth + 1 });
    }
    // Pushed in reverse so the stack pops them in name order.
    for (let k = subdirs.length - 1; k >= 0; k--) stack.push(subdirs[k]!);
  }
}
