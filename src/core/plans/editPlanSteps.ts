/**
 * "Implement with changes": the plan as the user edited it on the card — a step's action, files,
 * commands or check — without asking the Planner. Only the fields the card edits change; every
 * other field of the step (reason, tools, time, and fields added later) is kept as it was. The
 * result is validated as any plan before it becomes a version.
 */
import type { Plan, PlanStep } from '../../protocol';

export interface StepEdit {
  step_number: number;
  action: string;
  files: readonly string[];
  commands: readonly string[];
  /** null: the step has no check. */
  check: string | null;
}

/** Blank lines the card's list boxes leave are not entries; the rest is kept as typed (trimmed). */
function entries(list: readonly string[]): string[] {
  return list.map((e) => e.trim()).filter((e) => e !== '');
}

/** The plan with `edits` applied, or an error when an edit names a step the plan does not have or leaves a step without text. */
export function editPlanSteps(plan: Plan, edits: readonly StepEdit[]): { plan: Plan } | { error: string } {
  const byNumber = new Map(edits.map((e) => [e.step_number, e]));
  for (const [n, e] of byNumber) {
    if (!plan.steps.some((s) => s.step_number === n)) return { error: `step ${n}: there is no such step in this plan` };
    // Said in the card's words: the schema's own message ("action: Too small…") is for the Planner's repairs.
    if (!e.action.trim()) return { error: `step ${n}: its text is empty; say what the step does` };
  }
  const steps = plan.steps.map((s): PlanStep => {
    const e = byNumber.get(s.step_number);
    if (!e) return s;
    const { check: _check, commands: _commands, ...rest } = s;
    const commands = entries(e.commands);
    const check = e.check?.trim();
    return {
      ...rest,
      action: e.action.trim(),
      files: entries(e.files),
      // A plan written before scopes has no `commands`: an empty list stays absent.
      ...(commands.length || s.commands ? { commands } : {}),
      ...(check ? { check } : {}),
    };
  });
  return { plan: { ...plan, steps } };
}
