/**
 * Resolves a path the model gave against the workspace and decides whether it is inside,
 * **after** resolving symlinks (so `/ws/link -> /etc` and `/ws-evil` beside `/ws` are outside).
 * Every tool goes through here; tools then act on `real`, so what was checked is what is touched.
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../ports/ports';
import { isWithin } from './pathWithin';
import { symlinksInside } from './workspaceSymlinks';

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
  /**
   * Every workspace-relative name this file goes by (`rel` first): the path as written, each
   * partial resolution of it (one symlinked folder resolved at a time), and each symlink in the
   * workspace that leads to it or to a folder above it. With `.git -> gitstore`, the file
   * `gitstore/hooks/pre-commit` is also `.git/hooks/pre-commit`, and git runs it as that; a
   * protection (the `.git` refusal, execution-sensitive files, ignore rules) holds when ANY of these
   * names is protected, so a link cannot launder a protected file into an ordinary one.
   */
  spellings: readonly string[];
}

export { isWithin };

function relTo(root: string, p: string): string {
  return path.relative(root, p).split(path.sep).join('/') || '.';
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
        const rel = relTo(root, real);
        return { input, real, inside: true, root, rel, spellings: await this.spellingsOf(root, abs, real, rel) };
      }
    }
    return { input, real, inside: false, spellings: [] };
  }

  /** See `ResolvedPath.spellings`. */
  private async spellingsOf(root: string, abs: string, real: string, rel: string): Promise<string[]> {
    const names = new Set<string>([rel]);
    const add = (p: string) => {
      if (isWithin(root, p)) names.add(relTo(root, p));
    };
    // The path as written, then with its first 1, 2, … components resolved.
    add(abs);
    const parts = abs.split(path.sep).filter(Boolean);
    let prefix = path.parse(abs).root;
    for (let i = 0; i < parts.length - 1; i++) {
      prefix = path.join(prefix, parts[i]!);
      add(path.join(await this.fs.realpath(prefix), ...parts.slice(i + 1)));
    }
    // Symlinks anywhere in the workspace that lead to this file or a folder above it.
    for (const link of await symlinksInside(this.fs, root)) {
      if (isWithin(link.target, real)) add(path.join(link.at, path.relative(link.target, real)));
    }
    return [...names];
  }

  /** Display form: workspace-relative when inside, else the real absolute path. */
  display(r: ResolvedPath): string {
    return r.inside ? (r.rel ?? r.real) : r.real;
  }
}
