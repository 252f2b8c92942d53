import * as z from 'zod';
import { AgentState, Card, TurnOutcome } from './cards';
import { RoleId } from './roles';
import { PlanVersionDiff, ReviewVerdict } from './review';
import { Amendment } from './amendment';

/**
 * Host → webview (and CLI `--json`): deltas only, never the whole history. Each carries a
 * sequence number so the receiver can detect a gap and ask for a `snapshot`.
 */
const seq = z.number().int().min(0);
/** The plan step an event belongs to, when steps run side by side (cards carry it too). */
const step = z.number().int().min(1).optional();
/** Tokens (and cost, when the endpoint prices them) summed over a turn or a task. */
const TokenTotals = z.object({ tokens_in: z.number(), tokens_out: z.number(), cost_usd: z.number().optional() });

export const HostEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('card_added'), seq, card: Card }),
  /** A shallow patch of a card's top-level fields. */
  z.object({ type: z.literal('card_patched'), seq, id: z.string(), patch: z.record(z.string(), z.unknown()), step }),
  z.object({ type: z.literal('text_appended'), seq, id: z.string(), text: z.string(), step }),
  /** More of a text card's reasoning (kept apart from its text). */
  z.object({ type: z.literal('reasoning_appended'), seq, id: z.string(), text: z.string(), step }),
  /** `detail` says what the state is waiting on ("Waiting for the model's first token (prompt 1,200 tokens)"). */
  z.object({ type: z.literal('agent_state'), seq, state: AgentState, detail: z.string().optional(), step }),
  z.object({ type: z.literal('role_changed'), seq, role: RoleId, reason: z.string().optional() }),
  z.object({ type: z.literal('step_started'), seq, plan_id: z.string(), step_number: z.number().int() }),
  z.object({ type: z.literal('step_done'), seq, plan_id: z.string(), step_number: z.number().int() }),
  z.object({ type: z.literal('step_failed'), seq, plan_id: z.string(), step_number: z.number().int(), reason: z.string().optional() }),
  /** The user's Stop ended the run during this step: neither done nor failed. */
  z.object({ type: z.literal('step_stopped'), seq, plan_id: z.string(), step_number: z.number().int() }),
  /** The step ended normally but without evidence that it worked (no check, a rejected action, …). */
  z.object({ type: z.literal('step_unverified'), seq, plan_id: z.string(), step_number: z.number().int(), reason: z.string() }),
  /** The Reviewer judged a plan version (no `step_number`) or an executed step; `verdict` null: no valid answer came. */
  z.object({ type: z.literal('review_verdict'), seq, plan_id: z.string(), version: z.number().int(), step_number: z.number().int().optional(), verdict: ReviewVerdict.nullable(), model: z.string() }),
  /** A new plan version was published (right after its card_added): valid or not, what it replans, what changed from the previous version. */
  z.object({ type: z.literal('plan_version'), seq, plan_id: z.string(), version: z.number().int(), valid: z.boolean(), replan_of: z.number().int().optional(), changes: PlanVersionDiff.optional() }),
  /** A step asked for something outside its scope (`outcome` asked), and how that was decided. */
  z.object({ type: z.literal('amendment'), seq, call_id: z.string(), amendment: Amendment, step }),
  z.object({ type: z.literal('usage_total'), seq, turn: TokenTotals, task: TokenTotals }),
  z.object({ type: z.literal('turn_ended'), seq, outcome: TurnOutcome }),
  /**
   * The whole visible state, sent only on (re)load of a task or after a detected gap. `state`: what
   * the agent is doing when it is not idle (a view shown again while an approval waits must not say Idle);
   * `usage`: the last `usage_total`'s figures, once a model was called (else the header's usage line is gone).
   */
  z.object({
    type: z.literal('snapshot'), seq, cards: z.array(Card), role: RoleId, task_id: z.string().optional(), state: AgentState.optional(),
    usage: z.object({ turn: TokenTotals, task: TokenTotals }).optional(),
  }),
]);
export type HostEvent = z.infer<typeof HostEvent>;
export type HostEventType = HostEvent['type'];
/** An event before the emitter stamps its sequence number. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type HostEventInput = DistributiveOmit<HostEvent, 'seq'>;
