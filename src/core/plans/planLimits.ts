/**
 * The size a plan may have, checked before anything walks it: at most MAX_PLAN_STEPS steps, and a
 * step's `depends_on` naming at most as many steps. A plan file or a model's `propose_plan` may be
 * any size; over these limits it is refused with one line naming the limit, in bounded work, instead
 * of being walked (10,000 chained steps, or one step listing 300,000 unknown steps, once ended in a
 * stack overflow). The schema keeps `depends_on` unbounded (its size goes into every plan request),
 * so the bound on it lives here.
 */
import { MAX_PLAN_STEPS } from '../../protocol';

export { MAX_PLAN_STEPS };

/** The most entries a step's `depends_on` may list: a step can need at most every other step. */
export const MAX_DEPENDS_ON = MAX_PLAN_STEPS;

const LIMIT_MARK = 'the most a plan may have';

/** One line per limit the plan (parsed JSON, any shape) goes over; empty when within them. */
export function planLimitProblems(data: unknown): string[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const steps = (data as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) return [];
  if (steps.length > MAX_PLAN_STEPS) return [`steps: the plan has ${steps.length} steps; ${MAX_PLAN_STEPS} is ${LIMIT_MARK} (split the work into several plans)`];
  const problems: string[] = [];
  steps.forEach((s, i) => {
    const deps = s && typeof s === 'object' ? (s as { depends_on?: unknown }).depends_on : undefined;
    if (Array.isArray(deps) && deps.length > MAX_DEPENDS_ON) {
      problems.push(`step ${i + 1}: depends_on lists ${deps.length} steps; ${MAX_DEPENDS_ON} is ${LIMIT_MARK} (a step can need only the plan's other steps)`);
    }
  });
  return problems;
}

/**
 * Whether a validation line says the plan file cannot be used as written — its graph (a cycle, an
 * unknown or self reference: every such line names `depends_on`) or its size — rather than that a
 * step is wrong: `tandem run --plan` exits 2 (bad usage) on those.
 */
export function isPlanUsageProblem(line: string): boolean {
  return line.includes('depends_on') || line.includes(LIMIT_MARK);
}
