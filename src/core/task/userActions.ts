/**
 * Every user action is a row of one table, keyed by the protocol's webview message types (the
 * protocol map stays the one typed list of messages; this table says who carries each out):
 *
 *   task     the task's agent: the row says whether it needs the task idle, which role it needs,
 *            and its handler. The dispatch (`Agent.act`) checks both needs in one place, so a
 *            busy-guarded action is refused with the same words whatever it is.
 *   runtime  the task runtime replaces the task (new, resumed).
 *   host     the editor answers it itself (approvals, answers, setup, files, pickers).
 *
 * The runtime's dispatch (task and runtime rows) and the editor session's handlers (host rows,
 * src/host/vscode/agentSession.ts) are typed from this table, so a message with no row, or a row
 * with no handler, does not compile. The agent has one way in for all of its rows: `Agent.act`. Adding an action: its message, its row, its
 * handler, its button.
 */
import type { ProtocolMap, RoleId, WebviewMessage, TurnOutcome } from '../../protocol';
import type { RevertResult } from '../checkpoints/checkpointStore';
import type { TaskPlans } from './taskPlans';

/** The one refusal of an action that needs the task idle while a turn runs. */
export const BUSY = 'The agent is busy with a turn. Stop it first, or wait until it is done.';

/** A role the table may need, by what it does, with what the user is told when the registry has none. */
export const ROLE_NEEDS = {
  planner: 'No role here answers with plans.',
  executor: 'No role here executes plans.',
  reviewer: 'No role here reviews plans.',
} as const;
export type RoleNeed = keyof typeof ROLE_NEEDS;

/** The files side of a task (its checkpoints, kept by the runtime; a task without history has none). */
export interface TaskFiles {
  revertCall(callId: string): Promise<RevertResult>;
  revertTask(): Promise<RevertResult>;
  revertFile(display: string): Promise<RevertResult>;
  /** The files the calls changed that are not reverted yet (workspace-relative). */
  filesChangedBy(callIds: ReadonlySet<string>): string[];
  /** Edit & resend's revert: every file the calls changed, back as it was before the first of them; said in the chat when refused. */
  revertCalls(callIds: ReadonlySet<string>, refused: { action: 'edit_message'; target: string }): Promise<RevertResult>;
  /** Waits for post-images still being taken. */
  settled(): Promise<void>;
}

/** What the handlers act on: the task's agent, unguarded (the dispatch has checked the row's needs). */
export interface ActionTarget {
  send(text: string): Promise<TurnOutcome>;
  retry(): Promise<TurnOutcome>;
  editMessage(cardId: string, text: string, files: 'revert' | 'keep'): Promise<TurnOutcome>;
  setRole(role: RoleId, reason?: string): void;
  stop(): void;
  continueAfterLimit(allow: boolean): void;
  readonly plans: TaskPlans;
  readonly files: TaskFiles;
}

type Message<K extends keyof ProtocolMap> = ProtocolMap[K][0];

export interface TaskRow<K extends keyof ProtocolMap> {
  by: 'task';
  /** Refused while a turn runs (with `BUSY`). */
  idle: boolean;
  /** While a turn runs the chat keeps it in its queue and sends it later, rather than see it refused. */
  queueWhenBusy?: boolean;
  /** A role the registry must have. */
  needs?: RoleNeed;
  run(task: ActionTarget, msg: Message<K>): Promise<unknown> | void;
}

export interface RuntimeRow { by: 'runtime' }
export interface HostRow { by: 'host' }

const RUNTIME: RuntimeRow = { by: 'runtime' };
const HOST: HostRow = { by: 'host' };

type Rows = { [K in keyof ProtocolMap]: TaskRow<K> | RuntimeRow | HostRow };

export const USER_ACTIONS = {
  send: { by: 'task', idle: true, queueWhenBusy: true, run: (t, m) => t.send(m.text) },
  execute_plan: { by: 'task', idle: true, needs: 'executor', run: (t, m) => t.plans.execute(m.card_id, m.from_step) },
  review_plan: { by: 'task', idle: true, needs: 'reviewer', run: (t, m) => t.plans.review(m.card_id) },
  replan: { by: 'task', idle: true, needs: 'planner', run: (t, m) => t.plans.replan(m.card_id) },
  revise_plan: { by: 'task', idle: true, needs: 'planner', run: (t, m) => t.plans.revise(m.card_id, m.feedback, m.step_comments ?? []) },
  // Implement with changes: the user's own edit of the steps, a new version without the Planner.
  edit_plan: { by: 'task', idle: true, run: (t, m) => t.plans.edit(m.card_id, m.steps, { remove: m.remove, insert: m.insert }) },
  // Retry re-runs the failed turn on the conversation as it stands: the user's message is neither shown nor sent twice.
  retry: { by: 'task', idle: true, run: (t) => t.retry() },
  edit_message: { by: 'task', idle: true, run: (t, m) => t.editMessage(m.card_id, m.text, m.files) },
  // Switching during a run stops the run first (and says so) rather than being refused. No reason: the user
  // just clicked it, so the chat puts up no "Switched to…" note (switches made elsewhere say why).
  set_role: { by: 'task', idle: false, run: (t, m) => t.setRole(m.role) },
  stop: { by: 'task', idle: false, run: (t) => t.stop() },
  continue: { by: 'task', idle: false, run: (t, m) => t.continueAfterLimit(m.allow) },
  revert_call: { by: 'task', idle: false, run: (t, m) => t.files.revertCall(m.call_id) },
  revert_task: { by: 'task', idle: false, run: (t) => t.files.revertTask() },
  revert_file: { by: 'task', idle: false, run: (t, m) => t.files.revertFile(m.path) },
  new_task: RUNTIME,
  resume_task: RUNTIME,
  ready: HOST,
  approve: HOST,
  reject: HOST,
  open_diff: HOST,
  answer: HOST,
  save_settings: HOST,
  test_connection: HOST,
  open_file_diff: HOST,
  open_file: HOST,
  set_api_key: HOST,
  mention_search: HOST,
  allow_command: HOST,
  remove_allowed_command: HOST,
  set_model: HOST,
  // The workspace's facts belong to the editor's host (its Facts view), not to one task.
  forget_fact: HOST,
} as const satisfies Rows;

type RowsByKind<B> = { [K in keyof typeof USER_ACTIONS]: (typeof USER_ACTIONS)[K] extends { by: B } ? K : never }[keyof typeof USER_ACTIONS];
/** The messages the task's agent carries out. */
export type TaskActionType = RowsByKind<'task'>;
/** The messages the task runtime carries out (a new or resumed task). */
export type RuntimeActionType = RowsByKind<'runtime'>;
/** The messages the editor answers itself. */
export type HostActionType = RowsByKind<'host'>;
export type TaskActionMessage = Extract<WebviewMessage, { type: TaskActionType }>;
/** What carrying out a task action gives back: its handler's result, or `error` when its row refused it. */
export type TaskActionResult<K extends TaskActionType> = Promise<Awaited<ReturnType<(typeof USER_ACTIONS)[K]['run']>> | 'error'>;

export const TASK_ACTIONS = (Object.keys(USER_ACTIONS) as (keyof typeof USER_ACTIONS)[]).filter((k): k is TaskActionType => USER_ACTIONS[k].by === 'task');

/** The row of a task action, typed for its message. */
export function taskRow<K extends TaskActionType>(type: K): TaskRow<K> {
  return USER_ACTIONS[type] as unknown as TaskRow<K>;
}
