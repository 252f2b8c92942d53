/**
 * One ignore policy for reads, lists, finds and searches, so a `.env` listed in `.gitignore`
 * cannot leak through whichever of them forgot to check (one rule set, asked by all four).
 *
 * Rules come from `.gitignore` and `.tandemignore` in the workspace root and in every folder below
 * it (each file's patterns are relative to its own folder, as git does). `.tandemignore` is read
 * after `.gitignore` in the same folder, so `!pattern` there can re-include something git ignores.
 * `.git` itself is always off limits: its config can hold credentials in remote URLs; so is the git
 * dir a `.git` file names (`gitdir: .repo`) and any config file `.git/config` includes.
 *
 * A matcher caches the rule files it has read, so make a fresh one per tool call: the agent may
 * have just edited a `.gitignore`.
 */
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isWithin } from '../workspace/pathWithin';
import type { WorkspaceFs } from '../ports/ports';
import { symlinksInside } from '../workspace/workspaceSymlinks';
import { gitControlledPaths } from './gitControlledPaths';

export const IGNORE_FILE_NAMES = ['.gitignore', '.tandemignore'] as const;

/** Folders that walks (search, find, recursive list) never enter, ignore files or not. */
export const WALK_SKIP_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', 'dist', 'build']);

/** Lock files: large, generated, and never what a search is looking for. */
export const LOCKFILE_NAMES: ReadonlySet<string> = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'Cargo.lock',
  'Gemfile.lock',
  'composer.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'go.sum',
  'flake.lock',
  'packages.lock.json',
]);

export function isMinifiedName(name: string): boolean {
  return /[.-]min\.(?:js|mjs|cjs|css)$/i.test(name) || /\.(?:js|css)\.map$/i.test(name);
}

/** True when a walk skips this entry by name alone (before any ignore file is consulted). */
export function skippedByWalk(name: string, isDir: boolean): boolean {
  return isDir ? WALK_SKIP_DIRS.has(name) : LOCKFILE_NAMES.has(name) || isMinifiedName(name);
}

/** Globs in ripgrep syntax for the same skips, so rg and the JS fallback agree. */
export const RG_SKIP_GLOBS: readonly string[] = [
  ...[...WALK_SKIP_DIRS].map((d) => `!${d}/`),
  ...[...LOCKFILE_NAMES].map((f) => `!${f}`),
  '!*.min.js', '!*.min.mjs', '!*.min.cjs', '!*.min.css', '!*-min.js', '!*-min.css', '!*.js.map', '!*.css.map',
];

export class IgnoreMatcher {
  /** Folder (absolute) → its rules, or null when it has no ignore file. */
  private readonly rules = new Map<string, Promise<Ignore | null>>();

  constructor(private readonly fs: WorkspaceFs) {}

  private rulesOf(dir: string): Promise<Ignore | null> {
    let r = this.rules.get(dir);
    if (!r) {
      r = this.load(dir);
      this.rules.set(dir, r);
    }
    return r;
  }

  private async load(dir: string): Promise<Ignore | null> {
    let ig: Ignore | null = null;
    for (const name of IGNORE_FILE_NAMES) {
      let text: string;
      try {
        const st = await this.fs.stat(path.join(dir, name));
        if (!st || st.type !== 'file') continue;
        text = await this.fs.readText(path.join(dir, name));
      } catch {
        continue;
      }
      ig ??= ignore();
      ig.add(text);
    }
    return ig;
  }

  /**
   * Whether `rel` (forward slashes, relative to `root`) is ignored. `isDir` matters for patterns
   * like `build/` that only match folders.
   */
  async ignores(root: string, rel: string, isDir: boolean): Promise<boolean> {
    if (!rel || rel === '.') return false;
    if (await this.ignoredByName(root, rel, isDir)) return true;
    // Reached under another name through a symlink: `gitstore/config` is `.git/config` when `.git -> gitstore`.
    const abs = path.join(root, rel);
    return (await this.hiddenLinkTargets(root)).some((t) => isWithin(t, abs));
  }

  private readonly hidden = new Map<string, Promise<string[]>>();

  /**
   * Real targets (inside `root`) of the symlinks whose own name is ignored (`.git`, a `.env` link…),
   * and the git dirs and included config files git uses for this folder under other names.
   */
  private hiddenLinkTargets(root: string): Promise<string[]> {
    let h = this.hidden.get(root);
    if (!h) {
      h = (async () => {
        const out: string[] = [];
        for (const g of await gitControlledPaths(root, (p) => this.fs.readText(p).catch(() => undefined))) {
          if (g.kind !== 'hooks') out.push(await this.fs.realpath(g.path));
        }
        for (const link of await symlinksInside(this.fs, root)) {
          const linkRel = path.relative(root, link.at).split(path.sep).join('/');
          const st = await this.fs.stat(link.target).catch(() => undefined);
          if (await this.ignoredByName(root, linkRel, st?.type === 'directory')) out.push(link.target);
        }
        return out;
      })();
      this.hidden.set(root, h);
    }
    return h;
  }

  private async ignoredByName(root: string, rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel.split('/').filter(Boolean);
    if (parts.includes('.git')) return true;
    // Ask each folder from the root down whose ignore file could cover this path.
    let dir = root;
    for (let i = 0; i < parts.length; i++) {
      const ig = await this.rulesOf(dir);
      if (ig) {
        const sub = parts.slice(i).join('/') + (isDir ? '/' : '');
        if (ig.ignores(sub)) return true;
      }
      dir = path.join(dir, parts[i]!);
    }
    return false;
  }
}
