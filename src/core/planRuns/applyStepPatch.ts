/**
 * The one function that writes a step patch into a workspace: a parallel step's apply-back, a
 * killed run's kept patch, `tandem apply` and `tandem run --step N --apply` all go through it.
 *
 * All or nothing per patch. First every entry is judged, nothing written: its path must be a plain
 * workspace-relative path; the write tools' rules hold (writeRules.ts: not `.git`, not git's own
 * files wherever the workspace's git dir and configs put them, not a file that runs code by itself or
 * decides what the agent may read), and the caller's scope (the step's files); every folder on the
 * way is resolved without following links — a link there is refused, never written through; and
 * what the workspace has at the path must still be what the step started from, and no editor may
 * hold unsaved changes to it (an editor host says so: the write goes to disk, past the editor's buffer,
 * so the user's typing would be lost on save or meet "the file is newer"; both are a conflict, and
 * neither side is lost: the buffer stays as typed, the step's change is shown). A link the step made
 * is applied as a link only when it stays inside the workspace and points at nothing the agent may
 * not read (ignored or secret files, git's). Any refusal names the path and the rule, and nothing of
 * the patch is written. Then each file is written to a temporary name beside its place (bytes and
 * mode exactly, never through a link) and renamed over it, deletions first.
 */
import { constants, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { WorkspaceFs } from '../ports/ports';
import type { StepPatch, StepPatchBefore, StepPatchEntry } from '../ports/stepWorkspaces';
import { gitControlledPaths } from '../policy/gitControlledPaths';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { isSecretFileName } from '../policy/secretFiles';
import { isUnderGit, protectedFileReason } from '../policy/writeRules';
import { isWithin } from '../workspace/pathWithin';

/** One path refused, and the rule that refused it. */
export interface PatchRefusal {
  path: string;
  rule: string;
}

export type ApplyPatchResult = { ok: true; applied: string[] } | { ok: false; refusals: PatchRefusal[] };

export interface ApplyPatchOptions {
  /** The workspace root (absolute, real). */
  workspace: string;
  /** The workspace's files, for its ignore rules and git's own files (the same reads the tools make). */
  fs: WorkspaceFs;
  /** The step's scope: a path it returns false for is refused (absent: no scope beyond the rules). */
  inScope?(rel: string): boolean;
  /** Called for each path about to change, once all are judged and before any is written (a checkpoint). */
  beforeChange?(abs: string): Promise<void>;
}

const CHANGED_MEANWHILE = 'the workspace changed it since the step started';
/** The rule of a file an open editor holds unsaved changes to (its card says so, by name). */
export const UNSAVED_IN_EDITOR = 'unsaved changes in the editor';

/** The wording of a refusal list, for a card or stderr. */
export function describeRefusals(refusals: readonly PatchRefusal[]): string {
  return refusals.map((r) => `${r.path}: ${r.rule}`).join('; ');
}

/** Whether a refusal is a conflict with the workspace (changed since the step started, or unsaved in an editor). */
export const isConflict = (r: PatchRefusal) => r.rule === CHANGED_MEANWHILE || r.rule === UNSAVED_IN_EDITOR;

/** True when every refusal is only a conflict with the workspace (the step's changes themselves were fine). */
export const onlyConflicts = (refusals: readonly PatchRefusal[]) => refusals.every(isConflict);

/** Why `rel` is not a plain workspace-relative path (`/`-separated, no `.` or `..`, not absolute), or undefined. */
function notPlain(rel: string): string | undefined {
  if (rel.includes('\0')) return 'the path holds a NUL character';
  if (rel.startsWith('/') || path.isAbsolute(rel) || (process.platform === 'win32' && /^[A-Za-z]:/.test(rel))) return 'an absolute path: a step patch names paths inside the workspace only';
  if (process.platform === 'win32' && rel.includes('\\')) return 'a path with a backslash';
  const segs = rel.split('/');
  if (segs.some((s) => s === '' || s === '.' || s === '..')) return 'not a plain path inside the workspace (empty, "." or ".." parts are refused: it must name one place only)';
  return undefined;
}

/** What is at an absolute path now, for comparing with `before` (never following a link). */
async function stateAt(abs: string, st: Stats | undefined): Promise<StepPatchBefore> {
  if (!st) return null;
  if (st.isSymbolicLink()) return { kind: 'symlink', sha256: createHash('sha256').update(await fs.readlink(abs)).digest('hex') };
  if (!st.isFile()) return { kind: 'file', sha256: `not a file (${st.isDirectory() ? 'a folder' : 'special'})` };
  const h = await fs.open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return { kind: 'file', sha256: createHash('sha256').update(await h.readFile()).digest('hex') };
  } finally {
    await h.close();
  }
}

const same = (a: StepPatchBefore, b: StepPatchBefore) => (a === null || b === null ? a === b : a.kind === b.kind && a.sha256 === b.sha256);

/**
 * The folders on the way to `rel`, judged without following links: each one present must be a real
 * folder (a file the patch deletes is fine: the entry replaces it). Returns the refusal, or the lstat
 * of the path itself.
 */
async function walk(root: string, rel: string, deleted: ReadonlySet<string>): Promise<{ rule: string } | { st: Stats | undefined }> {
  const parts = rel.split('/');
  let at = root;
  for (let i = 0; i < parts.length - 1; i++) {
    at = path.join(at, parts[i]!);
    const shown = parts.slice(0, i + 1).join('/');
    const st = await fs.lstat(at).catch(() => undefined);
    if (!st) return { st: undefined };
    if (st.isSymbolicLink()) return { rule: `${shown} on the way is a link in the workspace; a step's change is never written through a link` };
    if (!st.isDirectory()) {
      if (deleted.has(shown)) return { st: undefined };
      return { rule: `${shown} on the way is not a folder in the workspace` };
    }
  }
  return { st: await fs.lstat(path.join(root, rel)).catch(() => undefined) };
}

export async function applyStepPatch(patch: StepPatch, o: ApplyPatchOptions): Promise<ApplyPatchResult> {
  const root = o.workspace;
  const refusals: PatchRefusal[] = [];
  const refuse = (p: string, rule: string) => refusals.push({ path: p, rule });
  const seen = new Set<string>();
  const deleted = new Set(patch.entries.filter((e) => e.kind === 'deletion').map((e) => e.path));
  const gitOwn = await gitControlledPaths(root, (p) => o.fs.readText(p).catch(() => undefined));
  const gitOwnReal = await Promise.all(gitOwn.map(async (g) => ({ ...g, real: await o.fs.realpath(g.path).catch(() => g.path) })));
  const ignores = new IgnoreMatcher(o.fs);
  const judged: { e: StepPatchEntry; abs: string; st: Stats | undefined }[] = [];
  // What the step changed that its patch could not carry: named, never dropped silently.
  for (const n of patch.notCarried ?? []) refuse(n.path, n.rule);

  for (const e of patch.entries) {
    const plain = notPlain(e.path);
    if (plain) { refuse(e.path, plain); continue; }
    if (seen.has(e.path)) { refuse(e.path, 'named twice in the patch'); continue; }
    seen.add(e.path);
    if (isUnderGit(e.path)) { refuse(e.path, "inside .git: the agent does not change git's own files"); continue; }
    const abs = path.join(root, ...e.path.split('/'));
    const own = gitOwnReal.find((g) => isWithin(g.real, abs) || isWithin(g.path, abs));
    if (own) { refuse(e.path, own.kind === 'hooks' ? 'in the folder git runs hooks from (core.hooksPath)' : `git's own file (${own.why})`); continue; }
    const guarded = protectedFileReason(e.path);
    if (guarded) { refuse(e.path, `${guarded.what} (${guarded.why}); a step's patch never changes it, only a person can`); continue; }
    if (o.inScope && !o.inScope(e.path)) { refuse(e.path, "outside the step's files"); continue; }
    const way = await walk(root, e.path, deleted);
    if ('rule' in way) { refuse(e.path, way.rule); continue; }
    if (way.st?.isDirectory() && e.kind !== 'deletion') { refuse(e.path, 'a folder in the workspace; a step patch replaces files and links only'); continue; }
    if (e.kind === 'symlink') {
      const why = await linkRefusal(root, e.path, e.target, o.fs, ignores);
      if (why) { refuse(e.path, why); continue; }
    }
    const now = way.st?.isDirectory() ? null : await stateAt(abs, way.st).catch(() => ({ kind: 'file' as const, sha256: 'unreadable' }));
    // A deletion of something already gone, or a file already as the step left it, needs nothing.
    if (!same(now, e.before)) { refuse(e.path, CHANGED_MEANWHILE); continue; }
    if (o.fs.hasUnsavedChanges?.(abs)) { refuse(e.path, UNSAVED_IN_EDITOR); continue; }
    judged.push({ e, abs, st: way.st });
  }
  if (refusals.length) return { ok: false, refusals };

  // Written: every new file and link first at a temporary name beside its place; any failure removes them all.
  // One whose folder is now a file the patch deletes is written once that file is gone (`late`).
  const staged: { tmp: string; abs: string }[] = [];
  const late: StepPatchEntry[] = [];
  const madeDirs: string[] = [];
  try {
    for (const { e, abs } of judged) {
      if (e.kind === 'deletion') continue;
      if (!(await makeFolders(root, e.path, madeDirs))) { late.push(e); continue; }
      staged.push({ tmp: await stage(e, abs), abs });
    }
  } catch (err) {
    await unstage(staged, madeDirs);
    const where = (err as NodeJS.ErrnoException).path;
    const rel = where ? path.relative(root, where).split(path.sep).join('/') : '(the workspace)';
    return { ok: false, refusals: [{ path: rel, rule: `could not be written (${(err as Error).message}); nothing of the patch was applied` }] };
  }
  // Asked again just before the write: the user may have typed in one of them while the files were staged.
  const typedMeanwhile = judged.filter((j) => o.fs.hasUnsavedChanges?.(j.abs));
  if (typedMeanwhile.length) {
    await unstage(staged, madeDirs);
    return { ok: false, refusals: typedMeanwhile.map((j) => ({ path: j.e.path, rule: UNSAVED_IN_EDITOR })) };
  }
  for (const { abs } of judged) await o.beforeChange?.(abs);
  for (const { e, abs } of judged) if (e.kind === 'deletion') await fs.rm(abs, { force: true });
  for (const s of staged) await fs.rename(s.tmp, s.abs);
  for (const e of late) {
    const abs = path.join(root, ...e.path.split('/'));
    await makeFolders(root, e.path, madeDirs, true);
    await fs.rename(await stage(e, abs), abs);
  }
  await removeEmptied(root, [...deleted]);
  return { ok: true, applied: judged.map((j) => j.e.path) };
}

/** The staged files and the folders made for them removed: nothing of the patch is left. */
async function unstage(staged: readonly { tmp: string }[], madeDirs: string[]): Promise<void> {
  for (const s of staged) await fs.rm(s.tmp, { force: true });
  for (const d of [...madeDirs].reverse()) await fs.rmdir(d).catch(() => undefined);
}

/**
 * The folders the deletions left empty go too, deepest first, never the workspace itself: a step
 * that moved a folder (git records files, not folders) leaves no empty one behind, as `git rm` does.
 * rmdir removes only an empty folder, and the folders on the way were judged real folders, no links.
 */
async function removeEmptied(root: string, deletedPaths: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const rel of deletedPaths) for (let d = path.posix.dirname(rel); d !== '.'; d = path.posix.dirname(d)) folders.add(d);
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const d of deepestFirst) await fs.rmdir(path.join(root, ...d.split('/'))).catch(() => undefined);
}

/** A file or link written at a temporary name beside `abs` (bytes and mode exactly; never through a link); returns that name. */
async function stage(e: StepPatchEntry, abs: string): Promise<string> {
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs).slice(0, 40)}.${randomBytes(4).toString('hex')}.tandem-apply`);
  if (e.kind === 'symlink') await fs.symlink(e.target, tmp);
  else if (e.kind === 'file') {
    const h = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await h.writeFile(e.bytes);
      // Set after the write: the mode given at open is cut by the umask.
      await h.chmod(e.mode & 0o777);
      await h.sync();
    } finally {
      await h.close();
    }
  }
  return tmp;
}

/**
 * Makes the missing folders on the way to `rel` (one at a time, each checked to be a folder and no
 * link), noting those it made. False when a file stands where a folder must be (the patch deletes it,
 * or the judging would have refused): only once `deletedNow` (the deletions done) is it replaced.
 */
async function makeFolders(root: string, rel: string, made: string[], deletedNow = false): Promise<boolean> {
  const parts = rel.split('/').slice(0, -1);
  let at = root;
  for (const p of parts) {
    at = path.join(at, p);
    const st = await fs.lstat(at).catch(() => undefined);
    if (st?.isDirectory()) continue;
    if (st && !(deletedNow && st.isFile())) {
      if (st.isFile()) return false;
      throw Object.assign(new Error(`${at} is not a folder`), { path: at });
    }
    if (st) await fs.rm(at);
    await fs.mkdir(at);
    made.push(at);
  }
  return true;
}

/**
 * Why a link the step made at `rel` with `target` may not be applied, or undefined: it must stay
 * inside the workspace (by its text and through the workspace's own links) and lead to nothing the
 * agent may not read.
 */
async function linkRefusal(root: string, rel: string, target: string, wfs: WorkspaceFs, ignores: IgnoreMatcher): Promise<string | undefined> {
  if (path.isAbsolute(target)) return `a link to an absolute path (${target}); a step's links must stay inside the workspace`;
  const lexical = path.join(root, path.dirname(rel), target);
  if (!isWithin(root, lexical)) return `a link leading out of the workspace (${target})`;
  const real = await wfs.realpath(lexical).catch(() => lexical);
  if (!isWithin(root, real)) return `a link leading out of the workspace through the workspace's own links (${target} is ${real})`;
  for (const at of new Set([lexical, real])) {
    const to = path.relative(root, at).split(path.sep).join('/');
    if (!to) continue;
    if (isUnderGit(to)) return `a link to git's own files (${to})`;
    if (isSecretFileName(path.basename(to))) return `a link to a secret file (${to})`;
    const isDir = (await wfs.stat(at).catch(() => undefined))?.type === 'directory';
    if (await ignores.ignores(root, to, isDir)) return `a link to ${to}, which the workspace's ignore rules keep from the agent`;
  }
  return undefined;
}
