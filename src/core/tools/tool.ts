import type { z } from 'zod';
import type { CommandExit, Permission, RoleInfo, ToolCallDisplay, ToolKind } from '../../protocol';
import { clampToolDisplay } from '../../protocol';
import type { ApprovalDecision, ApprovalRequest, HostPorts } from '../ports/ports';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import type { ReadTracker } from './readTracker';
import type { CardSink } from '../events/cardSink';
import type { PlanningPort } from './planningPort';
import type { ExplorerPort } from './explorerPort';

/** Approval classes, mapped to the user's policy (`--approve never|edits|all`, auto-approve settings). */
export type ApprovalClass = 'none' | 'edit' | 'create' | 'delete' | 'command';

export interface ToolContext {
  host: HostPorts;
  paths: WorkspacePaths;
  reads: ReadTracker;
  /** The role in force for this call: tools ask it what it may do, never which role it is. */
  role: RoleInfo;
  callId: string;
  signal: AbortSignal;
  settings: ToolSettings;
  /** Asks for approval through the policy (auto-approve, CLI flag, or the user). Tools call it before any change. */
  approve(req: Omit<ApprovalRequest, 'callId' | 'tool'>): Promise<ApprovalDecision>;
  /** Called before a file is changed/created/deleted so a checkpoint can keep its pre-image. */
  beforeChange?(absPath: string): Promise<void>;
  /** Live output while a tool runs (run_command's stdout/stderr as it arrives), for the card. Optional. */
  onOutput?(chunk: string): void;
  /** The task's card stream, for tools that show a card of their own (ask_question). */
  ui?: CardSink;
  /** The task's plans: `propose_plan` submits to the open plan turn, `fail_step` marks the running step. */
  planning?: PlanningPort;
  /** Read-only child agents for `explore` (absent where explorers are off, and inside an explorer: no grandchildren). */
  explorers?: ExplorerPort;
}

export interface ToolSettings {
  commandTimeoutMs: number;
  maxOutputChars: number;
}

export interface ToolResult {
  /** What goes back to the model (capped by the loop). */
  content: string;
  /** Shown on the card; defaults to `content`. */
  display?: string;
  isError?: boolean;
  /** The loop ends the turn after this call without asking the model again (a plan was shown, a step failed). */
  endTurn?: boolean;
  /** run_command: how the command exited, shown on its card. */
  exit?: CommandExit;
}

/** A tool is its schema, its permissions and one `run` function. */
export interface Tool<I = any> {
  name: string;
  description: string;
  input: z.ZodType<I>;
  /**
   * JSON schema offered to the model when it is not simply `input`'s (propose_plan offers the strict
   * plan schema but checks the arguments itself). A function when it depends on the other tools in
   * the registry (the plan's `tools_needed` enum).
   */
  parameters?: Record<string, unknown> | ((catalog: ToolCatalog) => Record<string, unknown>);
  /** Whether the tool is offered right now (propose_plan: to a role that plans; fail_step: while a plan executes). Default: yes. */
  available?(state: { role: RoleInfo; planning?: PlanningPort }): boolean;
  /**
   * A conversation tool (ask_question, propose_plan, fail_step): it steers the turn rather than work
   * on the workspace, so a plan step never names it.
   */
  conversational?: boolean;
  /** Static permissions, used to decide what each role is offered. */
  permissions: readonly Permission[];
  /** Permissions for this very call (write_file: `create` for a new file, `write` for an existing one). */
  permissionsFor?(input: I, ctx: ToolContext): Promise<readonly Permission[]>;
  /** True when the tool never changes anything: it may run concurrently with other read-only calls. */
  readOnly: boolean;
  /** How its calls show: declared here, in the tool's own file, and carried on each call's card. */
  display: ToolDisplay<I>;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * A tool's display (like Zed's tools: kind, title, a headline per call). The chat groups, folds and
 * words cards from it, so the webview never names a tool.
 */
export interface ToolDisplay<I> {
  /** What sort of tool it is (see `ToolKind`): the chat groups and marks cards by it. */
  kind: ToolKind;
  /** The tool in a few words ("Read file"). */
  title: string;
  /** The small name beside the headline when the tool's name says less (an MCP tool: its server). */
  tag?: string;
  /** `run`: finished calls next to each other join into one line; `own_card`: hidden once done (its own card says it). */
  fold?: 'run' | 'own_card';
  /** One call in words, from its valid arguments. */
  headline(input: I): CallHeadline;
}

/** One call in words. Short: a path, a pattern, a command — never file contents. */
export interface CallHeadline {
  /** The verb while the call is asked or runs ("Search for"). */
  verb: string;
  /** The verb once it ran ("Searched for"); default `verb`. */
  done?: string;
  /** A workspace path the call is about (a link on the card). */
  path?: string;
  /** Words after the verb and path: a pattern, a command, a line range. */
  detail?: string;
  /** `detail` is code (a command, a pattern). */
  code?: boolean;
  /**
   * The plain one-liner: the CLI's line, history export, what the model's notes call it ("read
   * src/a.ts:1-40"). Default: verb, path and detail in a row.
   */
  summary?: string;
}

/** The card's summary and display for one call; `input` is undefined when the arguments were not valid. */
export function presentCall(tool: Tool | undefined, call: { name: string; arguments: string }, input: unknown, args: unknown): { summary: string; display?: ToolCallDisplay } {
  const bare = `${call.name}(${call.arguments.slice(0, 120)})`;
  if (!tool) return { summary: bare };
  const h = input !== undefined ? headlineOf(tool, input) : undefined;
  const summary = h ? (h.summary ?? plainHeadline(h)).slice(0, 300) : bare;
  // A refused call still shows what it asked for when its arguments are valid (its summary stays bare, as it was).
  const parsed = h ? undefined : tool.input.safeParse(args);
  const shown = h ?? (parsed?.success ? headlineOf(tool, parsed.data) : undefined);
  return { summary, display: cardDisplay(tool, shown ?? { verb: summary }) };
}

/** The display a call of `tool` with these (valid) arguments carries on its card. */
export function displayFor<I>(tool: Tool<I>, input: I): ToolCallDisplay {
  return cardDisplay(tool, headlineOf(tool, input) ?? { verb: tool.name });
}

function headlineOf<I>(tool: Tool<I>, input: I): CallHeadline | undefined {
  try {
    return tool.display.headline(input);
  } catch {
    return undefined;
  }
}

function cardDisplay<I>(tool: Tool<I>, h: CallHeadline): ToolCallDisplay {
  const d = tool.display;
  return clampToolDisplay({
    kind: d.kind,
    title: d.title,
    verb: h.verb,
    ...(h.done !== undefined && h.done !== h.verb ? { done: h.done } : {}),
    ...(h.path ? { path: h.path } : {}),
    ...(h.detail ? { detail: h.detail } : {}),
    ...(h.code ? { code: true } : {}),
    ...(d.tag ? { tag: d.tag } : {}),
    ...(d.fold ? { fold: d.fold } : {}),
  });
}

function plainHeadline(h: CallHeadline): string {
  return [h.verb, h.path, h.detail].filter((s) => s !== undefined && s !== '').join(' ');
}

/** What a tool's schema may depend on: the registry as it stands for this request. */
export interface ToolCatalog {
  /** Tool names a plan step may name in `tools_needed`. */
  stepTools: readonly string[];
}

export class ToolError extends Error {}
