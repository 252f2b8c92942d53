/**
 * A git worktree for one plan step that runs beside another, made from the workspace as the user
 * sees it: HEAD, plus every uncommitted change and untracked file that is not ignored (copied over),
 * so the step starts from what is on screen, not from the last commit. What the step changed is
 * read back as whole files against that starting point (a tree written when the worktree was made),
 * and applied to the workspace only if none of those files changed in the workspace meanwhile:
 * refused whole otherwise, never half-applied (applyStepChanges).
 *
 * Worktrees live under the OS temp folder, one folder per workspace, each with an owner file naming
 * the process that made it, so a run that crashed leaves nothing for good: the next start removes the
 * worktrees whose owner is gone (removeLeftoverWorktrees), never those of a live process.
 * Git runs with hooks off: a repository's hooks must not run because a step started.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

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
}

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

/** Where this workspace's step worktrees go. */
export function worktreesBase(top: string): string {
  const id = createHash('sha256').update(top).digest('hex').slice(0, 12);
  return path.join(process.env.TANDEM_WORKTREES_DIR || path.join(os.tmpdir(), 'tandem-worktrees'), id);
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
  const top = (await git(workspace, ['rev-parse', '--show-toplevel'])).trim();
  const prefix = (await git(workspace, ['rev-parse', '--show-prefix'])).trim();
  const base = worktreesBase(top);
  await fs.mkdir(base, { recursive: true });
  const dir = path.join(base, `${label}-${randomBytes(4).toString('hex')}`);
  // The owner file first: a crash between here and the end leaves something the next start can find.
  await fs.writeFile(`${dir}.owner`, `${process.pid}\n`);
  try {
    await inTurn(top, () => git(top, ['worktree', 'add', '--detach', '--quiet', dir, 'HEAD']));
    // What the user sees: changed tracked files (and deletions), and untracked files not ignored.
    const pathspec = prefix ? [prefix] : ['.'];
    const changed = splitZ(await git(top, ['diff', '--name-only', '-z', '--no-renames', 'HEAD', '--', ...pathspec]));
    const untracked = splitZ(await git(top, ['ls-files', '--others', '--exclude-standard', '--full-name', '-z', '--', ...pathspec]));
    for (const rel of new Set([...changed, ...untracked])) await copyOver(path.join(top, rel), path.join(dir, rel));
    await git(dir, ['add', '-A', '--', ...pathspec]);
    const baseTree = (await git(dir, ['write-tree'])).trim();
    return { dir, root: prefix ? path.join(dir, prefix) : dir, workspace, top, prefix, baseTree };
  } catch (e) {
    await removeWorktreeDir(top, dir);
    throw e;
  }
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
  const pathspec = wt.prefix ? [wt.prefix] : ['.'];
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

/** Removes the worktree, its registration in the repository and its owner file. */
export async function removeStepWorktree(wt: StepWorktree): Promise<void> {
  await removeWorktreeDir(wt.top, wt.dir);
}

async function removeWorktreeDir(top: string, dir: string): Promise<void> {
  await inTurn(top, async () => {
    await git(top, ['worktree', 'remove', '--force', dir]).catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(`${dir}.owner`, { force: true });
    await git(top, ['worktree', 'prune']).catch(() => undefined);
  });
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

/**
 * The step worktrees of this workspace's repository left by a process that is gone (a crash, a
 * kill): removed with their registrations. Returns the folders removed. Never throws.
 */
export async function removeLeftoverWorktrees(workspace: string): Promise<string[]> {
  let top: string;
  try {
    top = (await git(workspace, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    return [];
  }
  const base = worktreesBase(top);
  const names = await fs.readdir(base).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(base, name.replace(/\.owner$/, ''));
    if (removed.includes(dir)) continue;
    const owner = Number((await fs.readFile(`${dir}.owner`, 'utf8').catch(() => '')).trim());
    if (alive(owner)) continue;
    await removeWorktreeDir(top, dir);
    removed.push(dir);
  }
  return removed;
}
