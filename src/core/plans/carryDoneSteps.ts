/**
 * A plan version that continues an earlier one's run (a resumed task given its widened plan file):
 * which of its steps are already done. A step counts as done when the version that last ran had
 * the step with the same number and the same action done — widening a step's files or commands
 * does not undo the work — and every step it needs (its `depends_on`, in the new version) counts as
 * done too: in a chain that is every step before it, as always; in a branching plan a done step
 * numbered after an unfinished one (it ran beside it) is kept. Such a step is never run again: a
 * step that appends a line would append it twice.
 */
import type { StepEvidence } from '../../protocol';
import type { PlanRecord } from './planRecord';
import { dependenciesOf, runOrder } from './graph/stepGraph';

export interface DoneSteps {
  /** The version whose done steps are kept. */
  from: PlanRecord;
  /** Step numbers (as keys) with the evidence they ended with. */
  evidence: Record<string, StepEvidence>;
  /** The lowest-numbered step of the new version that is not done; undefined when all are. */
  next: number | undefined;
}

/** The latest valid version other than `except` that ever ran a step (its steps are not all pending). */
export function lastRunVersion(records: readonly PlanRecord[], except?: PlanRecord): PlanRecord | undefined {
  return [...records].reverse().find((r) => r !== except && r.plan && Object.values(r.stepStates).some((s) => s !== 'pending'));
}

/** The steps of `next` that `previous` ran to done (and whose needs are done), and the first one that is not. */
export function carryDoneSteps(previous: PlanRecord, next: PlanRecord): DoneSteps {
  const evidence: Record<string, StepEvidence> = {};
  const steps = next.plan?.steps ?? [];
  const deps = dependenciesOf(steps);
  // In an order where a step's needs come first, so each is decided before the steps that need it.
  for (const n of runOrder(steps)) {
    const step = steps.find((s) => s.step_number === n)!;
    const key = String(n);
    const before = previous.plan?.steps.find((s) => s.step_number === n);
    if (!before || before.action.trim() !== step.action.trim() || previous.stepStates[key] !== 'done') continue;
    if (!(deps.get(n) ?? []).every((d) => evidence[String(d)] !== undefined)) continue;
    evidence[key] = previous.stepEvidence[key] ?? { why: [] };
  }
  const first = steps.map((s) => s.step_number).sort((a, b) => a - b).find((n) => evidence[String(n)] === undefined);
  return { from: previous, evidence, next: first };
}
