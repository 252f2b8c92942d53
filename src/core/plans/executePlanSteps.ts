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
import type { TurnOutcome } from '../agent/agentApi';
import { globMatcher } from '../tools/glob';
import { stepInstruction } from './actorBrief';
import type { Planning } from './planning';
import { stepVerdict, type CheckRun, type StepVerdict } from './stepVerdict';
import type { PlanStep, ReviewResult } from '../../protocol';

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
}

export async function executePlanSteps(planning: Planning, brief: string, run: StepRunners): Promise<TurnOutcome> {
  const exec = planning.execution;
  if (!exec) throw new Error('executePlanSteps: no plan is being executed');
  const plan = exec.record.plan;
  let outcome: TurnOutcome = 'done';
  try {
    const steps = plan.steps.filter((s) => s.step_number >= exec.from);
    for (const step of steps) {
      const n = step.step_number;
      planning.setStep(n, 'running');
      const message = n === steps[0]!.step_number ? `${brief}\n\n${stepInstruction(plan, n)}` : stepInstruction(plan, n);
      outcome = await run.runTurn(message);
      const failure = planning.execution?.failure;
      if (failure !== undefined) {
        const verdict: StepVerdict = { state: 'failed', evidence: { why: [failure] } };
        planning.setStep(n, 'failed', failure);
        if (!run.aborted()) await run.reviewStep?.(step, verdict);
        // A step stopped at its budget is a failure of that step, not the user's Stop.
        return outcome === 'done' || exec.overBudget ? 'error' : outcome;
      }
      if (outcome !== 'done') {
        planning.setStep(n, 'failed', FAIL_REASON[outcome]);
        return outcome;
      }
      const actions = [...exec.actions];
      const outsideScope = step.files.length ? outside(step.files, [...exec.changed], run.root) : [];
      const check = step.check?.trim() ? await run.runCheck(step.check.trim(), n) : undefined;
      if (run.aborted()) {
        planning.setStep(n, 'failed', FAIL_REASON.stopped);
        return 'stopped';
      }
      const verdict = stepVerdict({ actions, outsideScope, ...(check ? { check } : {}) });
      planning.setStep(n, verdict.state, undefined, verdict.evidence);
      const review = await run.reviewStep?.(step, verdict);
      if (verdict.state === 'failed') return 'error';
      if (run.aborted()) return 'stopped';
      if (review?.verdict?.verdict === 'replan' && n !== steps[steps.length - 1]!.step_number) {
        // The Reviewer only ever stops a run; the user decides: Replan, or continue regardless.
        planning.book.setHalted(exec.record.cardId, `Stopped after step ${n}: the Reviewer says replan (${review.verdict.reasons.join('; ')}).`);
        return 'done';
      }
    }
    return outcome;
  } finally {
    planning.endExecution();
  }
}

/** The changed paths (workspace-relative, forward slashes) that none of the step's files/globs covers. */
function outside(files: readonly string[], changed: readonly string[], root: string): string[] {
  const matchers = files.map((f) => globMatcher(f.trim().replace(/\/+$/, '')));
  const dirs = files.map((f) => f.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, ''));
  return changed
    .map((abs) => path.relative(root, abs).split(path.sep).join('/'))
    // A path outside the root is never in scope; a named folder covers what is under it.
    .filter((rel) => rel.startsWith('..') || path.isAbsolute(rel) || !(matchers.some((m) => m(rel)) || dirs.some((d) => d && rel.startsWith(`${d}/`))))
    .sort();
}

const FAIL_REASON: Record<Exclude<TurnOutcome, 'done'>, string> = {
  stopped: 'stopped by the user',
  error: 'the turn ended with an error',
  waiting: 'waiting for an answer to a question',
  limit: 'the tool-call limit was reached',
};
