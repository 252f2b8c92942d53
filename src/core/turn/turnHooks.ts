import type { HostEvent, RoleId, TurnOutcome } from '../../protocol';

/**
 * How the parts around an agent (history, checkpoints, the budget, context fitting) learn what
 * happens in a task: the agent calls them at these points. They are not told by watching the
 * events the user sees. The task runtime (core/runtime) combines the parts' hooks into one.
 */
export interface AgentHooks {
  /** Every event, right after the host's sink got it (history records exactly what was shown). */
  onEvent?(event: HostEvent): void;
  /** Before a file is changed, created or deleted: keep its pre-image. */
  beforeChange?(absPath: string, callId: string): Promise<void>;
  /** A tool call reached its final status (done, error, refused or rejected). */
  onToolCallSettled?(call: SettledToolCall): void;
  /** One model request was counted: its usage card is out. */
  onUsage?(usage: CountedUsage): void;
  /** A turn ended (its `turn_ended` is out and the agent is no longer busy). */
  onTurnEnded?(outcome: TurnOutcome): void;
  /**
   * Before each request: may elide/condense messages to fit the window. `opts` carries what else
   * takes room (tool schemas, the answer reserve). May throw `TurnHalt` to end the turn on purpose.
   */
  fitContext?(messages: unknown[], model: string, opts?: FitContextOptions): Promise<unknown[]>;
}

export interface SettledToolCall {
  callId: string;
  /** The tool card that shows the call. */
  cardId: string;
  tool: string;
  status: 'done' | 'error' | 'refused' | 'rejected' | 'stopped';
}

export interface CountedUsage {
  model: string;
  role: RoleId;
  tokensIn: number;
  tokensOut: number;
  /** What the request cost, when its price is known. */
  costUsd?: number;
  /** 'ok', 'plan', 'summary', … */
  outcome: string;
}

export interface FitContextOptions {
  tools?: unknown[];
  maxTokens?: number;
  signal?: AbortSignal;
  /**
   * A request the hook makes itself (the condensing summary) is reported here, so the agent counts
   * it with its own requests: one meter for the usage card, the turn and task totals.
   */
  onUsage?(usage: HookUsage): void;
}

export interface HookUsage {
  model: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  /** e.g. 'summary'. */
  outcome: string;
}
