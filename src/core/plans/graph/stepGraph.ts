/**
 * A plan's steps as a graph: each step's `depends_on`, with the omitted case made explicit (the
 * previous step, so a plan written before the graph keeps its order), the problems that make a
 * graph unusable (a step needing itself, an unknown step, a cycle), and an order to run the steps
 * one at a time that respects it. Pure: the validator, the scheduler and the plan card share it.
 */

/** The part of a step the graph reads (loose, so the validator can use it before zod has passed). */
export interface GraphStep {
  step_number: number;
  depends_on?: readonly number[];
}

/** Each step's needs, explicit: omitted → the previous step (none for the first); `[]` → none. */
export function dependenciesOf(steps: readonly GraphStep[]): Map<number, number[]> {
  const deps = new Map<number, number[]>();
  steps.forEach((s, i) => {
    const given = s.depends_on;
    deps.set(s.step_number, given ? [...new Set(given)] : i > 0 ? [steps[i - 1]!.step_number] : []);
  });
  return deps;
}

/** True when some step names `depends_on` (a plan without any runs one step after another, as always). */
export function declaresGraph(steps: readonly GraphStep[]): boolean {
  return steps.some((s) => s.depends_on !== undefined);
}

/**
 * Why the steps cannot form a graph, one line per problem naming its steps (these lines go back to
 * the model for a repair and to the user; `tandem run --plan` exits 2 on them). Every line holds
 * `depends_on`, which is how the CLI tells them from other problems.
 */
export function graphProblems(steps: readonly GraphStep[]): string[] {
  const known = new Set(steps.map((s) => s.step_number));
  const problems: string[] = [];
  for (const s of steps) {
    for (const d of s.depends_on ?? []) {
      if (d === s.step_number) problems.push(`step ${s.step_number}: depends_on names step ${d} itself`);
      else if (!known.has(d)) problems.push(`step ${s.step_number}: depends_on names step ${d}, which the plan does not have`);
    }
  }
  const cycle = findCycle(dependenciesOf(steps), known);
  if (cycle) problems.push(`steps ${[...new Set(cycle)].sort((a, b) => a - b).join(', ')}: depends_on forms a cycle (${cycle.join(' → ')}), so none of them could ever start`);
  return problems;
}

/**
 * One cycle (its steps in order, the first repeated at the end), ignoring self and unknown references.
 * A depth-first walk with a stack of its own, not recursion: a chain as long as the plan's steps
 * never runs out of call stack.
 */
function findCycle(deps: Map<number, number[]>, known: Set<number>): number[] | undefined {
  const state = new Map<number, 'open' | 'closed'>();
  for (const start of [...deps.keys()].sort((a, b) => a - b)) {
    if (state.has(start)) continue;
    // The open path, each step with the index of the next of its needs to look at.
    const path: { n: number; next: number }[] = [{ n: start, next: 0 }];
    state.set(start, 'open');
    while (path.length) {
      const top = path[path.length - 1]!;
      const needs = deps.get(top.n) ?? [];
      if (top.next >= needs.length) {
        state.set(top.n, 'closed');
        path.pop();
        continue;
      }
      const d = needs[top.next++]!;
      if (d === top.n || !known.has(d)) continue;
      if (state.get(d) === 'open') {
        const from = path.findIndex((p) => p.n === d);
        // The cycle is read in the direction work flows: a step, then the step that needs it.
        return [...path.slice(from).map((p) => p.n), d].reverse();
      }
      if (!state.has(d)) {
        state.set(d, 'open');
        path.push({ n: d, next: 0 });
      }
    }
  }
  return undefined;
}

/**
 * The order to run the steps one at a time: whenever several are ready, the lowest number first,
 * so a plan without `depends_on` runs 1, 2, … n exactly as before. Assumes a valid graph.
 */
export function runOrder(steps: readonly GraphStep[]): number[] {
  const deps = dependenciesOf(steps);
  const done = new Set<number>();
  const order: number[] = [];
  const numbers = steps.map((s) => s.step_number).sort((a, b) => a - b);
  while (order.length < numbers.length) {
    const next = numbers.find((n) => !done.has(n) && (deps.get(n) ?? []).every((d) => done.has(d) || !deps.has(d)));
    if (next === undefined) break;
    done.add(next);
    order.push(next);
  }
  return order;
}

/** Every step that needs `n`, directly or through others. */
export function dependentsOf(steps: readonly GraphStep[], n: number): Set<number> {
  const deps = dependenciesOf(steps);
  const out = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [s, ds] of deps) {
      if (!out.has(s) && ds.some((d) => d === n || out.has(d))) {
        out.add(s);
        grew = true;
      }
    }
  }
  return out;
}
