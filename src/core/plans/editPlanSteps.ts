/**
 * "Implement with changes": the plan as the user edited it on the card — a step's action, files,
 * commands, check or the steps it needs; steps added and removed — without asking the Planner. Only
 * the fields the card edits change; every other field of a step (reason, tools, time, and fields
 * added later) is kept as it was. Every step number the user gives is the card's (the version they
 * edit); the result is renumbered and validated as any plan before it becomes a version, so a cycle
 * or an unknown step is refused with the steps it names.
 */
import type { Plan, PlanStep } from '../../protocol';

export interface StepFields {
  action: string;
  files: readonly string[];
  commands: readonly string[];
  /** null: the step has no check. */
  check: string | null;
  /**
   * The steps it needs first, by the card's numbers: undefined keeps what it had; null is the
   * default (the step before it); a list is exactly those ([]: none).
   */
  depends_on?: readonly number[] | null;
}

export interface StepEdit extends StepFields {
  step_number: number;
}

/** A step the user adds after step `after` of the card (0: first). */
export interface StepInsert extends StepFields {
  after: number;
}

/** What the card changes besides the steps' fields. */
export interface PlanShapeEdit {
  remove?: readonly number[];
  insert?: readonly StepInsert[];
}

/** Blank lines the card's list boxes leave are not entries; the rest is kept as typed (trimmed). */
function entries(list: readonly string[]): string[] {
  return list.map((e) => e.trim()).filter((e) => e !== '');
}

/** The step's fields as edited, on top of `base` (an existing step, or a new one's defaults). */
function withFields(base: PlanStep, e: StepFields): PlanStep {
  const { check: _check, commands: _commands, depends_on: _deps, ...rest } = base as PlanStep & { depends_on?: number[] };
  const commands = entries(e.commands);
  const check = e.check?.trim();
  const deps = e.depends_on === undefined ? (base as { depends_on?: number[] }).depends_on : e.depends_on ?? undefined;
  return {
    ...rest,
    action: e.action.trim(),
    files: entries(e.files),
    // A plan written before scopes has no `commands`: an empty list stays absent.
    ...(commands.length || base.commands ? { commands } : {}),
    ...(check ? { check } : {}),
    ...(deps ? { depends_on: [...deps] } : {}),
  } as PlanStep;
}

/**
 * The plan with `edits` applied, or an error in the card's words: an edit naming a step the plan
 * does not have, a step left without text, every step removed.
 */
export function editPlanSteps(plan: Plan, edits: readonly StepEdit[], shape: PlanShapeEdit = {}): { plan: Plan } | { error: string } {
  const numbers = new Set(plan.steps.map((s) => s.step_number));
  const byNumber = new Map(edits.map((e) => [e.step_number, e]));
  const removed = new Set(shape.remove ?? []);
  for (const [n, e] of byNumber) {
    if (!numbers.has(n)) return { error: `step ${n}: there is no such step in this plan` };
    // Said in the card's words: the schema's own message ("action: Too small…") is for the Planner's repairs.
    if (!e.action.trim()) return { error: `step ${n}: its text is empty; say what the step does` };
  }
  for (const n of removed) if (!numbers.has(n)) return { error: `step ${n}: there is no such step to remove` };
  for (const a of shape.insert ?? []) {
    if (a.after !== 0 && !numbers.has(a.after)) return { error: `a new step after step ${a.after}: there is no step ${a.after}` };
    if (!a.action.trim()) return { error: 'the new step\'s text is empty; say what the step does' };
  }
  const kept = plan.steps.filter((s) => !removed.has(s.step_number));
  if (kept.length + (shape.insert?.length ?? 0) === 0) return { error: 'a plan needs at least one step: Revise it instead' };

  // The order the user sees: each kept step, with the steps added after it.
  type Row = { old?: number; step: PlanStep };
  const rows: Row[] = [];
  const addAfter = (n: number) => {
    for (const a of shape.insert ?? []) {
      if (a.after === n) rows.push({ step: withFields({ step_number: 0, action: '', reason: 'added by the user', files: [], tools_needed: [], estimated_time: '' }, a) });
    }
  };
  addAfter(0);
  for (const s of plan.steps) {
    if (!removed.has(s.step_number)) {
      const e = byNumber.get(s.step_number);
      rows.push({ old: s.step_number, step: e ? withFields(s, e) : s });
    }
    addAfter(s.step_number);
  }

  // A removed step's place in the graph goes to what it needed, so the steps after it keep their order.
  const oldDeps = (n: number): number[] => {
    const s = plan.steps.find((x) => x.step_number === n) as (PlanStep & { depends_on?: number[] }) | undefined;
    if (!s) return [];
    if (s.depends_on) return s.depends_on;
    const at = plan.steps.indexOf(s);
    return at > 0 ? [plan.steps[at - 1]!.step_number] : [];
  };
  const through = (deps: readonly number[]): number[] => {
    const out = new Set<number>();
    const seen = new Set<number>();
    const todo = [...deps];
    while (todo.length) {
      const d = todo.pop()!;
      if (seen.has(d)) continue;
      seen.add(d);
      if (removed.has(d)) todo.push(...oldDeps(d));
      else out.add(d);
    }
    return [...out];
  };
  const renumber = new Map<number, number>();
  rows.forEach((r, i) => { if (r.old !== undefined) renumber.set(r.old, i + 1); });
  const steps = rows.map((r, i): PlanStep => {
    const s = r.step as PlanStep & { depends_on?: number[] };
    const { depends_on: deps, ...rest } = s;
    // An implicit "the step before" that was a removed step keeps pointing where that step pointed.
    const wasImplicit = deps === undefined && r.old !== undefined && removed.size > 0;
    const prevOld = wasImplicit ? oldDeps(r.old!) : [];
    const explicit = deps ?? (wasImplicit && prevOld.some((d) => removed.has(d)) ? prevOld : undefined);
    const mapped = explicit?.map((d) => (removed.has(d) ? through([d]) : [d])).flat()
      // A number the plan does not have stays as typed: validation names it.
      .map((d) => renumber.get(d) ?? d);
    return { ...rest, step_number: i + 1, ...(mapped ? { depends_on: [...new Set(mapped)].sort((a, b) => a - b) } : {}) } as PlanStep;
  });
  return { plan: { ...plan, steps } };
}
