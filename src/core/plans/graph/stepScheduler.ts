/**
 * Which steps of a plan start now. Pure (the runner asks it each time a step ends):
 * - a step is ready when it is pending and every step it needs ended done or unverified (an
 *   unverified step never stopped a run, and does not here either);
 * - once any step failed (or was stopped), nothing new starts (the running ones finish or are stopped; the runner decides);
 * - at most `limit` steps run at once (`tandem.parallelSteps`, CLI `--parallel N`);
 * - two steps whose declared files overlap never run together (scopeOverlap.ts);
 * - among the ready steps, the lowest numbers go first, so `limit` 1 runs the plan in runOrder().
 */
import type { StepState } from '../../../protocol';
import { dependenciesOf, type GraphStep } from './stepGraph';
import { filesOverlap } from './scopeOverlap';

export interface SchedulerStep extends GraphStep {
  files: readonly string[];
}

export interface ScheduleInput {
  steps: readonly SchedulerStep[];
  /** Per step number (as a string, as plan records keep them); absent = pending. */
  states: Readonly<Record<string, StepState | undefined>>;
  /** How many steps may run at once (at least 1). */
  limit: number;
}

const ENDED_OK: ReadonlySet<StepState | undefined> = new Set(['done', 'unverified']);

/** The pending steps whose needs are all met, lowest number first (whatever is running). */
export function readySteps(steps: readonly GraphStep[], states: ScheduleInput['states']): number[] {
  const deps = dependenciesOf(steps);
  return steps
    .map((s) => s.step_number)
    .filter((n) => (states[String(n)] ?? 'pending') === 'pending')
    .filter((n) => (deps.get(n) ?? []).every((d) => ENDED_OK.has(states[String(d)])))
    .sort((a, b) => a - b);
}

/** The steps to start now, given what runs (state `running`). */
export function stepsToStart(input: ScheduleInput): number[] {
  const { steps, states } = input;
  if (Object.values(states).some((s) => s === 'failed' || s === 'stopped')) return [];
  const byNumber = new Map(steps.map((s) => [s.step_number, s]));
  const running = steps.filter((s) => states[String(s.step_number)] === 'running');
  const room = Math.max(1, Math.floor(input.limit)) - running.length;
  const chosen: SchedulerStep[] = [];
  for (const n of readySteps(steps, states)) {
    if (chosen.length >= room) break;
    const step = byNumber.get(n)!;
    if ([...running, ...chosen].some((r) => filesOverlap(r.files, step.files))) continue;
    chosen.push(step);
  }
  return chosen.map((s) => s.step_number);
}

/**
 * Steps that could ever run side by side: no path between them in the graph and files that do not
 * overlap. Empty for a chain (every plan written before `depends_on`), which then runs exactly as
 * before, one step after another in the workspace. The plan card shows these pairs.
 */
export function parallelPairs(steps: readonly SchedulerStep[]): [number, number][] {
  const deps = dependenciesOf(steps);
  const ancestors = new Map<number, Set<number>>();
  // Every step a step needs, directly or through others: a walk with a list of its own, not recursion.
  const ancestorsOf = (n: number): Set<number> => {
    const known = ancestors.get(n);
    if (known) return known;
    const out = new Set<number>();
    const todo = [...(deps.get(n) ?? [])];
    while (todo.length) {
      const d = todo.pop()!;
      if (d === n || out.has(d) || !deps.has(d)) continue;
      out.add(d);
      for (const x of deps.get(d) ?? []) todo.push(x);
    }
    ancestors.set(n, out);
    return out;
  };
  const pairs: [number, number][] = [];
  for (let i = 0; i < steps.length; i++) {
    for (let j = i + 1; j < steps.length; j++) {
      const a = steps[i]!;
      const b = steps[j]!;
      if (ancestorsOf(a.step_number).has(b.step_number) || ancestorsOf(b.step_number).has(a.step_number)) continue;
      if (filesOverlap(a.files, b.files)) continue;
      pairs.push([a.step_number, b.step_number]);
    }
  }
  return pairs;
}

/**
 * Whether step `n`, started now, could have another step beside it before it ends: some step other
 * than it and the ones that need it has not ended yet. When none can, it runs alone in the
 * workspace (no worktree to make or apply back).
 */
export function mayRunBeside(steps: readonly SchedulerStep[], states: ScheduleInput['states'], n: number, dependents: ReadonlySet<number>): boolean {
  return steps.some((s) => {
    const m = s.step_number;
    if (m === n || dependents.has(m)) return false;
    // A step whose files overlap this one's never starts beside it.
    if (filesOverlap(s.files, steps.find((x) => x.step_number === n)?.files ?? [])) return false;
    const st = states[String(m)] ?? 'pending';
    return st === 'pending' || st === 'running';
  });
}
