/**
 * Step workspaces as git worktrees (the `StepWorkspaces` port, core/ports/stepWorkspaces.ts). A
 * worktree is made from the workspace as the user sees it: HEAD, plus every uncommitted change and
 * untracked file that is not ignored (copied over), so the step starts from what is on screen, not
 * from the last commit; the workspace's ignore files git ignores (`.tandemignore` listed in
 * `.gitignore`) are copied too, so a step reads exactly what the workspace allows. The workspace's
 * ignored dependency folders (node_modules, .venv, vendor…) are linked in, so a check such as
 * `npm test` runs there as it does in the workspace: the links point at the workspace's own folders,
 * which the step's sandbox sees read-only and its file tools see as outside its folder; they are
 * never read back as its changes. What the step changed is read back as a step patch against the
 * tree it started from (written when the worktree was made), without following any link.
 *
 * Worktrees are private: they live in a folder of this user's only (0700, checked to be theirs and
 * no link), under Linux's memory-backed /dev/shm when it has room, else the OS temp folder, one
 * folder per repository; each has an owner file naming the process that made it, so a run that
 * crashed leaves nothing for good: the next start (`sweep`) removes the worktrees whose owner is
 * gone, never those of a live process, after keeping what each step had changed, never applied, as a
 * step patch file where the host says. Git runs with hooks off: a repository's hooks must not run
 * because a step started.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { inSubmoduleRule, type LeftoverStep, type StepPatch, type StepPatchBefore, type StepPatchNotCarried, type StepWorkspace, type StepWorkspaces } from '../../core/ports/stepWorkspaces';
import { IGNORE_FILE_NAMES } from '../../core/policy/ignorePolicy';
import { encodeStepPatch } from '../../core/planRuns/stepPatchFile';
import { readStepEntry } from './readStepEntry';
import { ownerFileIn, processAlive, removeIfEmpty, stepFoldersRoot } from './stepFolderBase';

/**
 * Ignored folders a check needs and a step never changes: installed dependencies. Build outputs
 * (dist, out, target) are not linked: a step's build writes them, and a read-only link would fail it.
 */
const DEPENDENCY_DIRS = ['node_modules', 'bower_components', '.venv', 'venv', 'vendor'];

const GIT_ENV_DROP = /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|PREFIX)$/;

function gitEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !GIT_ENV_DROP.test(k)));
  return { ...env, GIT_TERMINAL_PROMPT: '0' };
}

const GIT_OPTS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.quotepath=off'];

/** Runs git without the repository's hooks or a pager; rejects with its stderr. */
function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...GIT_OPTS, ...args], { cwd, env: gitEnv(), maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args.find((a) => !a.startsWith('-')) ?? args[0]}: ${String(stderr).trim() || err.message}`));
      else resolve(String(stdout));
    });
  });
}

/** The bytes of git objects by id (`cat-file --batch`): one process for all of them. */
function gitBlobs(cwd: string, oids: readonly string[]): Promise<Map<string, Buffer>> {
  if (oids.length === 0) return Promise.resolve(new Map());
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_OPTS, 'cat-file', '--batch'], { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file: ${stderr.trim() || `exit ${code}`}`));
      const out = Buffer.concat(chunks);
      const blobs = new Map<string, Buffer>();
      let at = 0;
      while (at < out.length) {
        const nl = out.indexOf(10, at);
        const [oid = '', type = '', size = ''] = out.subarray(at, nl).toString('latin1').split(' ');
        if (type === 'missing' || !size) { at = nl + 1; continue; }
        const n = Number(size);
        blobs.set(oid, out.subarray(nl + 1, nl + 1 + n));
        at = nl + 1 + n + 1;
      }
      resolve(blobs);
    });
    child.stdin.end(oids.map((o) => `${o}\n`).join(''));
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

/**
 * Where this repository's step worktrees go: `<dir>/<id>` where dir is the host's choice
 * (`TANDEM_WORKTREES_DIR`, read by the host), else Linux's memory-backed /dev/shm when it has room
 * (checking out and removing a tree there takes a fraction of the time it takes on a busy disk; the
 * files are throwaway copies), else the OS temp folder — in a folder of this user's only.
 */
export function worktreesBase(top: string, dir?: string): string {
  const id = createHash('sha256').update(top).digest('hex').slice(0, 12);
  if (dir) return path.join(dir, id);
  return path.join(stepFoldersRoot('tandem-worktrees'), id);
}

const splitZ = (s: string) => s.split('\0').filter(Boolean);

/** What the host keeps for one worktree beside what the port hands out. */
interface Worktree {
  /** The worktree's folder (the repository's top level inside it). */
  dir: string;
  top: string;
  /** The workspace within the repository (`''` or `sub/dir/`). */
  prefix: string;
  /** The tree the step started from (HEAD plus the workspace's changes). */
  baseTree: string;
  /** The dependency folders linked in (top-level relative), never the step's changes. */
  linked: string[];
  /** Git's record of this worktree in the repository (`.git/worktrees/<name>`), removed with it. */
  admin: string;
}

/** The owner file's second line, written once the worktree is made: what a sweep needs to keep its changes. */
interface OwnerRecord {
  base: string;
  linked: string[];
  prefix?: string;
}

export interface GitStepWorkspacesOptions {
  /** Where worktrees go (the host reads `TANDEM_WORKTREES_DIR`); default: /dev/shm or the temp folder. */
  dir?: string;
}

export class GitStepWorkspaces implements StepWorkspaces {
  private readonly made = new Map<StepWorkspace, Promise<Worktree>>();

  constructor(private readonly o: GitStepWorkspacesOptions = {}) {}

  async unavailable(workspace: string): Promise<string | undefined> {
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

  /**
   * The worktree's folder at once (two git calls), its files once `ready`: the step's first request
   * to the model need not wait for the checkout.
   */
  async create(workspace: string, label: string): Promise<StepWorkspace> {
    const [top = '', prefix = ''] = (await git(workspace, ['rev-parse', '--show-toplevel', '--show-prefix'])).split('\n').map((l) => l.trim());
    const finding = ignoredDependencies(top, prefix);
    const dir = path.join(worktreesBase(top, this.o.dir), `${label}-${randomBytes(4).toString('hex')}`);
    // The owner file first: a crash between here and the end leaves something the next start can find.
    await writeOwnerFile(dir);
    const dependencies = await finding;
    const making = makeWorktree(workspace, top, prefix, dir, dependencies);
    // Not left unhandled while nobody awaits it yet; whoever awaits it sees the failure.
    making.catch(() => undefined);
    // A workspace below the repository's top level is a folder the checkout makes: wait for it.
    if (prefix) await making;
    const step: StepWorkspace = {
      kind: 'worktree',
      root: prefix ? path.join(dir, prefix) : dir,
      workspace,
      readOnlyFolders: dependencies.map((d) => path.join(top, d)),
      ready: making.then(() => undefined),
    };
    this.made.set(step, making);
    return step;
  }

  async readPatch(step: StepWorkspace): Promise<StepPatch> {
    const wt = await this.worktree(step);
    return readWorktreePatch(wt.dir, { base: wt.baseTree, linked: wt.linked, prefix: wt.prefix });
  }

  async remove(step: StepWorkspace): Promise<void> {
    const wt = await this.made.get(step)?.catch(() => undefined);
    this.made.delete(step);
    if (!wt) return;
    await inTurn(wt.top, () => removeTree(wt.admin));
    await removeWorktreeDir(wt.top, wt.dir, false);
  }

  async sweep(workspace: string, keepIn: string): Promise<LeftoverStep[]> {
    let top: string;
    try {
      top = (await git(workspace, ['rev-parse', '--show-toplevel'])).trim();
    } catch {
      return [];
    }
    const base = worktreesBase(top, this.o.dir);
    const names = await fs.readdir(base).catch(() => [] as string[]);
    const seen = new Set<string>();
    const removed: LeftoverStep[] = [];
    for (const name of names) {
      // A list of paths being staged belongs to a worktree being made (its owner file decides).
      if (name.endsWith('.paths')) continue;
      const dir = path.join(base, name.replace(/\.owner$/, ''));
      if (seen.has(dir)) continue;
      seen.add(dir);
      const owner = readOwner(await fs.readFile(`${dir}.owner`, 'utf8').catch(() => ''));
      if (processAlive(owner.pid)) continue;
      let patch: string | null;
      try {
        patch = await keepLeftoverChanges(dir, owner.record, keepIn);
      } catch (e) {
        removed.push({ kind: 'worktree', dir, patch: null, notKept: e instanceof Error ? e.message : String(e) });
        continue;
      }
      await removeWorktreeDir(top, dir);
      removed.push({ kind: 'worktree', dir, patch });
    }
    // Also an empty folder an earlier run left behind.
    await removeIfEmpty(base);
    return removed;
  }

  private worktree(step: StepWorkspace): Promise<Worktree> {
    const wt = this.made.get(step);
    if (!wt) throw new Error(`no step workspace at ${step.root} (removed already, or made elsewhere)`);
    return wt;
  }
}

async function makeWorktree(workspace: string, top: string, prefix: string, dir: string, dependencies: readonly string[]): Promise<Worktree> {
  try {
    // Registered without a checkout, then checked out by read-tree: `worktree add` checks out through a
    // `git reset --hard` of its own, which costs more for the same files (see bench/graph.bench.mjs).
    await inTurn(top, () => git(top, ['worktree', 'add', '--detach', '--quiet', '--no-checkout', dir, 'HEAD']));
    const admin = path.resolve(dir, (await fs.readFile(path.join(dir, '.git'), 'utf8')).replace(/^gitdir:\s*/, '').trim());
    await git(dir, ['read-tree', '-u', '--reset', 'HEAD']);
    // What the user sees: changed tracked files (and deletions), and untracked files not ignored.
    const pathspec = prefix ? [`:(literal)${prefix}`] : ['.'];
    // One status (porcelain: paths from the top level, `XY path` each): staged, unstaged and untracked alike.
    const status = splitZ(await git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...pathspec]));
    // An untracked file gone by the time it is copied (a temporary file another step's apply just
    // renamed into place) is not part of the start: git would refuse to stage a path it never knew.
    const copied: string[] = [];
    for (const [rel, untracked] of new Map(status.map((e) => [e.slice(3), e.startsWith('??')]))) {
      if ((await copyOver(path.join(top, rel), path.join(dir, rel))) || !untracked) copied.push(rel);
    }
    // The starting tree: HEAD's, with only the copied files staged over it (the rest is HEAD as checked out).
    if (copied.length) {
      const list = `${dir}.paths`;
      await fs.writeFile(list, copied.map((p) => `:(literal)${p}`).join('\0'), { mode: 0o600 });
      try {
        await git(dir, ['add', '-A', `--pathspec-from-file=${list}`, '--pathspec-file-nul']);
      } finally {
        await fs.rm(list, { force: true });
      }
    }
    // Nothing copied: the starting tree is HEAD's as checked out (one git call less per step).
    const baseTree = copied.length ? (await git(dir, ['write-tree'])).trim() : (await git(dir, ['rev-parse', 'HEAD^{tree}'])).trim();
    await copyIgnoredIgnoreFiles(top, prefix, dir);
    const linked = await linkDependencies(top, dir, dependencies);
    // What a crash would need to keep the step's own changes (keepLeftoverChanges): recorded once the step can change anything.
    await fs.writeFile(`${dir}.owner`, `${process.pid}\n${JSON.stringify({ base: baseTree, linked, prefix } satisfies OwnerRecord)}\n`, { mode: 0o600 });
    return { dir, top, prefix, baseTree, linked, admin };
  } catch (e) {
    await removeWorktreeDir(top, dir);
    throw e;
  }
}

/**
 * The workspace's ignore files that git itself ignores (a `.tandemignore` listed in `.gitignore`),
 * copied into the worktree: the step's ignore policy reads them there, so it refuses what the
 * workspace refuses. Ignored, they are never part of the step's result.
 */
async function copyIgnoredIgnoreFiles(top: string, prefix: string, dir: string): Promise<void> {
  const names = IGNORE_FILE_NAMES.flatMap((n) => [`:(glob)${prefix}**/${n}`]);
  const out = await git(top, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...names]).catch(() => '');
  for (const rel of splitZ(out)) {
    const from = path.join(top, rel);
    const st = await fs.lstat(from).catch(() => undefined);
    if (!st?.isFile()) continue;
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.copyFile(from, path.join(dir, rel));
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

/** The workspace's file (or symlink, or its absence) made the same in the worktree, mode included; false when the workspace has nothing there. */
async function copyOver(from: string, to: string): Promise<boolean> {
  const st = await fs.lstat(from).catch(() => undefined);
  // A folder git lists as changed is a submodule with changes of its own: its repository's, not this
  // one's. Its empty folder stays, so the starting tree keeps the submodule (and what the step writes
  // there is named as not carried, never taken as this repository's files).
  if (st?.isDirectory()) return true;
  await fs.rm(to, { force: true, recursive: true });
  if (!st) return false;
  await fs.mkdir(path.dirname(to), { recursive: true });
  try {
    if (st.isSymbolicLink()) await fs.symlink(await fs.readlink(from), to);
    else if (st.isFile()) {
      await fs.copyFile(from, to);
      await fs.chmod(to, st.mode & 0o777);
    }
  } catch (e) {
    // Gone between the look and the copy: as if it had not been there.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !(await fs.lstat(from).catch(() => undefined))) {
      await fs.rm(to, { force: true });
      return false;
    }
    throw e;
  }
  return true;
}

/** The dependency links, never a change of the step's; the rest of the workspace's part of the repository. */
const patchPathspec = (r: OwnerRecord) => [r.prefix ? `:(literal)${r.prefix}` : '.', ...r.linked.map((l) => `:(exclude,literal)${l}`)];

/**
 * What the step changed in the worktree at `dir` against the tree it started from, workspace-relative:
 * git names the paths (the index takes every change, by the step's tools, commands and check), the
 * file system gives their bytes, read without following links (readStepEntry).
 */
async function readWorktreePatch(dir: string, r: OwnerRecord): Promise<StepPatch> {
  const pathspec = patchPathspec(r);
  await git(dir, ['add', '-A', '--', ...pathspec]);
  const names = splitZ(await git(dir, ['diff', '--cached', '--name-only', '-z', '--no-renames', r.base, '--', ...pathspec])).sort();
  // What each path was at the start: its mode and object in the starting tree.
  const listed = new Map<string, { mode: string; oid: string }>();
  for (const line of splitZ(await git(dir, ['ls-tree', '-r', '-z', '--full-tree', r.base]))) {
    const tab = line.indexOf('\t');
    const [mode = '', , oid = ''] = line.slice(0, tab).split(' ');
    listed.set(line.slice(tab + 1), { mode, oid });
  }
  const notCarried = await writtenInSubmodules(dir, r, listed);
  const carried = notCarried.length ? { notCarried } : {};
  if (names.length === 0) return { entries: [], ...carried };
  const blobs = await gitBlobs(dir, [...new Set(names.flatMap((n) => { const l = listed.get(n); return l && l.mode !== '160000' ? [l.oid] : []; }))]);
  const beforeOf = (top: string): StepPatchBefore => {
    const l = listed.get(top);
    const bytes = l && blobs.get(l.oid);
    if (!l || !bytes) return null;
    return { kind: l.mode === '120000' ? 'symlink' : 'file', sha256: createHash('sha256').update(bytes).digest('hex') };
  };
  const entries = [];
  for (const top of names) {
    const rel = r.prefix ? top.slice(r.prefix.length) : top;
    entries.push(await readStepEntry(r.prefix ? path.join(dir, r.prefix) : dir, rel, beforeOf(top)));
  }
  return { entries, ...carried };
}

/**
 * What the step wrote inside the repository's submodules, named as not carried (workspace-relative).
 * A worktree's submodule folders start empty (git checks none out), so whatever is in one the step
 * put there; `git add -A` takes none of it, so it would otherwise be dropped without a word.
 */
async function writtenInSubmodules(dir: string, r: OwnerRecord, listed: ReadonlyMap<string, { mode: string }>): Promise<StepPatchNotCarried[]> {
  const out: StepPatchNotCarried[] = [];
  const prefix = r.prefix ?? '';
  const subs = [...listed].filter(([p, l]) => l.mode === '160000' && p.startsWith(prefix)).map(([p]) => p).sort();
  const walk = async (sub: string, rel: string): Promise<void> => {
    const st = await fs.lstat(path.join(dir, rel)).catch(() => undefined);
    if (!st) return;
    if (!st.isDirectory()) {
      if (rel !== sub) out.push({ path: rel.slice(prefix.length), rule: inSubmoduleRule(sub.slice(prefix.length)) });
      return;
    }
    for (const name of (await fs.readdir(path.join(dir, rel)).catch(() => [] as string[])).sort()) await walk(sub, `${rel}/${name}`);
  };
  for (const sub of subs) await walk(sub, sub);
  return out;
}

/**
 * The files first (no git needed), then git forgets the worktree whose folder is gone (`prune`);
 * the repository's folder of worktrees goes too once it is empty (nothing is left behind in /dev/shm).
 */
async function removeWorktreeDir(top: string, dir: string, prune = true): Promise<void> {
  await removeTree(dir);
  await fs.rm(`${dir}.owner`, { force: true });
  if (prune) await inTurn(top, () => git(top, ['worktree', 'prune']).catch(() => undefined));
  // Stays while another worktree (or its owner file) is there, which is what we want.
  await removeIfEmpty(path.dirname(dir));
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

/** A worktree's owner file and its (empty) folder, which `git worktree add` accepts: from here on it can be a root already. */
const writeOwnerFile = (dir: string) => ownerFileIn(dir, `${process.pid}\n`, { makeDir: true });

function readOwner(text: string): { pid: number; record?: OwnerRecord } {
  const [pid = '', record = ''] = text.split('\n');
  try {
    const r = JSON.parse(record) as OwnerRecord;
    return { pid: Number(pid.trim()), ...(typeof r?.base === 'string' && Array.isArray(r.linked) ? { record: r } : {}) };
  } catch {
    return { pid: Number(pid.trim()) };
  }
}

/**
 * The step's changes in a leftover worktree as a step patch file in `keepIn` (paths from the
 * workspace's root); null when there are none, or when the worktree was still being made (no start
 * recorded: the step had changed nothing yet).
 */
async function keepLeftoverChanges(dir: string, record: OwnerRecord | undefined, keepIn: string): Promise<string | null> {
  if (!record || !(await fs.stat(path.join(dir, '.git')).then(() => true, () => false))) return null;
  const patch = await readWorktreePatch(dir, record);
  if (patch.entries.length === 0 && !patch.notCarried?.length) return null;
  await fs.mkdir(keepIn, { recursive: true, mode: 0o700 });
  const step = /^step(\d+)-/.exec(path.basename(dir))?.[1];
  const file = path.join(keepIn, `${path.basename(dir)}.patch.json`);
  await fs.writeFile(file, encodeStepPatch(patch, step ? Number(step) : undefined), { mode: 0o600 });
  return file;
}
