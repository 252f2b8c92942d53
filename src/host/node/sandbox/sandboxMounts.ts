/**
 * What the sandbox protects inside the workspace, found by walking it before each command:
 * - read-only: `.git` (hooks run as code, config redirects git), execution-sensitive files and
 *   folders (executionSensitivePaths.ts), the ignore files Tandem obeys, and what git takes orders
 *   from under other names: the git dir a `.git` file names, included configs, `core.hooksPath`
 *   folders (gitControlledPaths.ts); a symlink with such a name protects what it points to;
 * - hidden (bound empty): files matching the secret patterns (`.env*`, `*.pem`, `*.key` by default)
 *   unless the user allowed them, in the workspace (node_modules included), and in the folders above
 *   it; and the user's credential folders and files (`~/.ssh`, `~/.aws`, `~/.config/gcloud`,
 *   keyrings, `~/.netrc`…), covered by an empty folder or file.
 * - pinned: every folder between a workspace folder and a protected path, bound onto itself (still
 *   writable). A mount point cannot be renamed or removed (EBUSY), so a command cannot move
 *   `.github` away and make `.github/workflows/ci.yml` again in a folder of its own: the read-only
 *   bind protects a path's contents, the pins keep that path where it is.
 * A protected path that does not exist yet cannot be bound (that would create it), so the check
 * after the command finds protected paths the command created or replaced (protectedSnapshot.ts).
 * `node_modules` is not entered: nothing there runs by itself, and it can hold most of the files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { executionSensitiveReason } from '../../../core/policy/executionSensitivePaths';
import { gitControlledPathsSync } from '../../../core/policy/gitControlledPaths';
import { IGNORE_FILE_NAMES } from '../../../core/policy/ignorePolicy';
import { basenameMatcher, DEFAULT_SECRET_FILES } from '../../../core/policy/secretFiles';
import { isWithin } from '../../../core/workspace/pathWithin';
import { viewOfPath } from '../cow/stepView';

export { DEFAULT_SECRET_FILES };

export interface SandboxMounts {
  /** Absolute real paths to bind read-only. */
  readOnly: string[];
  /** Absolute real paths of files to bind empty. */
  hidden: string[];
  /** Folders outside the workspace covered by an empty tmpfs: the user's secret folders. */
  hiddenDirs: string[];
  /** Folders inside the workspace above a protected path, bound onto themselves, shallowest first. */
  pinned: string[];
  /** Workspace paths (absolute, as walked) that are protected by name: compared after the command. */
  protectedNames: Set<string>;
}

const norm = (seg: string) => seg.toLowerCase().replace(/[. ]+$/, '');

/** Why `rel` (a file or folder, `/`-separated) is protected by its name, or undefined. */
export function protectedReason(rel: string, isDir: boolean): string | undefined {
  const name = norm(rel.split('/').pop() ?? '');
  if (name === '.git') return 'git runs hooks and obeys config from .git';
  if (!isDir && (IGNORE_FILE_NAMES as readonly string[]).includes(name)) return 'Tandem and git decide from it what the agent may read';
  return executionSensitiveReason(isDir ? `${rel}/x` : rel);
}

/** The git dir `.git` names, configs `.git/config` includes, and hooks folders they name (gitControlledPaths.ts). */
function gitPathsOf(root: string): string[] {
  return gitControlledPathsSync(root, (p) => {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  }).map((g) => g.path);
}

function realOrUndefined(p: string): string | undefined {
  try {
    // A copy-on-write step's files are reached through its holder: a plain realpath would leave its namespace (stepView.ts).
    const view = viewOfPath(p);
    return view ? view.realpathSync(p, true) : fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** The user's folders of credentials and keys: hidden (empty) from every sandboxed command. */
const HOME_SECRET_DIRS = ['.ssh', '.aws', '.azure', '.config/gcloud', '.gnupg', '.kube', '.docker', '.password-store', '.local/share/keyrings', 'Library/Keychains', '.config/gh', '.terraform.d'];
/** …and files of credentials in the home folder. */
const HOME_SECRET_FILES = ['.netrc', '.git-credentials', '.npmrc', '.pypirc', '.pgpass', '.my.cnf', '.config/hub', '.cargo/credentials', '.cargo/credentials.toml', '.docker/config.json'];
/** node_modules is not walked for protected names, but a secret file inside it is hidden; bounded. */
const MAX_NODE_MODULES_ENTRIES = 50_000;

/**
 * Secrets outside the workspace that a command could otherwise read through the read-only `/`:
 * the user's credential folders and files, and secret-named files (`.env`, `*.pem`, `*.key`) in
 * the folders above each workspace folder.
 */
function outsideSecrets(roots: readonly string[], isSecret: (name: string) => boolean, isAllowed: (name: string) => boolean, home: string | undefined): { files: Set<string>; dirs: Set<string> } {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const holdsRoot = (p: string) => roots.some((r) => isWithin(p, r));
  if (home) {
    for (const d of HOME_SECRET_DIRS) {
      const real = realOrUndefined(path.join(home, d));
      if (real && safeIsDir(real) && !holdsRoot(real)) dirs.add(real);
    }
    for (const f of HOME_SECRET_FILES) {
      const real = realOrUndefined(path.join(home, f));
      if (real && !safeIsDir(real) && !roots.some((r) => isWithin(r, real))) files.add(real);
    }
  }
  for (const root of roots) {
    for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        // unreadable: nothing to hide there
      }
      for (const e of entries) {
        if (!isSecret(e.name) || isAllowed(e.name)) continue;
        const real = realOrUndefined(path.join(dir, e.name));
        if (real && !safeIsDir(real) && !roots.some((r) => isWithin(r, real))) files.add(real);
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  return { files, dirs };
}

/** Secret-named files anywhere under `root` (not in `.git`; node_modules as below), at their real paths. */
function secretsUnder(root: string, isSecret: (name: string) => boolean, isAllowed: (name: string) => boolean, out: Set<string>): void {
  walkFolders(root, (abs, e) => {
    if (e.isDirectory()) {
      if (e.name === 'node_modules') secretsInNodeModules(abs, isSecret, isAllowed, out);
      return e.name !== 'node_modules' && e.name !== '.git';
    }
    if (isSecret(e.name) && !isAllowed(e.name)) {
      const real = realOrUndefined(abs);
      if (real && !safeIsDir(real)) out.add(real);
    }
    return false;
  });
}

/** Secret-named files inside a node_modules folder (a package's `.env`), up to a bound. */
function secretsInNodeModules(dir: string, isSecret: (name: string) => boolean, isAllowed: (name: string) => boolean, out: Set<string>): void {
  let seen = 0;
  walkFolders(dir, (abs, e) => {
    seen++;
    if (e.isFile() && isSecret(e.name) && !isAllowed(e.name)) out.add(abs);
    return e.isDirectory();
  }, () => seen < MAX_NODE_MODULES_ENTRIES);
}

/**
 * The folders under `root`, depth first: `visit` sees every entry of each readable folder and says
 * whether to go into it; an unreadable folder is passed over (a command cannot read it either).
 * `more` is asked before each folder: false ends the walk.
 */
function walkFolders(root: string, visit: (abs: string, e: fs.Dirent) => boolean, more: () => boolean = () => true): void {
  const dirs = [root];
  while (dirs.length && more()) {
    const dir = dirs.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (visit(abs, e)) dirs.push(abs);
    }
  }
}

/**
 * `extraReadOnly`: folders outside the roots to bind read-only at their own paths (existing ones; their secret files hidden as in node_modules).
 * `secretsAlsoIn`: folders outside the roots whose secret files are hidden too (and those of the folders above them): the
 * workspace a step's worktree was made from, which the rest of the system (read-only, not hidden) would otherwise show.
 */
export function findSandboxMounts(roots: readonly string[], secretPatterns: readonly string[] = DEFAULT_SECRET_FILES, allowedSecrets: readonly string[] = [], extraReadOnly: readonly string[] = [], secretsAlsoIn: readonly string[] = []): SandboxMounts {
  const isSecret = basenameMatcher(secretPatterns);
  const isAllowed = basenameMatcher(allowedSecrets);
  const readOnly = new Set<string>();
  const hidden = new Set<string>();
  for (const dir of extraReadOnly) {
    const real = realOrUndefined(dir);
    if (!real || !safeIsDir(real)) continue;
    readOnly.add(real);
    secretsInNodeModules(real, isSecret, isAllowed, hidden);
  }
  const protectedNames = new Set<string>();
  const inWorkspace = (p: string) => roots.some((r) => isWithin(r, p));
  for (const root of roots) {
    for (const g of gitPathsOf(root)) {
      // Existing ones only (binding creates); one a command creates is found by the sweep afterwards.
      // Outside the workspace everything is read-only already, and the sweep must not delete there.
      const real = realOrUndefined(g);
      if (!real || !inWorkspace(real)) continue;
      protectedNames.add(g);
      readOnly.add(real);
    }
    walkFolders(root, (abs, e) => {
      const rel = path.relative(root, abs).split(path.sep).join('/');
      const real = e.isSymbolicLink() ? realOrUndefined(abs) : abs;
      const isDir = e.isDirectory() || (e.isSymbolicLink() && real !== undefined && safeIsDir(real));
      const why = protectedReason(rel, isDir);
      if (why) {
        protectedNames.add(abs);
        // A link pointing outside every workspace folder points at the read-only rest of the system.
        if (real && inWorkspace(real)) readOnly.add(real);
        return false;
      }
      if (!isDir && isSecret(e.name) && !isAllowed(e.name) && real && inWorkspace(real) && !safeIsDir(real)) hidden.add(real);
      if (e.isDirectory() && e.name === 'node_modules') secretsInNodeModules(abs, isSecret, isAllowed, hidden);
      return e.isDirectory() && e.name !== 'node_modules';
    });
  }
  const elsewhere = secretsAlsoIn.map(realOrUndefined).filter((d): d is string => d !== undefined && safeIsDir(d));
  for (const dir of elsewhere) secretsUnder(dir, isSecret, isAllowed, hidden);
  const outside = outsideSecrets([...roots, ...elsewhere], isSecret, isAllowed, process.env.HOME);
  for (const f of outside.files) hidden.add(f);
  const pinned = foldersAbove(roots, [...protectedNames, ...readOnly], [...readOnly]);
  return { readOnly: [...readOnly], hidden: [...hidden], hiddenDirs: [...outside.dirs], pinned, protectedNames };
}

/**
 * The folders strictly between a workspace folder and each of `paths` (those inside one), shallowest
 * first; none inside a read-only path (binding one there writable would open it) and none that is one.
 * Walked as named, and as resolved: a link's target has a chain of its own.
 */
function foldersAbove(roots: readonly string[], paths: readonly string[], readOnly: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    for (const at of new Set([p, realOrUndefined(p) ?? p])) {
      const root = roots.find((r) => isWithin(r, at) && r !== at);
      if (!root) continue;
      for (let dir = path.dirname(at); dir !== root && isWithin(root, dir); dir = path.dirname(dir)) {
        if (!readOnly.some((r) => isWithin(r, dir)) && safeIsDir(dir)) out.add(dir);
      }
    }
  }
  return [...out].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b));
}

function safeIsDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The paths protected by name in the workspace now (the walk alone: no secrets, no outside folders). */
export function protectedNamesNow(roots: readonly string[]): Set<string> {
  return findSandboxMounts(roots, [], []).protectedNames;
}
