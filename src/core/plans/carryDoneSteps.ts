/**
 * A plan version that continues an earlier one's run (a resumed task given its widened plan file):
 * which of its steps are already done. A step counts as done when the version that last ran had
 * the step with the same number and the same action done — widening a step's files or commands
 * does not undo the work — and every step before it is done too (steps run in order, so the run
 * continues at the first step that is not). Such a step is never run again: a step that appends a
 * line would append it twice.
 */
import type { StepEvidence } from '../../protocol';
import type { PlanRecord } from './planRecord';

export interface DoneSteps {
  /** The version whose done steps are kept. */
  from: PlanRecord;
  /** Step numbers (as keys) with the evidence they ended with. */
  evidence: Record<string, StepEvidence>;
  /** The first step of the new version that is not done; undefined when all are. */
  next: number | undefined;
}

/** The latest valid version other than `except` that ever ran a step (its steps are not all pending). */
export function lastRunVersion(records: readonly PlanRecord[], except?: PlanRecord): PlanRecord | undefined {
  return [...records].reverse().find((r) => r !== except && r.plan && Object.values(r.stepStates).some((s) => s !== 'pending'));
}

/** The leading steps of `next` that `previous` ran to done, and where `next` goes on from. */
export function carryDoneSteps(previous: PlanRecord, next: PlanRecord): DoneSteps {
  const evidence: Record<string, StepEvidence> = {};
  const steps = next.plan?.steps ?? [];
  for (const step of steps) {
    const key = String(step.step_number);
    const before = previous.plan?.steps.find((s) => s.step_number === step.step_number);
    if (!before || before.action.trim() !== step.action.trim() || previous.stepStates[key] !== 'done') {
      return { from: previous, evidence, next: step.step_number };
    }
    evidence[key] = previous.stepEvidence[key] ?? { why: [] };
  }
  return { from: previous, evidence, next: undefined };
}
