/**
 * One attempt at producing a plan version: the model's answers are checked one by one; a failing
 * answer gets its error lines back for a repair, at most `maxRepairs` times; then the last answer
 * is published as an unvalidated plan (shown as text, Execute disabled). Used by both ways a plan
 * arrives — `propose_plan` arguments and a final structured/text answer — so the rules are the same.
 */
import type { Logger } from '../ports/ports';
import { planRepairPrompt } from './repairPrompt';
import { validatePlan, type PlanCheckOptions } from './validatePlan';
import type { CarriedSteps, PlanBook } from './planBook';
import type { PlanAttempt, PlanPath, PlanRecord } from './planRecord';
import type { Plan, PlanStep, StepEvidence, StepState } from '../../protocol';
import type { PlanDraft } from './planDraft';

export type PlanSubmission =
  | { status: 'accepted'; record: PlanRecord }
  | { status: 'repair'; errors: string[]; prompt: string }
  | { status: 'rejected'; record: PlanRecord }
  /** The model's repairs ran out and the role has a fallback model: the plan is asked of `model` afresh (nothing published yet). */
  | { status: 'fallback'; model: string; errors: string[] }
  /** The turn already has its plan (e.g. two propose_plan calls in one message): nothing was checked. */
  | { status: 'closed'; record: PlanRecord };

export interface PlanTurnOptions extends PlanCheckOptions {
  model: string;
  maxRepairs: number;
  logger: Logger;
  feedback?: string;
  now?: () => number;
  /** The system prompt's version, kept in the provenance. */
  promptVersion?: string;
  /** Models tried in order when `model`'s repairs run out (the role's fallback list). */
  fallbacks?: readonly string[];
  /**
   * A replan: the model proposes the remaining work only; the published version is the done steps
   * of version `of` (verbatim, still done, with their evidence) followed by the model's steps.
   */
  replan?: ReplanCarry;
  /** The card that shows the plan while the model writes it (see planDraft.ts); told how each answer ended. */
  draft?: PlanDraft;
}

export interface ReplanCarry {
  of: number;
  /** The steps that ran and did not fail, in order, with how they ended. */
  keep: readonly { step: PlanStep; state: Extract<StepState, 'done' | 'unverified'>; evidence?: StepEvidence }[];
}

/** The kept steps first, renumbered 1..k, keeping how they ended; then the new ones after them. */
export function composeReplan(carry: ReplanCarry, rest: Plan): { plan: Plan; carried: CarriedSteps } {
  const kept = carry.keep.map((k, i) => ({ ...k.step, step_number: i + 1 }));
  const carried: CarriedSteps = {
    replanOf: carry.of,
    states: Object.fromEntries(carry.keep.map((k, i) => [String(i + 1), k.state])),
    evidence: Object.fromEntries(carry.keep.map((k, i) => [String(i + 1), k.evidence ?? { why: [] }])),
  };
  return { plan: { ...rest, steps: [...kept, ...rest.steps.map((s, i) => ({ ...s, step_number: kept.length + i + 1 }))] }, carried };
}

export class PlanTurn {
  readonly attempts: PlanAttempt[] = [];
  private published: PlanRecord | undefined;
  /** Submissions are checked one at a time (see `submit`). */
  private queue: Promise<void> = Promise.resolve();
  /** The model answering now (the role's own, then each fallback in turn). */
  private current: string;
  private readonly fallbacksLeft: string[];
  private readonly fallbacksUsed: string[] = [];
  /** Answers checked from the current model. */
  private fromCurrent = 0;

  constructor(private readonly book: PlanBook, private readonly opts: PlanTurnOptions) {
    this.current = opts.model;
    this.fallbacksLeft = (opts.fallbacks ?? []).filter((m) => m && m !== opts.model);
  }

  /** The model the next answer should come from. */
  get model(): string {
    return this.current;
  }

  /** A fallback model was chosen and has not answered with a published plan yet. */
  get wantsFallbackAnswer(): boolean {
    return !this.published && this.fallbacksUsed.length > 0 && this.fromCurrent === 0;
  }

  /** The record this turn produced, once accepted or rejected. */
  get result(): PlanRecord | undefined {
    return this.published;
  }

  /** The tool names this turn's plan steps may use (for the plan request's schema). */
  get stepTools(): readonly string[] {
    return this.opts.stepTools;
  }

  get done(): boolean {
    return this.published !== undefined;
  }

  /** The draft of the plan being written, while this turn may still publish one. */
  get draft(): PlanDraft | undefined {
    return this.published ? undefined : this.opts.draft;
  }

  /**
   * Checks one answer. `value` is the parsed JSON (or undefined when none could be parsed, with
   * `parseError` saying why); `raw` is the model's text exactly as received.
   */
  submit(raw: string, value: unknown, path: PlanPath, parseError?: string): Promise<PlanSubmission> {
    // One at a time: parallel propose_plan calls (read-only tools run concurrently) must not publish twice.
    const next = this.queue.then(() => this.check(raw, value, path, parseError));
    this.queue = next.then(() => undefined, () => undefined);
    return next;
  }

  private async check(raw: string, value: unknown, path: PlanPath, parseError?: string): Promise<PlanSubmission> {
    if (this.published) return { status: 'closed', record: this.published };
    const now = this.opts.now ?? Date.now;
    const v = parseError !== undefined
      ? { ok: false as const, plan: null, errors: [parseError] }
      : await validatePlan(value, this.opts);
    this.attempts.push({ raw, path, errors: v.errors, at: now(), model: this.current, ...(v.ok ? {} : { failure: parseError !== undefined ? 'parse' as const : 'validation' as const }) });
    this.fromCurrent++;
    const repairs = this.attempts.length - 1 - this.fallbacksUsed.length;
    const provenance = () => ({
      model: this.current, raw, path, attempts: [...this.attempts], repairs, createdAt: now(),
      ...(this.opts.feedback ? { feedback: this.opts.feedback } : {}),
      ...(this.opts.promptVersion ? { promptVersion: this.opts.promptVersion } : {}),
      ...(this.fallbacksUsed.length ? { fallbacks: [...this.fallbacksUsed] } : {}),
    });
    if (v.ok) {
      this.opts.logger.info(`plan: validated via ${path}${repairs ? ` after ${repairs} repair(s)` : ''}`);
      const composed = this.opts.replan ? composeReplan(this.opts.replan, v.plan) : undefined;
      this.published = this.book.publish({
        plan: composed?.plan ?? v.plan, errors: [], provenance: provenance(),
        ...(composed ? { carried: composed.carried } : {}),
      });
      this.opts.draft?.published();
      return { status: 'accepted', record: this.published };
    }
    this.opts.logger.warn(`plan: attempt ${this.attempts.length} via ${path} failed validation: ${v.errors.join(' | ')}`);
    if (this.fromCurrent - 1 < this.opts.maxRepairs) {
      this.opts.draft?.repairing(v.errors);
      return { status: 'repair', errors: v.errors, prompt: planRepairPrompt(v.errors, path === 'tool' ? 'tool' : 'json', this.opts.stepTools) };
    }
    const next = this.fallbacksLeft.shift();
    if (next) {
      this.opts.logger.warn(`plan: ${this.current} gave no valid plan after ${this.fromCurrent - 1} repair(s); asking the fallback model ${next}`);
      this.fallbacksUsed.push(next);
      this.current = next;
      this.fromCurrent = 0;
      this.opts.draft?.repairing([...v.errors, `Still not valid after the repairs: the plan is asked of ${next}.`]);
      return { status: 'fallback', model: next, errors: v.errors };
    }
    this.opts.logger.warn(`plan: could not be validated after ${repairs} repair(s); shown as text, Execute disabled`);
    this.published = this.book.publish({ plan: null, errors: v.errors, provenance: provenance() });
    this.opts.draft?.published();
    return { status: 'rejected', record: this.published };
  }

  /**
   * At the end of the turn: if the model stopped after a failed attempt without repairing it, the
   * last answer is still shown (as unvalidated) rather than silently dropped.
   */
  finish(): PlanRecord | undefined {
    if (!this.published && this.attempts.length === 0) {
      // A plan call began and never reached its check: the answer was cut, or the call was refused before it ran.
      this.opts.draft?.broke('The Planner\'s turn ended before this plan was checked, so it cannot be executed.');
      return undefined;
    }
    if (this.published) return this.published;
    const last = this.attempts[this.attempts.length - 1];
    this.opts.logger.warn('plan: the model stopped before repairing its plan; shown as text, Execute disabled');
    this.published = this.book.publish({
      plan: null,
      errors: last.errors,
      provenance: {
        model: last.model ?? this.current, raw: last.raw, path: last.path, attempts: [...this.attempts],
        repairs: this.attempts.length - 1 - this.fallbacksUsed.length, createdAt: (this.opts.now ?? Date.now)(),
        ...(this.opts.feedback ? { feedback: this.opts.feedback } : {}),
        ...(this.opts.promptVersion ? { promptVersion: this.opts.promptVersion } : {}),
        ...(this.fallbacksUsed.length ? { fallbacks: [...this.fallbacksUsed] } : {}),
      },
    });
    this.opts.draft?.published();
    return this.published;
  }
}
