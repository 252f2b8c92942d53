/**
 * What the core needs from its host. `src/host/node` implements these for the CLI and unit tests,
 * `src/host/vscode` on the VS Code API. The core never imports `vscode`.
 */
import type { ApprovalInfo, Question } from '../../protocol';
import type { CodeIntelligence } from './codeIntelligence';
import type { ContextSources } from './contextSources';
import type { StepWorkspaces } from './stepWorkspaces';

export interface FileStat {
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
}

/** All paths here are absolute, real (already symlink-resolved and checked by `WorkspacePaths`). */
export interface WorkspaceFs {
  /** Workspace folder roots, absolute and real. The first is the default. */
  readonly roots: readonly string[];
  /** Text of a file; an editor host returns unsaved buffer contents when there are any. */
  readText(absPath: string): Promise<string>;
  /**
   * Text of a regular file from disk, only when the file actually opened is inside `within` (judged
   * on the open descriptor: no link swapped in after a check redirects it); rejects otherwise.
   */
  readTextWithin(absPath: string, within: string, maxBytes: number): Promise<string>;
  stat(absPath: string): Promise<FileStat | undefined>;
  /** Entries of a directory (names only, with their type; symlinks reported as such). */
  readDir(absPath: string): Promise<{ name: string; type: FileStat['type'] }[]>;
  /** Create or replace a file (creating parent folders). Editor hosts go through WorkspaceEdit. */
  writeText(absPath: string, content: string): Promise<void>;
  delete(absPath: string): Promise<void>;
  /**
   * Several files changed as one edit (a rename across files): an editor host applies them as one
   * WorkspaceEdit, so one Undo takes them all back. Absent: the files are written one by one.
   */
  writeTexts?(files: readonly { absPath: string; content: string }[]): Promise<void>;
  /** `fs.realpath`, following symlinks; for a path that does not exist, the real path of its nearest existing ancestor joined with the rest. */
  realpath(absPath: string): Promise<string>;
  /**
   * Whether an open editor holds unsaved changes to that file (an editor host only). A write that
   * bypasses the editor (a step patch's apply) treats such a file as a conflict: written on disk, the
   * user's typing would be overwritten on save, or the save would meet "the file is newer".
   */
  hasUnsavedChanges?(absPath: string): boolean;
}

export interface CommandResult {
  exitCode: number | null;
  /** stdout+stderr interleaved, already capped head+tail by the runner. */
  output: string;
  timedOut: boolean;
  cancelled: boolean;
  /** What the sandbox undid or refused that the model and the user should know (a removed hook, a blocked file). */
  sandboxNotes?: string[];
}

/**
 * How a command is confined when it runs in the OS sandbox (bubblewrap on Linux): the rest of the
 * file system read-only, a private /tmp, its own process namespace (nothing outlives it, nothing
 * outside is visible), `.git`, execution-sensitive and ignore files read-only, secret files hidden.
 */
/** What a step worktree's host also gives its sandboxed commands. */
export interface ForRootOptions {
  /**
   * Folders outside the root its commands may read, never write: the workspace's dependency folders
   * a worktree links to (node_modules…). Bound read-only at their own paths, so the links resolve
   * even where the sandbox hides the rest (a private /tmp).
   */
  readOnlyFolders?: readonly string[];
  /**
   * Folders outside the root whose secret files (`.env`, keys…) its commands must not read: the
   * workspace the worktree was made from, visible through the read-only rest of the system.
   */
  hideSecretsIn?: readonly string[];
}

export interface CommandIsolation {
  /** The workspace folders (absolute, real): the only places a command may change. */
  roots: readonly string[];
  /** 'writable': the workspace can be changed (except the protected paths); 'readonly': writes go to a throwaway overlay, discarded after the command. */
  workspace: 'writable' | 'readonly';
  /** Network access; off unless the user's setting or an approval of this command turned it on. */
  network: boolean;
}

/** Whether commands can be sandboxed here; when not, why (shown once, and in every refusal). */
export type SandboxStatus =
  | { available: true; /** The user's setting: commands get the network without asking. */ networkByDefault: boolean }
  | { available: false; why: string };

export interface CommandRunner {
  /** Runs in a fail-fast shell; the signal (Stop) and the timeout kill the whole process tree. With `isolation`, inside the sandbox. */
  run(command: string, opts: { cwd: string; timeoutMs: number; signal: AbortSignal; onOutput?: (chunk: string) => void; isolation?: CommandIsolation }): Promise<CommandResult>;
  /** Absent = no sandbox (test doubles, platforms without one). */
  sandboxStatus?(): Promise<SandboxStatus>;
}

export interface ApprovalRequest {
  callId: string;
  tool: string;
  info: ApprovalInfo;
  /** For edits: the proposed full new text, so an editor host can show a diff and let the user edit it. */
  proposedText?: string;
  originalText?: string;
  /** A change to several files approved as one (a rename): each file's texts, for a multi-file diff. Not editable. */
  files?: { absPath: string; originalText: string; proposedText: string }[];
}

export type ApprovalDecision =
  | {
      approved: true;
      /** What the user approved, when they edited the proposal. */
      editedText?: string;
      /** What the user typed with Approve ("and add a test next"): it reaches the model with the result. */
      note?: string;
      /** An amendment's "Add to the plan": widen the step's scope in a new plan version (ignored otherwise). */
      addToPlan?: boolean;
    }
  | {
      approved: false;
      reason?: string;
      /** Who said no: a person who was asked ('user', the default) or the approval policy without asking anyone ('policy'). Worded by rejectionText.ts. */
      by?: 'user' | 'policy';
    };

/** Asks the user. The core decides *whether* approval is needed; the host only asks. */
export interface Approver {
  request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

export class QuestionUnanswerable extends Error {
  constructor(readonly question: Question) {
    super(`The agent asked a question that cannot be answered here: ${question.question}`);
  }
}

export interface QuestionAsker {
  /** Resolves with the chosen value or free text; throws `QuestionUnanswerable` where nobody can answer (headless). */
  ask(question: Question, cardId: string, signal: AbortSignal): Promise<string>;
}

export interface Diagnostic { path: string; line: number; severity: 'error' | 'warning' | 'info' | 'hint'; message: string; source?: string }
export interface DiagnosticsProvider {
  get(absPath?: string): Promise<Diagnostic[]>;
  /**
   * Hosts with language services: one file's problems around a change about to be written. The
   * file is shown to the language services first (so `before` is their verdict on the text before
   * the change, not "never looked at"); `after()` waits, bounded, until its problems stop changing
   * after the write, then returns them. Hosts without it report nothing after writes.
   */
  watch?(absPath: string, signal: AbortSignal): Promise<ProblemWatch>;
}
export interface ProblemWatch {
  /** undefined: the language services gave no verdict on the file before the change (still starting). */
  before: Diagnostic[] | undefined;
  after(): Promise<Diagnostic[]>;
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug(msg: string): void;
}

export const nullLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

export interface HostPorts {
  fs: WorkspaceFs;
  commands: CommandRunner;
  approver: Approver;
  asker: QuestionAsker;
  diagnostics?: DiagnosticsProvider;
  /** The editor's language servers (symbols, definitions, references, hover, rename); absent without an editor. */
  codeIntel?: CodeIntelligence;
  /** Git changes, terminal output and the editor's context for mentions in the user's messages. */
  context?: ContextSources;
  /** Path to a ripgrep binary if one is known (VS Code's bundled rg, or one on PATH). */
  ripgrepPath?: string;
  logger: Logger;
  /**
   * The same host (approvals, questions, sandbox settings, logger) on another folder: a plan step's
   * git worktree, where that step's files, searches and sandboxed commands are rooted. Absent: steps
   * cannot run in worktrees here, so they run one at a time in the workspace.
   */
  forRoot?(root: string, opts?: ForRootOptions): HostPorts;
  /** Private copies of the workspace for plan steps that run side by side. Absent: steps run one at a time. */
  stepWorkspaces?: StepWorkspaces;
}
