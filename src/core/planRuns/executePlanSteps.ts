/**
 * Drives a plan's execution one step per sub-turn. Why the loop and not the model: step events
 * must be reliable, and a model asked to "report progress" forgets, reports twice, or reports a
 * step it skipped. Here the loop starts each step (step_started), sends only that step, and when
 * the sub-turn ends it runs the step's check and decides how the step ended (see stepVerdict.ts):
 * done only with evidence, unverified with the reasons, failed when it could not be done or its
 * check failed. The first sub-turn carries the whole plan as the brief so the Actor has the
 * context; execution stops at the first failed step (an unverified one does not stop it).
 */
import * as path from 'node:path';
import type { TurnOutcome } from '../../protocol';
import { stepInstruction } from '../plans/actorBrief';
import type { Planning } from '../plans/planning';
import { stepVerdict, type CheckRun, type StepVerdict } from '../plans/stepVerdict';
import type { PlanStep, ReviewResult } from '../../protocol';
import { fileInScope } from '../plans/stepScope';
import { runOrder } from '../plans/graph/stepGraph';

/** Runs one Actor turn from a user-side message (shown or not), to completion. */
export type RunTurn = (message: string) => Promise<TurnOutcome>;
/** Runs a step's check command (approval, card, runner); see runStepCheck.ts. */
export type RunCheck = (command: string, stepNumber: number) => Promise<CheckRun>;

export interface StepRunners {
  runTurn: RunTurn;
  runCheck: RunCheck;
  /** The workspace root changed paths are shown relative to (and scopes are matched against). */
  root: string;
  aborted: () => boolean;
  /**
   * The Reviewer's look at a step that just ended (when the step-review setting asks for one):
   * undefined when it is not asked. A `replan` verdict stops the run before the next step.
   */
  reviewStep?: (step: PlanStep, verdict: StepVerdict) => Promise<ReviewResult | undefined>;
  /** New errors in the editor's problems of the files the current step changed (after its check ran). */
  newErrors?: () => Promise<string[]>;
}

export async function executePlanSteps(planning: Planning, brief: string, run: StepRunners): Promise<TurnOutcome> {
  const exec = planning.execution;
  if (!exec) throw new Error('executePlanSteps: no plan is being executed');
  // "Add to the plan" may publish a new version mid-run: each step is read from the version in force.
  const current = () => planning.execution?.record.plan ?? exec.record.plan;
  // One at a time in an order its depends_on allows (1..n when it names none); continuing, the steps
  // that ended well keep how they ended (whatever their number) and are not run again.
  const numbers = runOrder(exec.record.plan.steps).filter((n) => !exec.carried.has(n));
  const last = numbers[numbers.length - 1];
  let outcome: TurnOutcome = 'done';
  try {
    for (const n of numbers) {
      planning.setStep(n, 'running');
      const message = n === numbers[0] ? `${brief}\n\n${stepInstruction(current(), n)}` : stepInstruction(current(), n);
      outcome = await run.runTurn(message);
      const step = current().steps.find((s) => s.step_number === n)!;
      const failure = planning.execution?.failure;
      if (failure !== undefined) {
        const verdict: StepVerdict = { state: 'failed', evidence: { why: [failure] } };
        planning.setStep(n, 'failed', failure);
        if (!run.aborted()) await run.reviewStep?.(step, verdict);
        // A step stopped at its budget is a failure of that step, not the user's Stop.
        return outcome === 'done' || exec.overBudget ? 'error' : outcome;
      }
      if (outcome !== 'done') {
        const refused = outcome === 'waiting' ? planning.refusedAmendment : undefined;
        planning.setStep(n, outcome === 'stopped' ? 'stopped' : 'failed', refused ? `stopped on an amendment nobody could decide here: ${refused.text}` : FAIL_REASON[outcome]);
        return outcome;
      }
      const actions = [...(planning.execution?.actions ?? [])];
      const outsideScope = outside(step.files, [...(planning.execution?.changed ?? [])], run.root);
      const check = step.check?.trim() ? await run.runCheck(step.check.trim(), n) : undefined;
      if (run.aborted()) {
        planning.setStep(n, 'stopped', FAIL_REASON.stopped);
        return 'stopped';
      }
      // After the check: it gives the language services time to catch up with the step's last write.
      const newErrors = (await run.newErrors?.()) ?? [];
      const verdict = stepVerdict({ actions, outsideScope, newErrors, ...(check ? { check } : {}) });
      planning.setStep(n, verdict.state, undefined, verdict.evidence);
      const review = await run.reviewStep?.(step, verdict);
      if (verdict.state === 'failed') return 'error';
      if (run.aborted()) return 'stopped';
      if (review?.verdict?.verdict === 'replan' && n !== last) {
        // The Reviewer only ever stops a run; the user decides: Replan, or continue regardless.
        planning.book.setHalted(planning.execution?.record.cardId ?? exec.record.cardId, `Stopped after step ${n}: the Reviewer says replan (${review.verdict.reasons.join('; ')}).`);
        return 'done';
      }
    }
    return outcome;
  } finally {
    planning.endExecution();
  }
}

/** The changed paths (workspace-relative, forward slashes) that none of the step's files/globs covers. */
export function outside(files: readonly string[], changed: readonly string[], root: string): string[] {
  return changed
    .map((abs) => path.relative(root, abs).split(path.sep).join('/'))
    // A path outside the root is never in scope; a named folder covers what is under it.
    .filter((rel) => rel.startsWith('..') || path.isAbsolute(rel) || !fileInScope(files, rel))
    .sort();
}

export const FAIL_REASON: Record<Exclude<TurnOutcome, 'done'>, string> = {
  stopped: 'stopped by the user',
  error: 'the turn ended with an error',
  waiting: 'waiting for an answer to a question',
  limit: 'the tool-call limit was reached',
};
