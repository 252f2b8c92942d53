/**
 * What one eval run of a task cost and how it went, read from the task's cards as they ended (the
 * same cards the chat and history show): tokens and cost per role, model requests, tool calls
 * that failed, edits refused, amendments, plan versions made by replanning, and the Reviewer's
 * verdicts. Pure: the cards in, the figures out.
 */
import type { Card } from '../../protocol';

export interface RoleUsage {
  tokensIn: number;
  tokensOut: number;
  /** USD; absent while any request of the role had no known price. */
  costUsd?: number;
  requests: number;
}

export interface EvalMetrics {
  byRole: Record<string, RoleUsage>;
  tokensIn: number;
  tokensOut: number;
  /** USD; absent when some request's price is unknown (a local model without a price). */
  costUsd?: number;
  modelRequests: number;
  toolCalls: number;
  failedToolCalls: number;
  refusedEdits: number;
  amendments: number;
  replans: number;
  planVersions: number;
  /** The Reviewer's verdicts on plans, in order (ok, revise, replan). */
  verdicts: string[];
  /** Plan steps at the end of the last run: how many ended done, and how many there were. */
  steps?: { done: number; total: number };
}

const EDIT_KINDS = new Set(['edit', 'create', 'delete', 'outside_workspace']);
const EDIT_DISPLAYS = new Set(['edit', 'create', 'delete']);

/**
 * An edit the agent wanted that did not happen because something said no: the approval (the eval's
 * approver, a hard rule) or the write tool's own rules ("Refused: … you have not read it"). Counted
 * as a refused edit, not as a failed tool call.
 */
function refusedEdit(c: Extract<Card, { kind: 'tool_call' }>): boolean {
  const isEdit = (c.approval && EDIT_KINDS.has(c.approval.kind)) || (c.display && EDIT_DISPLAYS.has(c.display.kind));
  if (!isEdit) return false;
  return c.status === 'refused' || c.status === 'rejected' || (c.status === 'error' && /^Refused\b/.test(c.error ?? c.result ?? ''));
}

export function metricsFromCards(cards: readonly Card[]): EvalMetrics {
  const byRole: Record<string, RoleUsage> = {};
  const unpriced = new Set<string>();
  let toolCalls = 0;
  let failedToolCalls = 0;
  let refusedEdits = 0;
  let amendments = 0;
  let replans = 0;
  let planVersions = 0;
  const verdicts: string[] = [];
  let steps: EvalMetrics['steps'];
  for (const c of cards) {
    if (c.kind === 'usage') {
      const r = (byRole[c.role] ??= { tokensIn: 0, tokensOut: 0, costUsd: 0, requests: 0 });
      r.tokensIn += c.tokens_in;
      r.tokensOut += c.tokens_out;
      r.requests++;
      if (c.cost_usd === undefined) unpriced.add(c.role);
      else r.costUsd = (r.costUsd ?? 0) + c.cost_usd;
    } else if (c.kind === 'tool_call') {
      // A step's check is the plan's own command, not a call the model made: a failed one shows as the step failing.
      if (c.check_step !== undefined) continue;
      toolCalls++;
      if (refusedEdit(c)) refusedEdits++;
      else if (c.status === 'error') failedToolCalls++;
      if (c.approval?.amendment) amendments++;
    } else if (c.kind === 'plan') {
      planVersions++;
      if (c.replan_of !== undefined) replans++;
      if (c.review?.verdict) verdicts.push(c.review.verdict.verdict);
      if (c.plan && Object.values(c.step_states).some((s) => s !== 'pending')) {
        steps = { done: c.plan.steps.filter((s) => c.step_states[String(s.step_number)] === 'done').length, total: c.plan.steps.length };
      }
    }
  }
  for (const role of unpriced) delete byRole[role]!.costUsd;
  const roles = Object.values(byRole);
  const priced = unpriced.size === 0;
  return {
    byRole,
    tokensIn: roles.reduce((n, r) => n + r.tokensIn, 0),
    tokensOut: roles.reduce((n, r) => n + r.tokensOut, 0),
    ...(priced ? { costUsd: roles.reduce((n, r) => n + (r.costUsd ?? 0), 0) } : {}),
    modelRequests: roles.reduce((n, r) => n + r.requests, 0),
    toolCalls,
    failedToolCalls,
    refusedEdits,
    amendments,
    replans,
    planVersions,
    verdicts,
    ...(steps ? { steps } : {}),
  };
}
