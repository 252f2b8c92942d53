/**
 * A copy-on-write step's patch, read from its own folder (the overlay's upper folder): what is there
 * is what the step wrote; what the workspace has and the step's view no longer shows is what it
 * deleted (a whiteout, or a folder it removed and made again). The cost follows the step's changes:
 * only the folders the step wrote in are listed, never the whole workspace.
 *
 * Named and not carried: files inside a git submodule (another repository's; the apply refuses them).
 * Kept out, as a git worktree keeps them out: paths git ignores (build output, installed
 * dependencies) — a path the step wrote by the step's own .gitignore files (git asked inside its
 * view, as `git add -A` in a worktree), a path it deleted by the workspace's (the step never had an
 * ignored one, as a worktree never has it) —, anything in a `.git` folder, paths outside the workspace's part of the repository,
 * FIFOs, sockets and devices (git sees none; a link to one is refused by name), and files the step
 * only opened for writing without changing them (overlayfs copies those up too).
 *
 * `before` (what the workspace had when the step started) is read from the workspace now. The
 * workspace is not frozen under a running step, so a path the workspace changed after the step
 * started gets a `before` that matches nothing: applying it is refused as changed meanwhile, which is
 * the truth. A path the workspace no longer has is harder: nothing in the step's folder says whether
 * it was there when the step wrote it (a tool's write, or `sed -i`, renames a new file over the old).
 * Removing a name changes its folder, so a path whose workspace folder is unchanged since the step
 * started was absent then too: the step made it. Where the folder changed, a path git tracks (in
 * HEAD or the index) was there, and so was one the step's file tools wrote over while the workspace
 * had it (noted as they wrote, stepView.ts), and so was an untracked file the workspace had when the
 * step started (listed then, in the background, and kept in the step's folder for a crashed run's
 * sweep: `untrackedAtStart`): the workspace deleted it meanwhile, a conflict, as in a worktree.
 * Without that list (the step's process ended before git answered) an untracked file only the step's
 * commands changed, deleted by the workspace meanwhile in a folder it changed, reads as one the step made.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { inSubmoduleRule, type StepPatch, type StepPatchBefore, type StepPatchEntry } from '../../../core/ports/stepWorkspaces';
import { readStepEntry } from '../readStepEntry';

export interface OverlayPatchSource {
  /** The repository's top folder: the overlay's lower folder. */
  top: string;
  /** The workspace within the repository (`''` or `sub/dir/`). */
  prefix: string;
  /** The step's upper folder. */
  upper: string;
  /** The overlay's top folder as this process reaches it (`/proc/<holder>/root/…`). */
  view: string;
  /** When the step started (ms since the epoch): a workspace path changed later is changed meanwhile. */
  startedMs: number;
  /** The command line prefix that enters the step's namespace, and the overlay's top folder as spelled there: git asks the step's own ignore rules there. */
  inside: { enter: readonly string[]; top: string };
  /**
   * What git said of each path asked before (ignored or not), kept for the step's life: its patch is
   * read several times (around its check, then to apply it), and git need only be asked of new paths.
   */
  ignoredKnown?: IgnoredKnown;
  /** Whether the step's file tools wrote over a path (top-relative) while the workspace had it (stepView.ts). */
  wroteOver?(rel: string): boolean;
  /** The untracked files (not ignored, top-relative) the workspace had when the step started; undefined when unknown. */
  untrackedAtStart?(): Promise<ReadonlySet<string> | undefined>;
}

/** What git said of the paths asked so far; the step's answers hold while its own .gitignore files stay as they were. */
export interface IgnoredKnown {
  /** Deleted paths, by the workspace's rules (the step never had the ignored ones, as a worktree never has them). */
  deleted: Map<string, boolean>;
  /** Written paths, by the step's own rules (git in the step, as `git add -A` in a worktree). */
  written: Map<string, boolean>;
  /** The .gitignore files the step changed (path, inode, size, time) when `written` was asked. */
  stepRules: string;
  /** Paths git refused to answer for because they are inside a submodule: the submodule's folder (top-relative), by path. */
  inSubmodule: Map<string, string>;
}

export const newIgnoredKnown = (): IgnoredKnown => ({ deleted: new Map(), written: new Map(), stepRules: '', inSubmodule: new Map() });

/** A `before` no workspace path matches (a hash of a sentence, not of a file): the workspace changed the path while the step ran. */
export const CHANGED_WHILE_RUNNING: StepPatchBefore = { kind: 'file', sha256: createHash('sha256').update('tandem: changed in the workspace while the step ran').digest('hex') };

const isGitPath = (rel: string) => rel.split('/').includes('.git');

async function lstat(p: string) {
  return fs.lstat(p).catch(() => undefined);
}

async function names(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => [] as string[]);
}

/** Every file and link under a workspace folder the step removed (top-relative). */
async function filesUnder(top: string, rel: string, out: Set<string>): Promise<void> {
  const st = await lstat(path.join(top, rel));
  if (!st) return;
  if (!st.isDirectory()) {
    out.add(rel);
    return;
  }
  for (const name of await names(path.join(top, rel))) await filesUnder(top, `${rel}/${name}`, out);
}

/**
 * The paths the step changed or deleted (top-relative), from its upper folder: a file or link there
 * is written; a whiteout (a 0/0 character device) is a deletion; a folder the step removed and made
 * again is opaque, hiding all of the workspace's folder but what it holds. Opaque is a mark in an
 * extended attribute Node cannot read, so it is told from the view: a folder whose view shows
 * nothing but the upper folder's own names. The view is never compared with the workspace name by
 * name: overlayfs may keep listing a folder as it was while the workspace changes below it.
 */
async function changedPaths(s: OverlayPatchSource): Promise<{ written: Set<string>; deleted: Set<string> }> {
  const written = new Set<string>();
  const deleted = new Set<string>();
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(s.upper, rel), { withFileTypes: true }).catch(() => []);
    const own = new Set(entries.map((e) => e.name));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (isGitPath(child)) continue;
      const lower = await lstat(path.join(s.top, child));
      if (e.isCharacterDevice() && (await lstat(path.join(s.upper, child)))?.rdev === 0) {
        await filesUnder(s.top, child, deleted);
        continue;
      }
      if (e.isDirectory()) {
        // A workspace file or link the step replaced with a folder: gone, and the folder's files new.
        if (lower && !lower.isDirectory()) deleted.add(child);
        await walk(child);
        continue;
      }
      // A workspace folder the step replaced with a file or link: its files gone.
      if (lower?.isDirectory()) await filesUnder(s.top, child, deleted);
      // FIFOs, sockets and devices are no change, as git sees none in a worktree (a link to one is refused by name).
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      written.add(child);
    }
    if (!rel || !(await lstat(path.join(s.top, rel)))?.isDirectory()) return;
    const shown = await names(path.join(s.view, rel));
    if (!shown.every((n) => own.has(n))) return;
    // Opaque: the workspace's names the step's folder does not hold are gone for the step.
    for (const name of await names(path.join(s.top, rel))) {
      const child = `${rel}/${name}`;
      if (!own.has(name) && !isGitPath(child)) await filesUnder(s.top, child, deleted);
    }
  };
  await walk('');
  for (const p of written) deleted.delete(p);
  return { written, deleted };
}

/** git could not say which of the step's files it ignores; `said` is git's own answer. */
class GitAnswer extends Error {
  constructor(readonly said: string) {
    super(`git could not tell which of the step's files it ignores, so its changes were not read (git said: ${said})`);
  }
}

/**
 * The paths among `paths` that git ignores (`check-ignore`: tracked files never are): in the
 * workspace at `top`, or, `inside` given, in the step's view entered from here (its own .gitignore files).
 */
function gitIgnored(top: string, paths: readonly string[], inside?: OverlayPatchSource['inside']): Promise<Set<string>> {
  if (paths.length === 0) return Promise.resolve(new Set());
  const args = ['-c', 'core.hooksPath=/dev/null', 'check-ignore', '-z', '--stdin'];
  const [cmd, ...argv] = inside ? [...inside.enter, 'git', '-C', inside.top, ...args] : ['git', ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, argv, { cwd: inside ? '/' : top, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    // Exit 1: none of them is ignored.
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(new Set(out.split('\0').filter(Boolean))) : reject(new GitAnswer(err.trim() || `exit ${code}`))));
    child.stdin.end(paths.join('\0') + '\0');
  });
}

/**
 * Asks git which of `paths` it ignores, where `base` is (the workspace, or the step's view entered
 * through `inside`), and notes the answers in `into`. git refuses a whole question with a path beyond
 * a link; such a path is no ignored file of git's (the apply refuses it by name: a link on the way).
 */
async function askIgnored(base: string, paths: readonly string[], into: Map<string, boolean>, inSubmodule: Map<string, string>, inside?: OverlayPatchSource['inside']): Promise<void> {
  let asked: string[] = [];
  for (const p of paths) {
    if (await beyondLink(base, p)) into.set(p, false);
    else asked.push(p);
  }
  for (;;) {
    try {
      const ignoredNow = await gitIgnored(base, asked, inside);
      for (const p of asked) into.set(p, ignoredNow.has(p));
      return;
    } catch (e) {
      // git refuses a whole question with a path inside a submodule: its files are its own repository's,
      // and git takes none of them into this one's changes. Kept out of the entries and noted: the
      // patch names them as not carried, so the apply refuses them by name (never dropped silently).
      const sub = e instanceof GitAnswer ? /is in submodule '([^']+)'/.exec(e.said)?.[1] : undefined;
      const inSub = sub ? asked.filter((p) => p.startsWith(`${sub}/`)) : [];
      if (inSub.length === 0) throw e;
      for (const p of inSub) {
        into.set(p, true);
        inSubmodule.set(p, sub!);
      }
      asked = asked.filter((p) => !inSub.includes(p));
    }
  }
}

/** The .gitignore files the step wrote or deleted, as they are now (path, inode, size, time): when they change, git is asked again. */
async function stepRules(s: OverlayPatchSource, changed: readonly string[]): Promise<string> {
  const out: string[] = [];
  for (const p of changed.filter((q) => path.posix.basename(q) === '.gitignore').sort()) {
    const st = await fs.lstat(path.join(s.upper, p), { bigint: true }).catch(() => undefined);
    out.push(`${p}:${st?.ino}:${st?.size}:${st?.mtimeNs}`);
  }
  return out.join('\n');
}

/** Whether a folder on the way to `rel` (top-relative) is a link under `base`. */
async function beyondLink(base: string, rel: string): Promise<boolean> {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    if ((await lstat(path.join(base, ...parts.slice(0, i))))?.isSymbolicLink()) return true;
  }
  return false;
}

/**
 * Whether the workspace may have removed `rel` (top-relative, absent now) since the step started:
 * the nearest folder on its way the workspace still has changed since then (or is no folder now).
 */
async function folderChangedSinceStart(s: OverlayPatchSource, rel: string): Promise<boolean> {
  for (let dir = path.posix.dirname(rel); ; dir = path.posix.dirname(dir)) {
    const st = await lstat(path.join(s.top, dir));
    if (st) return !st.isDirectory() || st.ctimeMs >= s.startedMs;
    if (dir === '.') return true;
  }
}

/** The paths among `paths` (top-relative) git tracks, in HEAD or in the index. */
function gitTracked(top: string, paths: readonly string[]): Promise<Set<string>> {
  // One line per path: a name with a newline cannot be asked, and counts as untracked.
  const asked = paths.filter((p) => !p.includes('\n'));
  if (asked.length === 0) return Promise.resolve(new Set());
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'core.hooksPath=/dev/null', 'cat-file', '--batch-check=%(objecttype)'], { cwd: top, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git could not tell which files it tracks (${err.trim() || `exit ${code}`})`));
      // Two answers per path, HEAD's then the index's: an object type, or the name asked and "missing".
      const lines = out.split('\n');
      resolve(new Set(asked.filter((_, i) => [lines[2 * i], lines[2 * i + 1]].some((l) => l !== undefined && l !== '' && !l.endsWith(' missing')))));
    });
    child.stdin.end(asked.map((p) => `HEAD:${p}\n:0:${p}\n`).join(''));
  });
}

/**
 * What the workspace has at `rel` now, as a step patch's `before`; `removedMeanwhile`: the paths absent now
 * that git tracks (a path absent in a folder changed since the start and tracked was there then).
 */
async function workspaceBefore(s: OverlayPatchSource, rel: string, removedMeanwhile: ReadonlySet<string>): Promise<StepPatchBefore> {
  const abs = path.join(s.top, rel);
  const st = await lstat(abs);
  if (!st) return removedMeanwhile.has(rel) ? CHANGED_WHILE_RUNNING : null;
  if (st.isDirectory()) return null;
  if (st.ctimeMs > s.startedMs) return CHANGED_WHILE_RUNNING;
  if (st.isSymbolicLink()) return { kind: 'symlink', sha256: createHash('sha256').update(await fs.readlink(abs)).digest('hex') };
  if (!st.isFile()) return CHANGED_WHILE_RUNNING;
  return { kind: 'file', sha256: createHash('sha256').update(await fs.readFile(abs)).digest('hex') };
}

/** Whether the step's entry is what the workspace has (a file copied up and left as it was). */
async function unchanged(s: OverlayPatchSource, rel: string, e: StepPatchEntry): Promise<boolean> {
  const abs = path.join(s.top, rel);
  const st = await lstat(abs);
  if (!st) return false;
  if (e.kind === 'symlink') return st.isSymbolicLink() && (await fs.readlink(abs)) === e.target;
  if (e.kind !== 'file' || !st.isFile() || (st.mode & 0o777) !== e.mode || st.size !== e.bytes.length) return false;
  return Buffer.from(e.bytes).equals(await fs.readFile(abs));
}

export async function readOverlayPatch(s: OverlayPatchSource): Promise<StepPatch> {
  const { written, deleted } = await changedPaths(s);
  const inWorkspace = (p: string) => !s.prefix || p.startsWith(s.prefix);
  const all = [...written, ...deleted].filter(inWorkspace);
  const known = s.ignoredKnown ?? newIgnoredKnown();
  const rules = await stepRules(s, [...written, ...deleted]);
  if (rules !== known.stepRules) {
    known.written.clear();
    known.stepRules = rules;
  }
  const ignored = (p: string) => (written.has(p) ? known.written : known.deleted).get(p);
  await askIgnored(s.top, all.filter((p) => deleted.has(p) && !known.deleted.has(p)), known.deleted, known.inSubmodule);
  await askIgnored(s.view, all.filter((p) => written.has(p) && !known.written.has(p)), known.written, known.inSubmodule, s.inside);
  const root = s.prefix ? path.join(s.view, s.prefix) : s.view;
  const kept = all.filter((p) => !ignored(p)).sort();
  // Written paths the workspace no longer has, where it may have removed them while the step ran.
  const doubtful: string[] = [];
  for (const p of kept) if (written.has(p) && !(await lstat(path.join(s.top, p))) && (await folderChangedSinceStart(s, p))) doubtful.push(p);
  const removedMeanwhile = await gitTracked(s.top, doubtful);
  const untracked = doubtful.length ? await s.untrackedAtStart?.() : undefined;
  for (const p of doubtful) if (s.wroteOver?.(p) || untracked?.has(p)) removedMeanwhile.add(p);
  const entries: StepPatchEntry[] = [];
  for (const top of kept) {
    const rel = top.slice(s.prefix.length);
    const before = await workspaceBefore(s, top, removedMeanwhile);
    if (deleted.has(top)) {
      entries.push({ path: rel, kind: 'deletion', before });
      continue;
    }
    const e = await readStepEntry(root, rel, before);
    if (!(await unchanged(s, top, e))) entries.push(e);
  }
  const notCarried = all.filter((p) => known.inSubmodule.has(p)).sort().map((p) => ({ path: p.slice(s.prefix.length), rule: inSubmoduleRule(known.inSubmodule.get(p)!.slice(s.prefix.length)) }));
  return { entries, ...(notCarried.length ? { notCarried } : {}) };
}
