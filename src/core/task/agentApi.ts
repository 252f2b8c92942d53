/**
 * The Agent's public surface: what the VS Code panel, the CLI and tests drive. Implemented by
 * `Agent` in taskAgent.ts. Everything the user sees comes out as `HostEvent`s through `emit`.
 */
import type { Card, HostEvent, RoleId, TurnOutcome, RoleRegistry } from '../../protocol';
import type { AgentHooks } from '../turn/turnHooks';
import type { TaskActionMessage, TaskActionResult, TaskActionType, TaskFiles } from './userActions';
import type { HostPorts } from '../ports/ports';
import type { AgentSettings } from '../settings/settings';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { RoleDef } from '../roles/roles';
import type { PlanProvenance } from '../plans/planRecord';
import type { ChatMessage } from '../context/chatMessage';
import type { UserHooksSource } from '../userHooks/userHooks';
import type { FactBook } from '../facts/factBook';


export interface AgentOptions {
  host: HostPorts;
  settings: AgentSettings;
  /** Receives every event, already stamped with its sequence number. */
  emit: (event: HostEvent) => void;
  role?: RoleId;
  /** Hooks for history/checkpoints; optional so the core runs without them. */
  hooks?: AgentHooks;
  /** A task resumed from history: its cards (shown again, not re-emitted), the conversation rebuilt from them, usage so far. */
  resume?: ResumeState;
  /** The roles (default: the product's). A test may pass a registry with a role of its own. */
  roles?: RoleRegistry<RoleDef>;
  /** The tool registry (default: the built-in providers — workspace tools and ask_question/propose_plan/fail_step). */
  tools?: ToolRegistry;
  /** The task's checkpoints, for the revert actions and Edit & resend (default: none, nothing can be reverted). */
  files?: TaskFiles;
  /** The task's id, on the snapshot Edit & resend sends (and the user's hooks' session_id). */
  taskId?: string;
  /** The user's own hook commands in force (none: no hook runs). Read at each use: the host may change them. */
  userHooks?: UserHooksSource;
  /** The workspace's facts: sent to the planning and executing roles, learned from the Reviewer's verdicts (none: neither). */
  facts?: FactBook;
}

export interface ResumeState {
  cards: Card[];
  /** Conversation without the system prompt (OpenAI chat messages), rebuilt from the cards. */
  messages: readonly ChatMessage[];
  usage?: { tokens_in: number; tokens_out: number; cost_usd?: number };
  /** Prefix for new card ids, so they never collide with the resumed ones. */
  idPrefix: string;
  /** Plan provenance kept by history, by plan card id (plans work: restores the plan records so Execute/Revise work). */
  planProvenance?: Record<string, PlanProvenance>;
}

export interface AgentApi {
  readonly role: RoleId;
  /** User action only. Switching during a run stops the run first and says so; an unknown role is refused with an error card. */
  setRole(role: RoleId, reason?: string): void;
  /** A user message: runs one turn to completion (tools and all). */
  send(text: string, opts?: { /** Planner only: end with a plan (a final structured request if it did not call propose_plan); `tandem plan`. */ requirePlan?: boolean }): Promise<TurnOutcome>;
  /**
   * Every other user action, as a row of the user-action table (userActions.ts) carries it out:
   * Execute plan, Review, Replan, Revise, Retry, Edit & resend, the reverts… through the row's gate.
   */
  act<K extends TaskActionType>(msg: Extract<TaskActionMessage, { type: K }>): TaskActionResult<K>;
  /** After the tool-call limit: continue (true) or end the turn (false). */
  continueAfterLimit(allow: boolean): void;
  /** Cancels the request in flight and kills running commands. */
  stop(): void;
  /** Current cards, for a snapshot (webview reload, history). */
  cards(): Card[];
  /** Replace settings (takes effect on the next request). */
  updateSettings(settings: AgentSettings): void;
}
