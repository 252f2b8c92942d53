/**
 * Copy-on-write step workspaces (the `StepWorkspaces` port) on Linux: the step sees the workspace as
 * it is — HEAD, uncommitted changes, untracked and ignored files, installed dependencies — through a
 * kernel overlay whose lower folder is the repository's top folder, never written, and whose upper
 * folder is the step's own: what the step writes, by its file tools and its commands alike, lands
 * there and nowhere else. Nothing is copied when a step starts, so making one costs the same for ten
 * files as for a million, and the memory a step holds is what it wrote.
 *
 * The overlay is mounted in a user+mount namespace of its own (overlayHolder.ts; no privilege), which
 * the file tools reach through `/proc/<holder>/root` and the commands enter (stepView.ts): one mount,
 * one view for both. Git inside the step sees the repository's own `.git` through the overlay (status
 * and diff as in the workspace, with the step's changes); whatever a step's git could write there would
 * land in the step's folder, never in the repository, and the sandbox keeps `.git` read-only anyway.
 *
 * Folders: `<base>/<label>-<hex>/{upper,work,view}` (0700, this user's), with an owner file beside it
 * naming the process and what a sweep needs; a run that crashed leaves the step's folder (the mount
 * dies with its holder), and the next start keeps its changes as a patch file before removing it.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { LeftoverStep, StepPatch, StepWorkspace, StepWorkspaces } from '../../../core/ports/stepWorkspaces';
import { encodeStepPatch } from '../../../core/planRuns/stepPatchFile';
import { holdOverlay, type OverlayHolder } from './overlayHolder';
import { newIgnoredKnown, readOverlayPatch, type IgnoredKnown } from './readOverlayPatch';
import { forgetStepView, registerStepView } from './stepView';
import { ownerFileIn, processAlive, removeIfEmpty, stepFoldersRoot } from '../stepFolderBase';

/** Installed dependencies: the step's commands read them and never write them (bound read-only). */
const DEPENDENCY_DIRS = ['node_modules', 'bower_components', '.venv', 'venv', 'vendor'];

/** What the host keeps for one step beside what the port hands out. */
interface OverlayStep {
  dir: string;
  top: string;
  prefix: string;
  startedMs: number;
  holder: OverlayHolder;
  /** What git said of the paths asked so far: ignored or not (readOverlayPatch.ts). */
  ignoredKnown: IgnoredKnown;
  /** The workspace's untracked files when the step started (listed in the background; undefined if git could not say). */
  untrackedAtStart: Promise<Set<string> | undefined>;
}

/** The owner file's second line: what a sweep needs to read a leftover step's changes. */
interface OwnerRecord {
  kind: 'overlay';
  top: string;
  prefix: string;
  startedMs: number;
}

const GIT_ENV_DROP = /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|PREFIX)$/;

function git(cwd: string, args: readonly string[]): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !GIT_ENV_DROP.test(k)));
  return new Promise((resolve, reject) => {
    execFile('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0]}: ${String(stderr).trim() || err.message}`));
      else resolve(String(stdout));
    });
  });
}

/** Where a step's folder keeps the workspace's untracked files at its start (NUL-separated). */
const UNTRACKED_FILE = 'untracked-at-start';

/** Writes the list whole or not at all (a temporary name, then renamed): a half list is never read. */
async function keepList(file: string, list: ReadonlySet<string>): Promise<void> {
  const tmp = `${file}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(tmp, [...list].join('\0'), { mode: 0o600 });
  await fs.rename(tmp, file);
}

/** The list a step's folder kept, or undefined when it has none (its process ended before git answered). */
async function keptList(dir: string): Promise<Set<string> | undefined> {
  const text = await fs.readFile(path.join(dir, UNTRACKED_FILE), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : new Set(text.split('\0').filter(Boolean));
}

/** The untracked files git does not ignore in the repository at `top` (top-relative); undefined when git could not say. */
function untrackedFiles(top: string): Promise<Set<string> | undefined> {
  return git(top, ['ls-files', '-z', '--others', '--exclude-standard']).then((out) => new Set(out.split('\0').filter(Boolean)), () => undefined);
}

/** Where this repository's copy-on-write steps go: `<dir>/cow-<id>` when the host names a folder, else /dev/shm (or the temp folder), in a folder of this user's. */
export function overlayStepsBase(top: string, dir?: string): string {
  const id = createHash('sha256').update(top).digest('hex').slice(0, 12);
  if (dir) return path.join(dir, `cow-${id}`);
  return path.join(stepFoldersRoot('tandem-steps'), id);
}

const folders = (dir: string) => ({ upper: path.join(dir, 'upper'), work: path.join(dir, 'work'), mount: path.join(dir, 'view') });

function readOwner(text: string): { pid: number; record?: OwnerRecord } {
  const [pid = '', line = ''] = text.split('\n');
  try {
    const r = JSON.parse(line) as OwnerRecord;
    const ok = r?.kind === 'overlay' && typeof r.top === 'string' && typeof r.prefix === 'string' && typeof r.startedMs === 'number';
    return { pid: Number(pid.trim()), ...(ok ? { record: r } : {}) };
  } catch {
    return { pid: Number(pid.trim()) };
  }
}

export interface OverlayStepWorkspacesOptions {
  /** Where step folders go (the host's choice, e.g. from `TANDEM_WORKTREES_DIR`); default: /dev/shm or the temp folder. */
  dir?: string;
}

export class OverlayStepWorkspaces implements Omit<StepWorkspaces, 'unavailable'> {
  private readonly steps = new Map<StepWorkspace, OverlayStep>();
  /** Each workspace's repository: its top folder and the workspace within it (asked of git once). */
  private readonly tops = new Map<string, Promise<{ top: string; prefix: string }>>();

  constructor(private readonly o: OverlayStepWorkspacesOptions = {}) {}

  private topOf(workspace: string): Promise<{ top: string; prefix: string }> {
    let known = this.tops.get(workspace);
    if (!known) {
      known = git(workspace, ['rev-parse', '--show-toplevel', '--show-prefix']).then((out) => {
        const [top = '', prefix = ''] = out.split('\n').map((l) => l.trim());
        return { top, prefix };
      });
      known.catch(() => this.tops.delete(workspace));
      this.tops.set(workspace, known);
    }
    return known;
  }

  /** A step's view of `workspace`; rejects with the kernel's words when no overlay can be mounted here. */
  async create(workspace: string, label: string): Promise<StepWorkspace> {
    const { top, prefix } = await this.topOf(workspace);
    const dir = path.join(overlayStepsBase(top, this.o.dir), `${label}-${randomBytes(4).toString('hex')}`);
    // The owner file first: a crash from here on leaves something the next start can find.
    const startedMs = Date.now();
    await ownerFileIn(dir, `${process.pid}\n${JSON.stringify({ kind: 'overlay', top, prefix, startedMs } satisfies OwnerRecord)}\n`);
    let holder: OverlayHolder;
    try {
      await fs.mkdir(dir, { mode: 0o700 });
      const f = folders(dir);
      await Promise.all([f.upper, f.work, f.mount].map((d) => fs.mkdir(d, { mode: 0o700 })));
      holder = await holdOverlay({ lower: top, ...f });
    } catch (e) {
      await removeFolder(dir);
      throw e;
    }
    // Listed now, never awaited here: making a step costs the same for any size of workspace. Only a
    // patch with a written path the workspace no longer has waits for it (readOverlayPatch.ts).
    // Kept beside the step's folder too, so a crashed run's step is read with it at the next start.
    const untrackedAtStart = untrackedFiles(top).then(async (list) => {
      if (list) await keepList(path.join(dir, UNTRACKED_FILE), list).catch(() => undefined);
      return list;
    });
    holder.view.lower = top;
    registerStepView(holder.view);
    const root = prefix ? path.join(holder.view.hostMount, prefix) : holder.view.hostMount;
    const step: StepWorkspace = {
      kind: 'copy-on-write',
      root,
      workspace,
      readOnlyFolders: await this.dependencies(top, prefix, holder.view.hostMount),
      ready: Promise.resolve(),
    };
    this.steps.set(step, { dir, top, prefix, startedMs, holder, ignoredKnown: newIgnoredKnown(), untrackedAtStart });
    return step;
  }

  /** The workspace's ignored dependency folders, as the step sees them (its commands get them read-only). */
  private async dependencies(top: string, prefix: string, view: string): Promise<string[]> {
    const present: string[] = [];
    for (const base of new Set(['', prefix])) {
      for (const name of DEPENDENCY_DIRS) {
        const rel = `${base}${name}`;
        if ((await fs.stat(path.join(top, rel)).catch(() => undefined))?.isDirectory()) present.push(rel);
      }
    }
    if (present.length === 0) return [];
    const out = await git(top, ['check-ignore', '--', ...present.map((p) => `${p}/`)]).catch(() => '');
    return out.split('\n').map((l) => l.trim().replace(/\/$/, '')).filter((l) => present.includes(l)).map((rel) => path.join(view, rel));
  }

  owns(step: StepWorkspace): boolean {
    return this.steps.has(step);
  }

  async readPatch(step: StepWorkspace): Promise<StepPatch> {
    const s = this.known(step);
    // The view must still be the overlay: were its holder gone (and its number reused), the path would
    // lead to the empty mount point, and the step's changes would read as none.
    const [view, mountPoint] = await Promise.all([fs.stat(s.holder.view.hostMount).catch(() => undefined), fs.stat(folders(s.dir).mount)]);
    if (!view || view.dev === mountPoint.dev) throw new Error(`the step's copy-on-write view is gone (the process holding it, ${s.holder.view.pid}, ended)`);
    const v = s.holder.view;
    return readOverlayPatch({ top: s.top, prefix: s.prefix, upper: folders(s.dir).upper, view: v.hostMount, inside: { enter: v.enter, top: v.mount }, startedMs: s.startedMs, ignoredKnown: s.ignoredKnown, wroteOver: (rel) => v.wroteOver(rel), untrackedAtStart: () => s.untrackedAtStart });
  }

  async remove(step: StepWorkspace): Promise<void> {
    const s = this.steps.get(step);
    if (!s) return;
    this.steps.delete(step);
    forgetStepView(s.holder.view);
    await s.holder.close();
    // The list of untracked files is still being kept in the folder when a step ends at once: the
    // folder goes after it, or the write lands in a folder being removed (ENOTEMPTY).
    await s.untrackedAtStart.catch(() => undefined);
    await removeFolder(s.dir);
  }

  /**
   * The steps of `workspace`'s repository a gone process left: each one's overlay is mounted again
   * to read what the step had changed, kept as a step patch file in `keepIn`, then its folder goes.
   * A step whose changes could not be read stays where it is. Never throws.
   */
  async sweep(workspace: string, keepIn: string): Promise<LeftoverStep[]> {
    let top: string;
    try {
      top = (await this.topOf(workspace)).top;
    } catch {
      return [];
    }
    const base = overlayStepsBase(top, this.o.dir);
    const names = await fs.readdir(base).catch(() => [] as string[]);
    const seen = new Set<string>();
    const left: LeftoverStep[] = [];
    for (const name of names) {
      const dir = path.join(base, name.replace(/\.owner$/, ''));
      if (seen.has(dir)) continue;
      seen.add(dir);
      const owner = readOwner(await fs.readFile(`${dir}.owner`, 'utf8').catch(() => ''));
      if (processAlive(owner.pid)) continue;
      let patch: string | null = null;
      try {
        if (owner.record && (await fs.stat(folders(dir).upper).catch(() => undefined))) patch = await keepLeftover(dir, owner.record, keepIn);
      } catch (e) {
        left.push({ kind: 'copy-on-write', dir, patch: null, notKept: e instanceof Error ? e.message : String(e) });
        continue;
      }
      await removeFolder(dir);
      left.push({ kind: 'copy-on-write', dir, patch });
    }
    await removeIfEmpty(base);
    return left;
  }

  private known(step: StepWorkspace): OverlayStep {
    const s = this.steps.get(step);
    if (!s) throw new Error(`${step.root} is no copy-on-write step workspace of this process`);
    return s;
  }
}

/** A leftover step's changes as a step patch file in `keepIn`; null when it had none. */
async function keepLeftover(dir: string, r: OwnerRecord, keepIn: string): Promise<string | null> {
  const f = folders(dir);
  // overlayfs's scratch folder from the crashed mount is emptied first, or the kernel refuses it.
  await removeFolder(f.work, false);
  await fs.mkdir(f.work, { mode: 0o700 });
  const holder = await holdOverlay({ lower: r.top, ...f });
  let patch: StepPatch;
  try {
    const untracked = await keptList(dir);
    patch = await readOverlayPatch({ top: r.top, prefix: r.prefix, upper: f.upper, view: holder.view.hostMount, inside: { enter: holder.view.enter, top: holder.view.mount }, startedMs: r.startedMs, untrackedAtStart: async () => untracked });
  } finally {
    await holder.close();
  }
  if (patch.entries.length === 0 && !patch.notCarried?.length) return null;
  await fs.mkdir(keepIn, { recursive: true, mode: 0o700 });
  const file = path.join(keepIn, `${path.basename(dir)}.patch.json`);
  await fs.writeFile(file, encodeStepPatch(patch), { mode: 0o600 });
  return file;
}

/**
 * Deletes a step's folder (links themselves, never what they point to) and its owner file. overlayfs
 * leaves its scratch folder without permissions (`work/work`, mode 0): made writable first.
 */
async function removeFolder(dir: string, owner = true): Promise<void> {
  await fs.chmod(path.join(dir, 'work', 'work'), 0o700).catch(() => undefined);
  await fs.chmod(path.join(dir, 'work'), 0o700).catch(() => undefined);
  await fs.rm(dir, { recursive: true, force: true });
  if (owner) await fs.rm(`${dir}.owner`, { force: true });
  await removeIfEmpty(path.dirname(dir));
}
