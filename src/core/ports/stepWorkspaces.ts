/**
 * Where a plan step that runs beside another works, and what it hands back.
 *
 * A step workspace is a private copy of the workspace as the user sees it (a git worktree today; a
 * copy-on-write clone can implement the same port). The step's file tools, searches and sandboxed
 * commands are rooted at its `root` instead of the workspace. What the step changed there comes back
 * as a **step patch** (`StepPatch`): plain data — path, kind, mode, bytes — read without following
 * any link, so nothing the step made can point the reader elsewhere. The one function that writes a
 * step patch into a workspace is core's `applyStepPatch` (plans/graph/applyStepPatch.ts): it holds
 * the write tools' rules, so no implementation of this port applies patches itself.
 *
 * The host implements this port (src/host/node/gitStepWorkspaces.ts): it runs git and touches the
 * file system; core runs no process and reads no environment variable for it.
 */

/** What the workspace had at a path when the step started: its kind and a SHA-256 of its bytes (a link: of its target); null = nothing. */
export type StepPatchBefore = { kind: 'file' | 'symlink'; sha256: string } | null;

/**
 * One path the step changed, workspace-relative with `/` (never `.`/`..` segments, never absolute).
 * `file`: a regular file with these bytes and permission bits (`mode & 0o777`); `symlink`: a link
 * holding `target` as written; `deletion`: the path is gone. `before` is what the step started from,
 * so a workspace that changed the path meanwhile is told from one that did not.
 */
export type StepPatchEntry =
  | { path: string; kind: 'file'; mode: number; bytes: Uint8Array; before: StepPatchBefore }
  | { path: string; kind: 'symlink'; target: string; before: StepPatchBefore }
  | { path: string; kind: 'deletion'; before: StepPatchBefore };

/**
 * A path the step changed that a patch cannot carry, and the rule that says why (a file inside a git
 * submodule: another repository's). Never dropped silently: applying the patch refuses it by name.
 */
export interface StepPatchNotCarried {
  path: string;
  rule: string;
}

/** A step's whole result: its changed paths, sorted, each once; and those it changed that no patch carries (absent: none). */
export interface StepPatch {
  entries: StepPatchEntry[];
  notCarried?: StepPatchNotCarried[];
}

/** The rule of a file the step changed inside the git submodule at `sub` (workspace-relative). */
export const inSubmoduleRule = (sub: string) => `inside the git submodule ${sub}, another repository: a step's patch carries this repository's files only (make the change in the submodule itself)`;

/**
 * A path in a step workspace that cannot be part of a step's result (a FIFO, a socket, a device):
 * the whole patch is refused by its name, and the thing is never opened (a FIFO would block the reader).
 */
export class StepPatchRefusal extends Error {
  constructor(readonly path: string, readonly rule: string) {
    super(`${path}: ${rule}`);
  }
}

/** What a step workspace is: a git worktree (a full checkout) or a copy-on-write view of the workspace. */
export type StepWorkspaceKind = 'worktree' | 'copy-on-write';

/** A step workspace's kind as the user reads it in a message ("its git worktree was removed"). */
export const stepWorkspaceName = (kind: StepWorkspaceKind) => (kind === 'worktree' ? 'git worktree' : 'copy-on-write workspace');

/** One step's workspace, as `create` returns it. */
export interface StepWorkspace {
  readonly kind: StepWorkspaceKind;
  /**
   * The step's root: the folder its file tools, searches and sandboxed commands use in place of the
   * workspace (absolute and real; the workspace's counterpart, a subfolder of the copy when the
   * workspace is a subfolder of its repository). It exists as soon as `create` returns; its files
   * are there once `ready` settles.
   */
  readonly root: string;
  /** The workspace it was made from (absolute, real). */
  readonly workspace: string;
  /**
   * Folders outside `root` the step's commands may read and never write: the workspace's installed
   * dependency folders (node_modules, .venv…), which the copy links to instead of copying.
   */
  readonly readOnlyFolders: readonly string[];
  /** Settles once `root` holds the workspace's files (the step's first model request need not wait); rejects if the copy could not be made. */
  readonly ready: Promise<void>;
}

/** A step workspace a process that is gone left behind, swept at the next start. */
export interface LeftoverStep {
  kind: StepWorkspaceKind;
  /** Where it was. */
  dir: string;
  /** Its step's unapplied changes, kept as a step patch file in the folder the host named; null when it had none. */
  patch: string | null;
  /** Why its changes could not be kept (it is then left in place, untouched). */
  notKept?: string;
}

export interface StepWorkspaces {
  /** Why steps cannot get workspaces of their own here (not a git repository, no commit yet…), or undefined when they can. */
  unavailable(workspace: string): Promise<string | undefined>;
  /** A private copy (folders 0700) of `workspace` as it is now, for step `label` (`step3`); its ignore rules are the workspace's. */
  create(workspace: string, label: string): Promise<StepWorkspace>;
  /**
   * What the step changed (its tools, its commands, its check) against what it started from, read
   * without following links; the dependency folders linked in are never part of it. Rejects with a
   * `StepPatchRefusal` naming a path that is no file, link or deletion.
   */
  readPatch(step: StepWorkspace): Promise<StepPatch>;
  /** Removes the copy and everything the host kept for it; a link's target is never touched. */
  remove(step: StepWorkspace): Promise<void>;
  /**
   * Removes the step workspaces of `workspace` whose process is gone (a crash, a kill; never a live
   * one's), first keeping each one's changes as a step patch file in `keepIn` (a folder the host
   * names, outside the workspace). Called once by each host at its start. Never throws.
   */
  sweep(workspace: string, keepIn: string): Promise<LeftoverStep[]>;
}
