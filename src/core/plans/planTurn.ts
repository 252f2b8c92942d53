/**
 * One attempt at producing a plan version: the model's answers are checked one by one; a failing
 * answer gets its error lines back for a repair, at most `maxRepairs` times; then the last answer
 * is published as an unvalidated plan (shown as text, Execute disabled). Used by both ways a plan
 * arrives — `propose_plan` arguments and a final structured/text answer — so the rules are the same.
 */
import type { Logger } from '../ports';
import { planRepairPrompt } from './repairPrompt';
import { validatePlan, type PlanCheckOptions } from './validatePlan';
import type { PlanBook } from './planBook';
import type { PlanAttempt, PlanPath, PlanRecord } from './planRecord';

export type PlanSubmission =
  | { status: 'accepted'; record: PlanRecord }
  | { status: 'repair'; errors: string[]; prompt: string }
  | { status: 'rejected'; record: PlanRecord }
  /** The turn already has its plan (e.g. two propose_plan calls in one message): nothing was checked. */
  | { status: 'closed'; record: PlanRecord };

export interface PlanTurnOptions extends PlanCheckOptions {
  model: string;
  maxRepairs: number;
  logger: Logger;
  feedback?: string;
  now?: () => number;
}

export class PlanTurn {
  readonly attempts: PlanAttempt[] = [];
  private published: PlanRecord | undefined;
  /** Submissions are checked one at a time (see `submit`). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly book: PlanBook, private readonly opts: PlanTurnOptions) {}

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
    this.attempts.push({ raw, path, errors: v.errors, at: now() });
    const repairs = this.attempts.length - 1;
    const provenance = () => ({
      model: this.opts.model, raw, path, attempts: [...this.attempts], repairs, createdAt: now(),
      ...(this.opts.feedback ? { feedback: this.opts.feedback } : {}),
    });
    if (v.ok) {
      this.opts.logger.info(`plan: validated via ${path}${repairs ? ` after ${repairs} repair(s)` : ''}`);
      this.published = this.book.publish({ plan: v.plan, errors: [], provenance: provenance() });
      return { status: 'accepted', record: this.published };
    }
    this.opts.logger.warn(`plan: attempt ${this.attempts.length} via ${path} failed validation: ${v.errors.join(' | ')}`);
    if (repairs < this.opts.maxRepairs) {
      return { status: 'repair', errors: v.errors, prompt: planRepairPrompt(v.errors, path === 'tool' ? 'tool' : 'json', this.opts.stepTools) };
    }
    this.opts.logger.warn(`plan: could not be validated after ${repairs} repair(s); shown as text, Execute disabled`);
    this.published = this.book.publish({ plan: null, errors: v.errors, provenance: provenance() });
    return { status: 'rejected', record: this.published };
  }

  /**
   * At the end of the turn: if the model stopped after a failed attempt without repairing it, the
   * last answer is still shown (as unvalidated) rather than silently dropped.
   */
  finish(): PlanRecord | undefined {
    if (this.published || this.attempts.length === 0) return this.published;
    const last = this.attempts[this.attempts.length - 1];
    this.opts.logger.warn('plan: the model stopped before repairing its plan; shown as text, Execute disabled');
    this.published = this.book.publish({
      plan: null,
      errors: last.errors,
      provenance: {
        model: this.opts.model, raw: last.raw, path: last.path, attempts: [...this.attempts],
        repairs: this.attempts.length - 1, createdAt: (this.opts.now ?? Date.now)(),
        ...(this.opts.feedback ? { feedback: this.opts.feedback } : {}),
      },
    });
    return this.published;
  }
}
