import * as z from 'zod';
import { HookNote } from './hookNote';
import { MAX_PLAN_STEPS, Plan, PlanStep, StepEvidence, StepState } from './plan';
import { Question } from './question';
import { ModelReliability, PlanUsage, PlanVersionDiff, ReviewResult } from './review';
import { Amendment } from './amendment';
import { RoleId } from './roles';
import { ToolCallDisplay } from './toolDisplay';

/** Every card the chat shows. The webview renders unknown kinds as plain text, never a blank panel. */

export const AgentState = z.enum(['thinking', 'calling_tool', 'waiting_on_user', 'idle']);
export type AgentState = z.infer<typeof AgentState>;

/**
 * What a system note is about, when it is not conversation the model should see again:
 * - `context`: Tandem's own handling of the task (condensing, the context window, a change that
 *   cannot be reverted) — shown to the user, never replayed to the model;
 * - `retry`: a wait before a request is retried — likewise never replayed;
 * - `revert`: files went back to their checkpoints — replayed, so the model re-reads them.
 * A system note without a kind (e.g. "stopped the Actor's run") is replayed as a note.
 */
/**
 * `hook`: what a user's hook said (sent the agent back, added context); `hook_failed`: a hook failed (a warning line, never sent to the model).
 * Two `context` notes have kinds of their own, so the chat can show each as little as it needs (never replayed either):
 * `context_window`: the model's window is not known and one is assumed (the chat's header says it, on its Context meter);
 * `condensed`: the oldest turns were summarised to fit (a quiet marker in the chat, the details on demand).
 */
export const NoteKind = z.enum(['context', 'retry', 'revert', 'hook', 'hook_failed', 'context_window', 'condensed']);
export type NoteKind = z.infer<typeof NoteKind>;

/**
 * What a mention in the user's message attached (`@src/cart.ts`, `@problems`, the editor's context
 * line): read once when the message was sent, capped, and kept with the message so the history
 * shows (and resends) exactly what the model was given. `error` when it could not be attached.
 */
export const Attachment = z.object({
  kind: z.enum(['file', 'folder', 'range', 'problems', 'git', 'terminal', 'context']),
  /** As written in the message (`src/cart.ts:12-20`, `problems`). */
  label: z.string().max(4096),
  content: z.string().max(200_000),
  /** Why it was not attached (outside the workspace, ignored, missing), or that it was cut. */
  note: z.string().max(1000).optional(),
  error: z.boolean().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

export const TextCard = z.object({
  kind: z.literal('text'),
  id: z.string(),
  author: z.enum(['user', 'assistant', 'system']),
  text: z.string(),
  /** The model's reasoning ("thinking") before or beside its answer: shown collapsed, never counted as the answer. */
  reasoning: z.string().optional(),
  streaming: z.boolean().optional(),
  role: RoleId.optional(),
  note: NoteKind.optional(),
  /**
   * An assistant message's fields beside the standard ones (DeepSeek's `reasoning_content` on a
   * tool-call turn, OpenRouter's `reasoning_details`, unknown ones): kept so a resumed task sends
   * them back verbatim, as the provider requires. Not shown.
   */
  provider_fields: z.record(z.string(), z.unknown()).optional(),
  /** A user message's mentions and editor context, as attached when it was sent. */
  attachments: z.array(Attachment).max(50).optional(),
  /** The plan step whose work this card shows (the chat's lanes, `--json`). */
  step: z.number().int().min(1).optional(),
  /** Part of that step's own conversation (a step run beside others, by its own Actor): not the task's conversation. */
  branch: z.boolean().optional(),
  ts: z.number(),
});

export const PlanCard = z.object({
  kind: z.literal('plan'),
  id: z.string(),
  version: z.number().int().min(1),
  /** null when the model's plan never validated: then `raw_text` is shown and Execute is disabled. */
  plan: Plan.nullable(),
  raw_text: z.string().optional(),
  errors: z.array(z.string()),
  step_states: z.record(z.string(), StepState),
  /** Per step number, once the step has ended: its evidence or why it is not done. */
  step_evidence: z.record(z.string(), StepEvidence).optional(),
  superseded: z.boolean().optional(),
  executing: z.boolean().optional(),
  /** The Reviewer's verdict on this version (Review button, or the review-before-execute setting). */
  review: ReviewResult.optional(),
  /** Per step number: the Reviewer's verdict after the step ran. */
  step_reviews: z.record(z.string(), ReviewResult).optional(),
  /** What changed from the previous version. */
  changes: PlanVersionDiff.optional(),
  /** This version replans that one (after a failed step or a `replan` verdict); its done steps are kept. */
  replan_of: z.number().int().optional(),
  /** Why the last execution stopped before the end when no step failed (a `replan` verdict, a step's budget). */
  halted: z.string().optional(),
  /** Tokens and cost of this version's work, per role and per step. */
  usage: PlanUsage.optional(),
  /** Per model, how its structured answers (plans, verdicts) fared in this task so far. */
  reliability: z.record(z.string(), ModelReliability).optional(),
  /**
   * Groups of steps that could run at the same time (their depends_on allow it and their files do not
   * overlap), each step paired with every other of its group. Older cards hold pairs: groups of two.
   */
  run_together: z.array(z.array(z.number().int()).min(2).max(200)).max(1300).optional(),
  /** Why those steps run one at a time here (outside git, or a host without worktrees), in words after "one at a time:". */
  one_at_a_time: z.string().optional(),
  /** This version was made by an amendment during execution ("Add to the plan"): what it widened. */
  amended: z.string().optional(),
  ts: z.number(),
});

/**
 * One step of a plan the Planner is still writing, as soon as its JSON object was complete: the step
 * when it meets the step's own rules, else what it says and why it does not (never dropped).
 */
export const PlanDraftStep = z.object({
  /** Its place in the plan (1-based), whatever number the model gave it. */
  at: z.number().int().min(1),
  step: PlanStep.optional(),
  /** An invalid step's action as written (empty when it has none that reads as text)… */
  action: z.string().max(2000).optional(),
  /** … and why it is not a valid step. */
  problems: z.array(z.string().max(1000)).max(10).optional(),
});
export type PlanDraftStep = z.infer<typeof PlanDraftStep>;

/**
 * A plan while the Planner writes it (its `propose_plan` call still streaming): the goal and each step
 * as their JSON completes. Never executable: the plan card that replaces it comes only from the whole
 * call, validated. `writing` → `checking` (the call arrived) → `published` (the plan card below says
 * the rest; the draft is no longer shown) or `repairing` (the whole plan did not validate; the Planner
 * was sent its problems and writes it again here) or `broken` (the answer stopped before the plan was
 * whole: a failed request, Stop, the editor closed).
 */
export const PlanDraftCard = z.object({
  kind: z.literal('plan_draft'),
  id: z.string(),
  state: z.enum(['writing', 'checking', 'repairing', 'published', 'broken']),
  goal: z.string().max(2000).optional(),
  steps: z.array(PlanDraftStep).max(MAX_PLAN_STEPS),
  /** Steps past the most a plan may have: not shown, and the plan will be refused for them. */
  more_steps: z.number().int().min(0).optional(),
  /** Why it is being repaired or why it broke. */
  problems: z.array(z.string().max(2000)).max(31).optional(),
  ts: z.number(),
});

export const QuestionCard = z.object({
  kind: z.literal('question'),
  id: z.string(),
  question: Question,
  answer: z.string().optional(),
  status: z.enum(['waiting', 'answered', 'cancelled']),
  /** The plan step whose work this card shows (the chat's lanes, `--json`). */
  step: z.number().int().min(1).optional(),
  /** Part of that step's own conversation (a step run beside others, by its own Actor): not the task's conversation. */
  branch: z.boolean().optional(),
  ts: z.number(),
});

/** `stopped`: the user's Stop ended the call (a neutral end, not a failure). */
export const ToolCallStatus = z.enum(['pending', 'approved', 'rejected', 'refused', 'running', 'done', 'error', 'stopped']);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

/** What the user is asked to approve; the webview shows it, the host opens the real diff. */
export const ApprovalInfo = z.object({
  kind: z.enum(['edit', 'create', 'delete', 'command', 'outside_workspace', 'mcp']),
  path: z.string().optional(),
  real_path: z.string().optional(),
  /** Other workspace-relative names the same file goes by through symlinks (`.git/hooks/x` for `gitstore/hooks/x`). */
  aliases: z.array(z.string()).optional(),
  diff: z.string().optional(),
  added: z.number().int().optional(),
  removed: z.number().int().optional(),
  command: z.string().optional(),
  cwd: z.string().optional(),
  /** Commands: the folder it runs in, relative to the workspace ('.' its root): what the card shows. */
  where: z.string().optional(),
  reason: z.string().optional(),
  /** Commands: whether it runs in the OS sandbox (blanket approval covers only those). */
  sandboxed: z.boolean().optional(),
  /** Commands: the model says it needs the network; only an approval of this command (or the user's setting) turns it on. */
  network: z.boolean().optional(),
  /** The parser that checked the proposed text for new syntax errors (e.g. `python`); absent when no guard applied. */
  syntax_checked: z.string().optional(),
  /** MCP calls: the server, the tool as the registry names it (`server__tool`), and the arguments as JSON. */
  server: z.string().optional(),
  tool_name: z.string().optional(),
  arguments: z.string().optional(),
  /** Set while a plan step runs and this action is outside the step's scope: the card asks Allow once / Add to the plan / Reject. */
  amendment: Amendment.optional(),
  /** The plan step asking, when steps run side by side (approvals from several may wait at once). */
  step: z.number().int().min(1).optional(),
  /** One change to several files (a rename): each file with its counts; `path` is the first of them. */
  files: z.array(z.object({ path: z.string(), added: z.number().int(), removed: z.number().int() })).max(500).optional(),
  /**
   * Commands: what "Always allow" would add to the allow-list (the command as parsed: one entry
   * per simple command), or why it is not offered.
   */
  allow: z.object({ entries: z.array(z.string()).optional(), refused: z.string().optional() }).optional(),
});
export type ApprovalInfo = z.infer<typeof ApprovalInfo>;

/**
 * How a command ended, for its card: the exit code alone does not say it (a killed or timed-out
 * command has none), and a non-zero exit is a normal tool result, not a tool error.
 */
export const CommandExit = z.object({
  outcome: z.enum(['success', 'failed', 'killed', 'timed_out']),
  code: z.number().int().nullable(),
});
export type CommandExit = z.infer<typeof CommandExit>;

export const ToolCallCard = z.object({
  kind: z.literal('tool_call'),
  id: z.string(),
  call_id: z.string(),
  tool: z.string(),
  /** A plan step's check (this step): its end reads passed / failed, not done / error. */
  check_step: z.number().int().optional(),
  /** One-line human summary of the arguments ("read src/a.ts:1-200"): the CLI's line, history export. */
  summary: z.string(),
  /**
   * How the chat shows this call, as the tool declares it (kind, title, headline, how it folds).
   * Absent on cards saved before cards carried it: `toolCallDisplay` derives a neutral one.
   */
  display: ToolCallDisplay.optional(),
  args: z.unknown(),
  status: ToolCallStatus,
  approval: ApprovalInfo.optional(),
  result: z.string().optional(),
  error: z.string().optional(),
  /** Checkpoints: set once the call changed files — whether "Revert this change" is offered, and why not. */
  revertible: z.boolean().optional(),
  revert_note: z.string().optional(),
  reverted: z.boolean().optional(),
  /** Commands: how the command exited. */
  exit: CommandExit.optional(),
  /** What the user's hooks did to this call (hookNote.ts). */
  hook: HookNote.optional(),
  /** What the user typed with Approve or Reject: it went to the model with the decision, and the chat shows it. */
  note: z.string().max(10_000).optional(),
  /** Fields the provider put on this call beside id/type/function (Gemini's thought signature): sent back verbatim, also after a resume. Not shown. */
  provider_fields: z.record(z.string(), z.unknown()).optional(),
  /** The assistant message's own provider fields, on its first call's card when the message had no text card. */
  message_fields: z.record(z.string(), z.unknown()).optional(),
  /** The plan step whose work this card shows (the chat's lanes, `--json`). */
  step: z.number().int().min(1).optional(),
  /** Part of that step's own conversation (a step run beside others, by its own Actor): not the task's conversation. */
  branch: z.boolean().optional(),
  ts: z.number(),
});

export const ErrorCard = z.object({
  kind: z.literal('error'),
  id: z.string(),
  message: z.string(),
  detail: z.string().optional(),
  retryable: z.boolean(),
  /** What failed, when a request to the model did ('auth': the card offers Set API key). */
  failure: z.string().max(40).optional(),
  /**
   * A refusal of something the user clicked (a revert that would lose their edits): which action
   * and what it was on, so the chat also shows it next to the button that asked.
   */
  refused: z.object({ action: z.enum(['revert_call', 'revert_task', 'revert_file', 'edit_message', 'edit_plan']), target: z.string().optional() }).optional(),
  /** The plan step whose work this card shows (the chat's lanes, `--json`). */
  step: z.number().int().min(1).optional(),
  /** Part of that step's own conversation (a step run beside others, by its own Actor): not the task's conversation. */
  branch: z.boolean().optional(),
  ts: z.number(),
});

export const UsageCard = z.object({
  kind: z.literal('usage'),
  id: z.string(),
  model: z.string(),
  role: RoleId,
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  latency_ms: z.number(),
  cost_usd: z.number().optional(),
  /** The endpoint reported no usage: the counts are Tandem's own estimate. */
  estimated: z.boolean().optional(),
  outcome: z.string(),
  /** The plan step whose work this card shows (the chat's lanes, `--json`). */
  step: z.number().int().min(1).optional(),
  ts: z.number(),
});

/** How a turn ended: the `turn_ended` event, the run summary and every caller of the agent say it the same way. */
export const TurnOutcome = z.enum(['done', 'stopped', 'error', 'waiting', 'limit']);
export type TurnOutcome = z.infer<typeof TurnOutcome>;

/**
 * When a run that changed files or ran commands ends: what it did, at a glance. Files are the whole
 * task's (each opens its diff since the task started); commands and steps are this run's.
 */
export const SummaryCard = z.object({
  kind: z.literal('summary'),
  id: z.string(),
  outcome: TurnOutcome,
  files: z.array(z.object({
    path: z.string(),
    change: z.enum(['modified', 'created', 'deleted']),
    added: z.number().int().optional(),
    removed: z.number().int().optional(),
  })),
  commands: z.array(z.object({ command: z.string(), exit: CommandExit.optional() })),
  steps: z.object({ done: z.number().int(), failed: z.number().int(), total: z.number().int(), unverified: z.number().int().optional(), stopped: z.number().int().optional() }).optional(),
  /** The executed plan's step checks, each with how it went (`exit_code` null: it did not run to an exit). */
  checks: z.array(z.object({ step: z.number().int(), command: z.string(), exit_code: z.number().int().nullable(), output: z.string() })).optional(),
  /** Why the run stopped short, in words ("Step 2's check failed: `npm test` exited 1"), with the plan and step it concerns. */
  reason: z.string().optional(),
  plan_id: z.string().optional(),
  failed_step: z.number().int().optional(),
  /** A small run (no plan, at most one file): one line instead of the whole card. */
  compact: z.boolean().optional(),
  cost_usd: z.number().optional(),
  tokens_in: z.number().int().optional(),
  tokens_out: z.number().int().optional(),
  ts: z.number(),
});

export const AgentStateCard = z.object({
  kind: z.literal('agent_state'),
  id: z.string(),
  state: AgentState,
  ts: z.number(),
});

/**
 * Project instructions in use (AGENTS.md and the other tools' files, a role's own file): one
 * collapsed line in the chat ("Using instructions from AGENTS.md (+2)") the user can open to see
 * exactly what the model was sent. A nested AGENTS.md met later in the task gets a card of its own.
 */
export const InstructionsCard = z.object({
  kind: z.literal('instructions'),
  id: z.string(),
  /** The files in use, in the order they were read. */
  files: z.array(z.object({
    path: z.string(),
    tokens: z.number().int().min(0),
    /** Tokens cut off its end to fit the budget. */
    cut_tokens: z.number().int().min(0).optional(),
  })),
  /** What did not fit the budget, said plainly. */
  cut: z.string().optional(),
  /** A nested AGENTS.md, added when the agent first touched its folder (sent with that tool result). */
  nested: z.boolean().optional(),
  /** Exactly the text the model was sent. */
  text: z.string(),
  ts: z.number(),
});

/** One fact as a card names it: its id (for Forget), its sentence and its citation in one line. */
const FactLine = z.object({ id: z.string().max(40), text: z.string().max(1000), cited: z.string().max(2000) });

/**
 * The facts a request carried (one collapsed line, "Using 3 facts", that opens to each with its
 * citation), and those left out as stale with why. A new card only when what is sent changes.
 */
export const FactsCard = z.object({
  kind: z.literal('facts'),
  id: z.string(),
  role: RoleId,
  sent: z.array(FactLine).max(200),
  stale: z.array(FactLine.extend({ why: z.string().max(1000) })).max(200),
  /** Checked facts that did not fit `tandem.facts.maxTokens`. */
  left_out: z.number().int().min(0).optional(),
  ts: z.number(),
});

/**
 * What a review taught ("Learned: … — from src/app.py:12-20", with Forget), or why it was not kept
 * (`refused`: a citation of a file a read would refuse, lines that do not exist, facts turned off).
 */
export const LearnedCard = z.object({
  kind: z.literal('learned'),
  id: z.string(),
  fact: FactLine.extend({ id: z.string().max(40).optional() }),
  refused: z.string().max(1000).optional(),
  /** The user forgot it since. */
  forgotten: z.boolean().optional(),
  step: z.number().int().min(1).optional(),
  ts: z.number(),
});

export const Card = z.discriminatedUnion('kind', [
  TextCard, PlanCard, PlanDraftCard, QuestionCard, ToolCallCard, ErrorCard, UsageCard, AgentStateCard, SummaryCard, InstructionsCard, FactsCard, LearnedCard,
]);
export type Card = z.infer<typeof Card>;
export type TextCard = z.infer<typeof TextCard>;
export type PlanCard = z.infer<typeof PlanCard>;
export type PlanDraftCard = z.infer<typeof PlanDraftCard>;
export type QuestionCard = z.infer<typeof QuestionCard>;
export type ToolCallCard = z.infer<typeof ToolCallCard>;
export type ErrorCard = z.infer<typeof ErrorCard>;
export type UsageCard = z.infer<typeof UsageCard>;
export type AgentStateCard = z.infer<typeof AgentStateCard>;
export type SummaryCard = z.infer<typeof SummaryCard>;
export type InstructionsCard = z.infer<typeof InstructionsCard>;
export type FactsCard = z.infer<typeof FactsCard>;
export type LearnedCard = z.infer<typeof LearnedCard>;
