/**
 * A git worktree for one plan step that runs beside another, made from the workspace as the user
 * sees it: HEAD, plus every uncommitted change and untracked file that is not ignored (copied over),
 * so the step starts from what is on screen, not from the last commit. The workspace's ignored
 * dependency folders (node_modules, .venv, vendor…) are linked in, so a check such as `npm test`
 * runs there as it does in the workspace: the links point at the workspace's own folders, which the
 * step's sandbox (rooted at the worktree) sees read-only and its file tools see as outside its
 * folder, so nothing the step does writes into them; they are never read back as its changes. What the step changed is
 * read back as whole files against that starting point (a tree written when the worktree was made),
 * and applied to the workspace only if none of those files changed in the workspace meanwhile:
 * refused whole otherwise, never half-applied (applyStepChanges).
 *
 * Worktrees live under the OS temp folder, one folder per workspace, each with an owner file naming
 * the process that made it, so a run that crashed leaves nothing for good: the next start removes the
 * worktrees whose owner is gone (removeLeftoverWorktrees), never those of a live process. What a
 * step had changed there, never applied, is first kept as a patch the user can apply (the owner
 * file records the tree the step started from, so the patch holds the step's changes only).
 * Git runs with hooks off: a repository's hooks must not run because a step started.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { statfsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliHistoryDir } from '../history/storageDir';

/** One file a step changed, workspace-relative (forward slashes); null = absent (created / deleted). */
export interface StepFileChange {
  path: string;
  before: string | null;
  after: string | null;
}

export interface StepWorktree {
  /** The worktree's folder (the repository's top level inside it). */
  dir: string;
  /** The workspace's folder inside the worktree (dir, or a subfolder when the workspace is one of the repository). */
  root: string;
  /** The workspace root it was made from. */
  workspace: string;
  /** The repository's top level (the workspace, or a folder above it). */
  top: string;
  /** The workspace within the repository (`''` or `sub/dir/`). */
  prefix: string;
  /** The tree the step started from (HEAD plus the workspace's changes). */
  baseTree: string;
  /** The workspace's ignored dependency folders linked into it (top-level relative), never the step's changes. */
  linked: string[];
  /** Git's record of this worktree in the repository (`.git/worktrees/<name>`), removed with it. */
  admin: string;
}

/**
 * Ignored folders a check needs and a step never changes: installed dependencies. Build outputs
 * (dist, out, target) are not linked: a step's build writes them, and a read-only link would fail it.
 */
const DEPENDENCY_DIRS = ['node_modules', 'bower_components', '.venv', 'venv', 'vendor'];

const GIT_ENV_DROP = /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|PREFIX)$/;

/** Runs git without the repository's hooks or a pager; rejects with its stderr. */
function git(cwd: string, args: readonly string[], opts: { binary?: boolean } = {}): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !GIT_ENV_DROP.test(k)));
  return new Promise((resolve, reject) => {
    execFile('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'core.quotepath=off', ...args], { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 256 * 1024 * 1024, encoding: opts.binary ? 'latin1' : 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0]}: ${String(stderr).trim() || err.message}`));
      else resolve(String(stdout));
    });
  });
}

/**
 * Git's worktree bookkeeping (.git/worktrees) is not safe for two `worktree add`/`remove`/`prune` at
 * once (one reads the other's half-made entry): per repository, they take turns.
 */
const repoTurns = new Map<string, Promise<unknown>>();
function inTurn<T>(top: string, work: () => Promise<T>): Promise<T> {
  const prev = repoTurns.get(top) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(work);
  repoTurns.set(top, next.catch(() => undefined));
  return next;
}

/** Memory-backed room worth using for worktrees (a container's 64 MB /dev/shm is not). */
const SHM_MIN_FREE = 2 * 1024 ** 3;
let shmUsable: boolean | undefined;

/**
 * Where this workspace's step worktrees go: `$TANDEM_WORKTREES_DIR`, else Linux's memory-backed
 * /dev/shm when it has room (checking out and removing a tree there takes a fraction of the time it
 * takes on a busy disk; the files are throwaway copies), else the OS temp folder.
 */
export function worktreesBase(top: string): string {
  const id = createHash('sha256').update(top).digest('hex').slice(0, 12);
  if (process.env.TANDEM_WORKTREES_DIR) return path.join(process.env.TANDEM_WORKTREES_DIR, id);
  if (shmUsable === undefined) {
    try {
      const s = statfsSync('/dev/shm');
      shmUsable = process.platform === 'linux' && s.bavail * s.bsize >= SHM_MIN_FREE;
    } catch {
      shmUsable = false;
    }
  }
  return path.join(shmUsable ? '/dev/shm' : os.tmpdir(), 'tandem-worktrees', id);
}

/** Why steps cannot get worktrees here (not git, no commit yet), or undefined when they can. */
export async function worktreeUnavailable(workspace: string): Promise<string | undefined> {
  try {
    await git(workspace, ['rev-parse', '--show-toplevel']);
  } catch {
    return 'the workspace is not in a git repository, so steps cannot get worktrees of their own';
  }
  try {
    await git(workspace, ['rev-parse', '--verify', '-q', 'HEAD']);
  } catch {
    return 'the repository has no commit yet, so steps cannot get worktrees of their own';
  }
  return undefined;
}

const splitZ = (s: string) => s.split('\0').filter(Boolean);

/** A worktree for step `label` of the workspace as it is now. */
export async function createStepWorktree(workspace: string, label: string): Promise<StepWorktree> {
  return (await startStepWorktree(workspace, label)).ready;
}

/**
 * Where the step's worktree will be, at once (two git calls), with the workspace's dependency
 * folders it links to (absolute: its commands read them, read-only), and the worktree itself once
 * made (`ready`): the step's first request to the model need not wait for the checkout.
 */
export async function startStepWorktree(workspace: string, label: string): Promise<{ root: string; dependencies: string[]; ready: Promise<StepWorktree> }> {
  const [top = '', prefix = ''] = (await git(workspace, ['rev-parse', '--show-toplevel', '--show-prefix'])).split('\n').map((l) => l.trim());
  const finding = ignoredDependencies(top, prefix);
  const dir = path.join(worktreesBase(top), `${label}-${randomBytes(4).toString('hex')}`);
  // The owner file first: a crash between here and the end leaves something the next start can find.
  await writeOwnerFile(dir);
  const dependencies = await finding;
  const ready = makeWorktree(workspace, top, prefix, dir, dependencies);
  // Not left unhandled while nobody awaits it yet; whoever awaits it sees the failure.
  ready.catch(() => undefined);
  // A workspace below the repository's top level is a folder the checkout makes: wait for it.
  if (prefix) await ready;
  return { root: prefix ? path.join(dir, prefix) : dir, dependencies: dependencies.map((d) => path.join(top, d)), ready };
}

async function makeWorktree(workspace: string, top: string, prefix: string, dir: string, dependencies: readonly string[]): Promise<StepWorktree> {
  try {
    // Registered without a checkout, then checked out by read-tree: `worktree add` checks out through a
    // `git reset --hard` of its own, which costs more for the same files (see bench/graph.bench.mjs).
    await inTurn(top, () => git(top, ['worktree', 'add', '--detach', '--quiet', '--no-checkout', dir, 'HEAD']));
    const admin = path.resolve(dir, (await fs.readFile(path.join(dir, '.git'), 'utf8')).replace(/^gitdir:\s*/, '').trim());
    await git(dir, ['read-tree', '-u', '--reset', 'HEAD']);
    // What the user sees: changed tracked files (and deletions), and untracked files not ignored.
    const pathspec = prefix ? [prefix] : ['.'];
    // One status (porcelain: paths from the top level, `XY path` each): staged, unstaged and untracked alike.
    const status = splitZ(await git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...pathspec]));
    const copied = [...new Set(status.map((e) => e.slice(3)))];
    for (const rel of copied) await copyOver(path.join(top, rel), path.join(dir, rel));
    // The starting tree: HEAD's, with only the copied files staged over it (the rest is HEAD as checked out).
    if (copied.length) {
      const list = `${dir}.paths`;
      await fs.writeFile(list, copied.map((p) => `:(literal)${p}`).join('\0'));
      try {
        await git(dir, ['add', '-A', `--pathspec-from-file=${list}`, '--pathspec-file-nul']);
      } finally {
        await fs.rm(list, { force: true });
      }
    }
    // Nothing copied: the starting tree is HEAD's as checked out (one git call less per step).
    const baseTree = copied.length ? (await git(dir, ['write-tree'])).trim() : 'HEAD^{tree}';
    const linked = await linkDependencies(top, dir, dependencies);
    // What a crash would need to keep the step's own changes (keepLeftoverChanges): recorded once the step can change anything.
    await fs.writeFile(`${dir}.owner`, `${process.pid}\n${JSON.stringify({ base: baseTree, linked } satisfies OwnerRecord)}\n`);
    return { dir, root: prefix ? path.join(dir, prefix) : dir, workspace, top, prefix, baseTree, linked, admin };
  } catch (e) {
    await removeWorktreeDir(top, dir);
    throw e;
  }
}

/** The workspace's ignored dependency folders, at the repository's top and the workspace's root (top-level relative). */
async function ignoredDependencies(top: string, prefix: string): Promise<string[]> {
  const present: string[] = [];
  for (const base of new Set(['', prefix])) {
    for (const name of DEPENDENCY_DIRS) {
      const rel = `${base}${name}`;
      if ((await fs.stat(path.join(top, rel)).catch(() => undefined))?.isDirectory()) present.push(rel);
    }
  }
  if (present.length === 0) return [];
  // A trailing slash, so a folder-only rule (`node_modules/`) matches; exit 1 when none is ignored.
  const out = await git(top, ['check-ignore', '--', ...present.map((p) => `${p}/`)]).catch(() => '');
  return out.split('\n').map((l) => l.trim().replace(/\/$/, '')).filter((l) => present.includes(l));
}

/** Links the dependency folders into the worktree; returns those linked (a folder checked out there already is left alone). */
async function linkDependencies(top: string, dir: string, dependencies: readonly string[]): Promise<string[]> {
  const linked: string[] = [];
  for (const rel of dependencies) {
    const at = path.join(dir, rel);
    if (await fs.lstat(at).then(() => true, () => false)) continue;
    await fs.mkdir(path.dirname(at), { recursive: true });
    await fs.symlink(path.join(top, rel), at, process.platform === 'win32' ? 'junction' : 'dir');
    linked.push(rel);
  }
  return linked;
}

/** The workspace's file (or symlink, or its absence) made the same in the worktree. */
async function copyOver(from: string, to: string): Promise<void> {
  const st = await fs.lstat(from).catch(() => undefined);
  await fs.rm(to, { force: true, recursive: true });
  if (!st) return;
  await fs.mkdir(path.dirname(to), { recursive: true });
  if (st.isSymbolicLink()) await fs.symlink(await fs.readlink(from), to);
  else if (st.isFile()) await fs.copyFile(from, to);
}

/** What the step changed in its worktree, file by file, against the tree it started from. */
export async function stepChanges(wt: StepWorktree): Promise<StepFileChange[]> {
  // The linked dependency folders are links git would see as new files: never the step's.
  const pathspec = [wt.prefix || '.', ...wt.linked.map((l) => `:(exclude,literal)${l}`)];
  await git(wt.dir, ['add', '-A', '--', ...pathspec]);
  const names = splitZ(await git(wt.dir, ['diff', '--cached', '--name-only', '-z', '--no-renames', wt.baseTree, '--', ...pathspec]));
  const out: StepFileChange[] = [];
  for (const top of names.sort()) {
    const rel = wt.prefix ? top.slice(wt.prefix.length) : top;
    const before = await git(wt.dir, ['cat-file', 'blob', `${wt.baseTree}:${top}`]).catch(() => null);
    const after = await fs.readFile(path.join(wt.dir, top), 'utf8').catch(() => null);
    out.push({ path: rel, before, after });
  }
  return out;
}

/** Writes (or deletes) one workspace file; the caller checkpoints it first. */
export interface WorkspaceWriter {
  read(abs: string): Promise<string | null>;
  write(abs: string, content: string): Promise<void>;
  delete(abs: string): Promise<void>;
}

export type ApplyResult = { ok: true; applied: string[] } | { ok: false; conflicts: string[] };

/**
 * The step's changes onto the workspace, all or nothing: every file is first compared with what the
 * step started from; if any changed in the workspace since, nothing is written and the conflicting
 * files are returned. Only then are the files written, one after another.
 */
export async function applyStepChanges(workspace: string, changes: readonly StepFileChange[], io: WorkspaceWriter): Promise<ApplyResult> {
  const conflicts: string[] = [];
  for (const c of changes) {
    const now = await io.read(path.join(workspace, c.path));
    if (now !== c.before) conflicts.push(c.path);
  }
  if (conflicts.length) return { ok: false, conflicts };
  for (const c of changes) {
    const abs = path.join(workspace, c.path);
    if (c.after === null) await io.delete(abs);
    else await io.write(abs, c.after);
  }
  return { ok: true, applied: changes.map((c) => c.path) };
}

/**
 * Removes the worktree, its owner file and its registration in the repository (git's own record,
 * read when it was made, removed as `git worktree remove` does: no git process, no scan of the others).
 */
export async function removeStepWorktree(wt: StepWorktree): Promise<void> {
  await inTurn(wt.top, () => removeTree(wt.admin));
  await removeWorktreeDir(wt.top, wt.dir, false);
}

/**
 * The files first (no git needed), then git forgets the worktree whose folder is gone (`prune`);
 * the workspace's folder of worktrees goes too once it is empty (nothing is left behind in /dev/shm).
 */
async function removeWorktreeDir(top: string, dir: string, prune = true): Promise<void> {
  await removeTree(dir);
  await fs.rm(`${dir}.owner`, { force: true });
  if (prune) await inTurn(top, () => git(top, ['worktree', 'prune']).catch(() => undefined));
  // Fails while another worktree (or its owner file) is there, which is what we want; writeOwnerFile copes with the race.
  await fs.rmdir(path.dirname(dir)).catch(() => undefined);
}

/**
 * Deletes a folder and everything in it (links themselves, never what they point to). `rm -rf`
 * where there is one: it takes a fraction of the time Node's recursive rm takes on a worktree.
 */
async function removeTree(dir: string): Promise<void> {
  if (process.platform !== 'win32') {
    const ok = await new Promise<boolean>((resolve) => execFile('rm', ['-rf', '--', dir], (err) => resolve(!err)));
    if (ok) return;
  }
  await fs.rm(dir, { recursive: true, force: true });
}

/** A worktree's owner file, in its workspace's folder of worktrees (made again if a removal just took the empty folder away). */
async function writeOwnerFile(dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await fs.mkdir(path.dirname(dir), { recursive: true });
    try {
      await fs.writeFile(`${dir}.owner`, `${process.pid}\n`);
      // The folder exists (empty, as `git worktree add` accepts it) from here on, so it can be a root already.
      await fs.mkdir(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw e;
    }
  }
}

/** The owner file's second line, written once the worktree is made. */
interface OwnerRecord {
  base: string;
  linked: string[];
}

function readOwner(text: string): { pid: number; record?: OwnerRecord } {
  const [pid = '', record = ''] = text.split('\n');
  try {
    const r = JSON.parse(record) as OwnerRecord;
    return { pid: Number(pid.trim()), ...(typeof r?.base === 'string' && Array.isArray(r.linked) ? { record: r } : {}) };
  } catch {
    return { pid: Number(pid.trim()) };
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A worktree a gone process left: removed, its unapplied changes kept as `patch` (null: it had none), or kept in place when they could not be (`notKept`). */
export interface LeftoverWorktree {
  dir: string;
  patch: string | null;
  notKept?: string;
}

/** Where leftover steps' changes are kept when the host names no folder: the user's Tandem data folder for this workspace, never the workspace. */
export function interruptedStepsDir(workspace: string): string {
  return path.join(cliHistoryDir(workspace), 'interrupted-steps');
}

/**
 * The step's changes in a leftover worktree against the tree it started from, as a binary git patch
 * (paths from the repository's top) in `keepIn`; null when there are none, or when the worktree was
 * still being made (no start recorded: the step had changed nothing yet).
 */
async function keepLeftoverChanges(dir: string, record: OwnerRecord | undefined, keepIn: string): Promise<string | null> {
  if (!record || !(await fs.stat(path.join(dir, '.git')).then(() => true, () => false))) return null;
  const pathspec = ['.', ...record.linked.map((l) => `:(exclude,literal)${l}`)];
  await git(dir, ['add', '-A', '--', ...pathspec]);
  const diff = await git(dir, ['diff', '--cached', '--binary', '--no-renames', record.base, '--', ...pathspec], { binary: true });
  if (!diff) return null;
  await fs.mkdir(keepIn, { recursive: true });
  const patch = path.join(keepIn, `${path.basename(dir)}.patch`);
  await fs.writeFile(patch, diff, 'latin1');
  return patch;
}

/**
 * The step worktrees of this workspace's repository left by a process that is gone (a crash, a
 * kill): what each step had changed is kept as a patch in `keepIn`, then the worktree is removed
 * with its registration; a worktree whose changes could not be kept stays where it is. Never throws.
 */
export async function removeLeftoverWorktrees(workspace: string, keepIn = interruptedStepsDir(workspace)): Promise<LeftoverWorktree[]> {
  let top: string;
  try {
    top = (await git(workspace, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    return [];
  }
  const base = worktreesBase(top);
  const names = await fs.readdir(base).catch(() => [] as string[]);
  const seen = new Set<string>();
  const removed: LeftoverWorktree[] = [];
  for (const name of names) {
    // A list of paths being staged belongs to a worktree being made (its owner file decides).
    if (name.endsWith('.paths')) continue;
    const dir = path.join(base, name.replace(/\.owner$/, ''));
    if (seen.has(dir)) continue;
    seen.add(dir);
    const owner = readOwner(await fs.readFile(`${dir}.owner`, 'utf8').catch(() => ''));
    if (alive(owner.pid)) continue;
    let patch: string | null;
    try {
      patch = await keepLeftoverChanges(dir, owner.record, keepIn);
    } catch (e) {
      removed.push({ dir, patch: null, notKept: e instanceof Error ? e.message : String(e) });
      continue;
    }
    await removeWorktreeDir(top, dir);
    removed.push({ dir, patch });
  }
  // Also an empty folder an earlier version left behind.
  await fs.rmdir(base).catch(() => undefined);
  return removed;
}

/** What the user is told about a leftover worktree (the CLI's stderr, the editor's log). */
export function describeLeftover(l: LeftoverWorktree): string {
  const step = path.basename(l.dir).replace(/-[0-9a-f]{8}$/, '').replace(/^step(\d+)$/, 'step $1');
  const what = `${step} of a run that ended abruptly`;
  if (l.notKept) return `${what} left its worktree at ${l.dir}, kept there: its changes could not be saved as a patch (${l.notKept})`;
  if (l.patch) return `${what} had changes in its worktree that were not applied; they are kept in ${l.patch} (from the repository's top folder: git apply ${l.patch}); its worktree was removed`;
  return `${what} had changed nothing in its worktree: nothing was lost; its worktree was removed`;
}
