/**
 * Resolves a path the model gave against the workspace and decides whether it is inside,
 * **after** resolving symlinks (so `/ws/link -> /etc` and `/ws-evil` beside `/ws` are outside).
 * Every tool goes through here; tools then act on `real`, so what was checked is what is touched.
 */
import * as path from 'node:path';
import type { WorkspaceFs } from './ports';

export interface ResolvedPath {
  /** What the model wrote. */
  input: string;
  /** Real absolute path (symlinks resolved; for a missing file, its nearest existing ancestor's real path + rest). */
  real: string;
  /** True when `real` is inside one of the workspace roots. */
  inside: boolean;
  /** The root it is in (when inside). */
  root?: string;
  /** Path relative to that root with forward slashes (when inside), for display. */
  rel?: string;
}

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** True when `child` is `parent` or below it. Compares whole path segments: `/ws-evil` is not in `/ws`. */
export function isWithin(parent: string, child: string): boolean {
  const a = caseInsensitive ? parent.toLowerCase() : parent;
  const b = caseInsensitive ? child.toLowerCase() : child;
  if (a === b) return true;
  const rel = path.relative(a, b);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel);
}

export class WorkspacePaths {
  constructor(readonly fs: WorkspaceFs) {}

  get roots(): readonly string[] {
    return this.fs.roots;
  }

  async resolve(p: string): Promise<ResolvedPath> {
    const input = p;
    const trimmed = p.trim();
    if (!trimmed) throw new Error('empty path');
    if (trimmed.includes('\0')) throw new Error('path contains a NUL character');
    const base = this.fs.roots[0];
    if (!base) throw new Error('no workspace folder is open');
    // `~` is not expanded by anything below us; treat it as the home folder the model most likely meant
    // so that `~/.ssh/x` is recognised as outside rather than created as a folder named `~`.
    const expanded = trimmed === '~' || trimmed.startsWith('~/') ? path.join(process.env.HOME ?? '/', trimmed.slice(1)) : trimmed;
    const abs = path.isAbsolute(expanded) ? path.normalize(expanded) : path.resolve(base, expanded);
    const real = await this.fs.realpath(abs);
    for (const root of this.fs.roots) {
      if (isWithin(root, real)) {
        const rel = path.relative(root, real).split(path.sep).join('/') || '.';
        return { input, real, inside: true, root, rel };
      }
    }
    return { input, real, inside: false };
  }

  /** Display form: workspace-relative when inside, else the real absolute path. */
  display(r: ResolvedPath): string {
    return r.inside ? (r.rel ?? r.real) : r.real;
  }
}
