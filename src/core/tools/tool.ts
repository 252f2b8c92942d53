import type { z } from 'zod';
import type { CommandExit, Permission, RoleInfo } from '../../protocol';
import type { ApprovalDecision, ApprovalRequest, HostPorts } from '../ports/ports';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import type { ReadTracker } from './readTracker';
import type { CardSink } from '../events/cardSink';
import type { PlanningPort } from './planningPort';

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
  /** One-line summary for the card. */
  summarize(input: I): string;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** What a tool's schema may depend on: the registry as it stands for this request. */
export interface ToolCatalog {
  /** Tool names a plan step may name in `tools_needed`. */
  stepTools: readonly string[];
}

export class ToolError extends Error {}
