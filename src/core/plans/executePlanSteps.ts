/**
 * Drives a plan's execution one step per sub-turn. Why the loop and not the model: step events
 * must be reliable, and a model asked to "report progress" forgets, reports twice, or reports a
 * step it skipped. Here the loop starts each step (step_started), sends only that step, and the
 * step ends when the sub-turn ends: done when the model finishes normally, failed when it calls
 * `fail_step` or the turn ends in error, stop or limit. The first sub-turn carries the whole plan
 * as the brief so the Actor has the context; execution stops at the first failed step.
 */
import type { TurnOutcome } from '../agent/agentApi';
import { stepInstruction } from './actorBrief';
import type { Planning } from './planning';

/** Runs one Actor turn from a user-side message (shown or not), to completion. */
export type RunTurn = (message: string) => Promise<TurnOutcome>;

export async function executePlanSteps(planning: Planning, brief: string, runTurn: RunTurn): Promise<TurnOutcome> {
  const exec = planning.execution;
  if (!exec) throw new Error('executePlanSteps: no plan is being executed');
  const plan = exec.record.plan;
  let outcome: TurnOutcome = 'done';
  try {
    for (const step of plan.steps) {
      const n = step.step_number;
      planning.setStep(n, 'running');
      const message = n === plan.steps[0].step_number ? `${brief}\n\n${stepInstruction(plan, n)}` : stepInstruction(plan, n);
      outcome = await runTurn(message);
      const failure = planning.execution?.failure;
      if (failure !== undefined) {
        planning.setStep(n, 'failed', failure);
        return outcome === 'done' ? 'error' : outcome;
      }
      if (outcome !== 'done') {
        planning.setStep(n, 'failed', FAIL_REASON[outcome]);
        return outcome;
      }
      planning.setStep(n, 'done');
    }
    return outcome;
  } finally {
    planning.endExecution();
  }
}

const FAIL_REASON: Record<Exclude<TurnOutcome, 'done'>, string> = {
  stopped: 'stopped by the user',
  error: 'the turn ended with an error',
  waiting: 'waiting for an answer to a question',
  limit: 'the tool-call limit was reached',
};
