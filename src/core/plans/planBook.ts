/**
 * The task's plans: every version with its provenance and step states, and the plan cards that
 * show them. A new version supersedes the older ones (they stay visible, collapsed). Nothing can
 * be executed from a record whose `plan` is null.
 */
import { parallelPairs } from './graph/stepScheduler';
import { sideBySideGroups } from './graph/sideBySideGroups';
import type { Card, ModelReliability, Plan, PlanUsage, ReviewResult, StepEvidence, StepState, UsageSlice } from '../../protocol';
import type { PlanProvenance, PlanRecord } from './planRecord';
import { planVersionDiff } from './planVersionDiff';
import { ReliabilityTally } from './modelReliability';
import type { CardSink } from '../events/cardSink';

/**
 * The most of an unvalidated plan's text its card shows (the whole is kept in the record's
 * provenance): a plan refused for its size can be megabytes, which the chat and the CLI's output
 * would otherwise carry whole.
 */
const MAX_SHOWN_RAW_CHARS = 20_000;

function shownRaw(raw: string): string {
  return raw.length <= MAX_SHOWN_RAW_CHARS ? raw : `${raw.slice(0, MAX_SHOWN_RAW_CHARS)}\n… (${raw.length - MAX_SHOWN_RAW_CHARS} more characters not shown)`;
}

/** A replan's carry-over: the version it replans and the steps of the new version that keep how they ended (with their evidence). */
export interface CarriedSteps {
  replanOf: number;
  states: Record<string, Extract<StepState, 'done' | 'unverified'>>;
  evidence: Record<string, StepEvidence>;
}

/** The slice of the event stream plans need (`EventStream` satisfies it). */

export class PlanBook {
  private readonly records: PlanRecord[] = [];
  /** How each model's structured answers fared in this task (shown on the card last touched). */
  private readonly reliability = new ReliabilityTally();

  constructor(
    private readonly ui: CardSink,
    private readonly now: () => number = Date.now,
    /** Why steps that could run side by side will run one at a time here, asked when a plan shows such steps. */
    private readonly whyOneAtATime?: () => Promise<string | undefined>,
  ) {}

  /** Shows a new plan version (valid or not) and supersedes the previous ones. */
  publish(result: { plan: Plan | null; errors: string[]; provenance: PlanProvenance; carried?: CarriedSteps; usage?: PlanUsage }): PlanRecord {
    const previous = [...this.records].reverse().find((r) => r.plan);
    this.reliability.add(result.provenance.attempts);
    for (const r of this.records) {
      if (!r.superseded) {
        r.superseded = true;
        this.ui.patchCard(r.cardId, { superseded: true });
      }
    }
    const record: PlanRecord = {
      cardId: this.ui.newId('plan'),
      version: this.records.length + 1,
      plan: result.plan,
      errors: result.errors,
      provenance: result.provenance,
      stepStates: result.plan ? Object.fromEntries(result.plan.steps.map((s) => [String(s.step_number), (result.carried?.states[String(s.step_number)] ?? 'pending') as StepState])) : {},
      stepEvidence: { ...(result.carried?.evidence ?? {}) },
      superseded: false,
      ...(result.carried ? { replanOf: result.carried.replanOf } : {}),
      ...(previous?.plan && result.plan ? { changes: planVersionDiff(previous.plan, result.plan, previous.version) } : {}),
      ...(result.usage ? { usage: result.usage } : {}),
    };
    this.records.push(record);
    const pairs = record.plan ? parallelPairs(record.plan.steps) : [];
    this.ui.addCard({
      kind: 'plan',
      id: record.cardId,
      version: record.version,
      plan: record.plan,
      // An unvalidated plan is shown as the model wrote it; the card says it could not be validated.
      ...(record.plan ? {} : { raw_text: shownRaw(result.provenance.raw) }),
      errors: record.errors,
      // Which steps could run at the same time (their needs allow it, their files do not overlap).
      ...(pairs.length ? { run_together: sideBySideGroups(pairs) } : {}),
      step_states: { ...record.stepStates },
      ...(Object.keys(record.stepEvidence).length ? { step_evidence: { ...record.stepEvidence } } : {}),
      ...(record.replanOf !== undefined ? { replan_of: record.replanOf } : {}),
      ...(record.changes ? { changes: record.changes } : {}),
      ...(record.usage ? { usage: record.usage } : {}),
      reliability: this.reliability.snapshot(),
      ts: result.provenance.createdAt || this.now(),
    });
    this.ui.emit({
      type: 'plan_version', plan_id: record.cardId, version: record.version, valid: !!record.plan,
      ...(record.replanOf !== undefined ? { replan_of: record.replanOf } : {}),
      ...(record.changes ? { changes: record.changes } : {}),
    });
    // Said before Execute: outside git, those steps will run one at a time.
    if (pairs.length && this.whyOneAtATime) {
      void this.whyOneAtATime().then((why) => { if (why) this.setOneAtATime(record.cardId, why); }, () => undefined);
    }
    return record;
  }

  /** The Reviewer's verdict on a version: on the card, and as a `review_verdict` event. */
  setReview(cardId: string, result: ReviewResult): void {
    const r = this.get(cardId);
    if (!r) return;
    r.review = result;
    this.reliability.add(result.provenance.attempts);
    this.ui.patchCard(cardId, { review: result, reliability: this.reliability.snapshot() });
    this.ui.emit({ type: 'review_verdict', plan_id: cardId, version: r.version, verdict: result.verdict, model: result.provenance.model });
  }

  /** The Reviewer's verdict on an executed step. */
  setStepReview(cardId: string, step: number, result: ReviewResult): void {
    const r = this.get(cardId);
    if (!r) return;
    r.stepReviews = { ...(r.stepReviews ?? {}), [String(step)]: result };
    this.reliability.add(result.provenance.attempts);
    this.ui.patchCard(cardId, { step_reviews: { ...r.stepReviews }, reliability: this.reliability.snapshot() });
    this.ui.emit({ type: 'review_verdict', plan_id: cardId, version: r.version, step_number: step, verdict: result.verdict, model: result.provenance.model });
  }

  /** The user went on despite the verdict (Execute anyway, Continue): the card says it was overridden. */
  overrideReviews(cardId: string): void {
    const r = this.get(cardId);
    if (!r) return;
    if (r.review && r.review.verdict?.verdict !== 'ok' && !r.review.overridden) {
      r.review = { ...r.review, overridden: true };
      this.ui.patchCard(cardId, { review: r.review });
    }
    const steps = Object.entries(r.stepReviews ?? {}).filter(([, v]) => v.verdict?.verdict === 'replan' && !v.overridden);
    if (steps.length) {
      r.stepReviews = { ...r.stepReviews, ...Object.fromEntries(steps.map(([k, v]) => [k, { ...v, overridden: true }])) };
      this.ui.patchCard(cardId, { step_reviews: { ...r.stepReviews } });
    }
  }

  /** Why the execution stopped before the end without a failed step; undefined clears it. */
  setHalted(cardId: string, why: string | undefined): void {
    const r = this.get(cardId);
    if (!r || r.halted === why) return;
    r.halted = why;
    this.ui.patchCard(cardId, { halted: why });
  }

  /** One request's tokens and cost, counted for the version's role and (while executing) its step. */
  addUsage(cardId: string, role: string, step: number | undefined, u: UsageAmount): UsageSlice | undefined {
    const r = this.get(cardId);
    if (!r) return undefined;
    const usage: PlanUsage = { by_role: { ...(r.usage?.by_role ?? {}) }, by_step: { ...(r.usage?.by_step ?? {}) } };
    usage.by_role[role] = addSlice(usage.by_role[role], u);
    if (step !== undefined && step > 0) usage.by_step[String(step)] = addSlice(usage.by_step[String(step)], u);
    r.usage = usage;
    this.ui.patchCard(cardId, { usage });
    return step !== undefined && step > 0 ? usage.by_step[String(step)] : undefined;
  }

  /**
   * Puts back the records of a resumed task (history keeps them with their provenance), so Execute
   * and Revise work on the restored cards. Emits nothing: the cards come back with the snapshot.
   */
  restore(records: readonly PlanRecord[], reliability?: Readonly<Record<string, ModelReliability>>): void {
    if (reliability) this.reliability.seed(reliability);
    this.records.length = 0;
    this.oneAtATime.clear();
    for (const r of records) {
      this.records.push({ ...r, stepStates: { ...r.stepStates }, stepEvidence: { ...(r.stepEvidence ?? {}) } });
      if (r.oneAtATime) this.oneAtATime.set(r.cardId, r.oneAtATime);
    }
  }

  /**
   * Asks again why the current plan's side-by-side steps would run one at a time, and corrects its
   * card: a resumed task's card says what was true when it was saved (git since set up or gone, the
   * setting changed). Resolves once the card says what holds now.
   */
  async recheckOneAtATime(): Promise<void> {
    const r = [...this.records].reverse().find((x) => x.plan && !x.superseded);
    if (!r?.plan || !this.whyOneAtATime || parallelPairs(r.plan.steps).length === 0) return;
    const why = await this.whyOneAtATime().catch(() => undefined);
    this.setOneAtATime(r.cardId, why);
  }

  get(cardId: string): PlanRecord | undefined {
    return this.records.find((r) => r.cardId === cardId);
  }

  latest(): PlanRecord | undefined {
    return this.records[this.records.length - 1];
  }

  all(): readonly PlanRecord[] {
    return this.records;
  }

  /**
   * Records a step's state (and, once it ended, its evidence) and patches the card — whole maps,
   * because patches are shallow. An ended step always carries evidence; `reason` alone becomes its why.
   */
  setStepState(cardId: string, stepNumber: number, state: StepState, reason?: string, evidence?: StepEvidence): void {
    const r = this.get(cardId);
    if (!r) return;
    const key = String(stepNumber);
    r.stepStates[key] = state;
    if (state === 'running' || state === 'pending') delete r.stepEvidence[key];
    else r.stepEvidence[key] = evidence ?? { why: reason ? [reason] : [] };
    this.ui.patchCard(cardId, { step_states: { ...r.stepStates }, step_evidence: { ...r.stepEvidence } });
    const why = r.stepEvidence[key]?.why.join('; ') || reason;
    if (state === 'running') this.ui.emit({ type: 'step_started', plan_id: cardId, step_number: stepNumber });
    else if (state === 'done') this.ui.emit({ type: 'step_done', plan_id: cardId, step_number: stepNumber });
    else if (state === 'failed') this.ui.emit({ type: 'step_failed', plan_id: cardId, step_number: stepNumber, ...(why ? { reason: why } : {}) });
    else if (state === 'stopped') this.ui.emit({ type: 'step_stopped', plan_id: cardId, step_number: stepNumber });
    else if (state === 'unverified') this.ui.emit({ type: 'step_unverified', plan_id: cardId, step_number: stepNumber, reason: why || 'no evidence' });
  }

  /** The cards that say why their steps run one at a time, with what they say. */
  private readonly oneAtATime = new Map<string, string>();

  /** Why steps that could run together run one at a time here (outside git), shown on the card; undefined: they run together after all. */
  setOneAtATime(cardId: string, why: string | undefined): void {
    const r = this.get(cardId);
    if (!r || this.oneAtATime.get(cardId) === (why || undefined)) return;
    if (why) this.oneAtATime.set(cardId, why);
    else this.oneAtATime.delete(cardId);
    if (why) r.oneAtATime = why;
    else delete r.oneAtATime;
    this.ui.patchCard(cardId, { one_at_a_time: why ?? '' });
  }

  setExecuting(cardId: string, executing: boolean): void {
    if (this.get(cardId)) this.ui.patchCard(cardId, { executing });
  }

  /**
   * Marks steps done that an earlier version's run already did (carryDoneSteps.ts): the card shows
   * them done with that evidence; no step event is sent, since nothing ran now.
   */
  keepDoneSteps(cardId: string, evidence: Readonly<Record<string, StepEvidence>>): void {
    const r = this.get(cardId);
    if (!r?.plan || Object.keys(evidence).length === 0) return;
    for (const [key, e] of Object.entries(evidence)) {
      r.stepStates[key] = 'done';
      r.stepEvidence[key] = e;
    }
    this.ui.patchCard(cardId, { step_states: { ...r.stepStates }, step_evidence: { ...r.stepEvidence } });
  }

  /** Resets step states before a (re-)execution. */
  resetSteps(cardId: string): void {
    const r = this.get(cardId);
    if (!r?.plan) return;
    r.stepStates = Object.fromEntries(r.plan.steps.map((s) => [String(s.step_number), 'pending' as StepState]));
    r.stepEvidence = {};
    this.ui.patchCard(cardId, { step_states: { ...r.stepStates }, step_evidence: {} });
  }

  /**
   * Before continuing from step `from`: every step that ended done or unverified keeps how it ended,
   * whatever its number (in a branching plan a later-numbered step may have run beside an unfinished
   * one; running it again would apply it twice); `from` and every other step go back to pending.
   * Returns the steps kept.
   */
  resetUnfinishedSteps(cardId: string, from: number): number[] {
    const r = this.get(cardId);
    if (!r?.plan) return [];
    const kept: number[] = [];
    for (const s of r.plan.steps) {
      const key = String(s.step_number);
      const st = r.stepStates[key];
      if (s.step_number !== from && (st === 'done' || st === 'unverified')) {
        kept.push(s.step_number);
        continue;
      }
      r.stepStates[key] = 'pending';
      delete r.stepEvidence[key];
    }
    this.ui.patchCard(cardId, { step_states: { ...r.stepStates }, step_evidence: { ...r.stepEvidence } });
    return kept;
  }
}

/** Tokens and cost of one request (or of several, with `requests`). */
export interface UsageAmount {
  tokensIn: number;
  tokensOut: number;
  costUsd?: number;
  requests?: number;
}

function addSlice(s: UsageSlice | undefined, u: UsageAmount): UsageSlice {
  const cost = u.costUsd === undefined ? s?.cost_usd : (s?.cost_usd ?? 0) + u.costUsd;
  return { tokens_in: (s?.tokens_in ?? 0) + u.tokensIn, tokens_out: (s?.tokens_out ?? 0) + u.tokensOut, ...(cost !== undefined ? { cost_usd: cost } : {}), requests: (s?.requests ?? 0) + (u.requests ?? 1) };
}
