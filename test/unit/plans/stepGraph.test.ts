import assert from 'node:assert/strict';
import { dependenciesOf, graphProblems, runOrder } from '../../../src/core/plans/graph/stepGraph';
import { mayRunBeside, parallelPairs, readySteps, stepsToStart, type SchedulerStep } from '../../../src/core/plans/graph/stepScheduler';
import { filesOverlap } from '../../../src/core/plans/graph/scopeOverlap';
import { validatePlan } from '../../../src/core/plans/validatePlan';
import { planVersionDiff } from '../../../src/core/plans/planVersionDiff';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';
import type { Plan, StepState } from '../../../src/protocol';

const STEP_TOOLS = productToolRegistry().stepTools(PRODUCT_ROLES);

const step = (n: number, files: string[], depends_on?: number[]): SchedulerStep => ({ step_number: n, files, ...(depends_on ? { depends_on } : {}) });

function plan(steps: SchedulerStep[]): Plan {
  return {
    format_version: '1.0',
    goal: 'g',
    steps: steps.map((s) => ({ ...s, files: [...s.files], depends_on: s.depends_on ? [...s.depends_on] : undefined, action: `do ${s.step_number}`, reason: '', tools_needed: [], estimated_time: '1m' })),
    estimated_total_time: '1m',
    risks: [],
    prerequisites: [],
  };
}

describe('plan graph: depends_on', () => {
  it('an omitted depends_on means the previous step; [] means ready at once', () => {
    const deps = dependenciesOf([step(1, []), step(2, []), step(3, [], []), step(4, [], [2, 3])]);
    assert.deepEqual([...deps], [[1, []], [2, [1]], [3, []], [4, [2, 3]]]);
  });

  it('names the steps of a self reference, an unknown step and a cycle', () => {
    assert.deepEqual(graphProblems([step(1, [], [1]), step(2, [], [7])]), [
      'step 1: depends_on names step 1 itself',
      'step 2: depends_on names step 7, which the plan does not have',
    ]);
    // Step 1 needs 3; 2 (omitted) needs 1; 3 needs 2: 1 → 2 → 3 → 1.
    const cycle = graphProblems([step(1, [], [3]), step(2, []), step(3, [], [2])]);
    assert.equal(cycle.length, 1);
    assert.match(cycle[0]!, /^steps 1, 2, 3: depends_on forms a cycle \(/);
    assert.deepEqual(graphProblems([step(1, []), step(2, [], []), step(3, [], [1, 2])]), []);
  });

  it('validatePlan refuses a plan whose graph cannot run, each line naming its steps', async () => {
    const v = await validatePlan(plan([step(1, ['a.ts'], [2]), step(2, ['b.ts'], [1]), step(3, ['c.ts'], [3])]), { stepTools: STEP_TOOLS });
    assert.equal(v.ok, false);
    assert.ok(v.errors.includes('step 3: depends_on names step 3 itself'), v.errors.join('\n'));
    assert.ok(v.errors.some((e) => e.startsWith('steps 1, 2: depends_on forms a cycle')), v.errors.join('\n'));
    const ok = await validatePlan(plan([step(1, ['a.ts'], []), step(2, ['b.ts'], []), step(3, ['c.ts'], [1, 2])]), { stepTools: STEP_TOOLS });
    assert.equal(ok.ok, true, ok.errors.join('\n'));
    assert.deepEqual(ok.plan?.steps[2]?.depends_on, [1, 2]);
  });

  it('runs one at a time in plan order when nothing says otherwise, and respects forward needs', () => {
    assert.deepEqual(runOrder([step(1, []), step(2, []), step(3, [])]), [1, 2, 3]);
    assert.deepEqual(runOrder([step(1, [], [2]), step(2, [], []), step(3, [], [])]), [2, 1, 3]);
  });

  it('a plan version diff shows a dependency change, and not an omitted one written out', () => {
    const before = plan([step(1, ['a']), step(2, ['b'])]);
    const same = plan([step(1, ['a']), step(2, ['b'], [1])]);
    assert.deepEqual(planVersionDiff(before, same, 1).edited, []);
    const parallel = plan([step(1, ['a']), step(2, ['b'], [])]);
    assert.deepEqual(planVersionDiff(before, parallel, 1).edited, [{ step: 2, from_step: 2, changes: [{ field: 'depends_on', before: '1', after: 'none (ready at once)' }] }]);
  });
});

describe('plan graph: scheduler', () => {
  const diamond = [step(1, ['src/base.ts']), step(2, ['src/a.ts'], [1]), step(3, ['src/b.ts'], [1]), step(4, ['src/all.ts'], [2, 3])];
  const states = (o: Record<number, StepState>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v]));

  it('ready sets: a step starts once every step it needs ended done or unverified', () => {
    assert.deepEqual(readySteps(diamond, {}), [1]);
    assert.deepEqual(readySteps(diamond, states({ 1: 'done' })), [2, 3]);
    assert.deepEqual(readySteps(diamond, states({ 1: 'done', 2: 'done', 3: 'running' })), []);
    assert.deepEqual(readySteps(diamond, states({ 1: 'done', 2: 'unverified', 3: 'done' })), [4]);
  });

  it('starts up to the limit, lowest numbers first', () => {
    const wide = [step(1, ['a'], []), step(2, ['b'], []), step(3, ['c'], [])];
    assert.deepEqual(stepsToStart({ steps: wide, states: {}, limit: 2 }), [1, 2]);
    assert.deepEqual(stepsToStart({ steps: wide, states: states({ 1: 'running', 2: 'running' }), limit: 2 }), []);
    assert.deepEqual(stepsToStart({ steps: wide, states: states({ 1: 'done', 2: 'running' }), limit: 2 }), [3]);
    assert.deepEqual(stepsToStart({ steps: wide, states: {}, limit: 1 }), [1]);
    assert.deepEqual(stepsToStart({ steps: wide, states: {}, limit: 8 }), [1, 2, 3]);
  });

  it('two ready steps whose declared files overlap never run together', () => {
    const overlapping = [step(1, ['src/'], []), step(2, ['src/x.ts'], []), step(3, ['docs/a.md'], [])];
    assert.deepEqual(stepsToStart({ steps: overlapping, states: {}, limit: 3 }), [1, 3]);
    assert.deepEqual(stepsToStart({ steps: overlapping, states: states({ 1: 'running', 3: 'done' }), limit: 3 }), []);
    assert.deepEqual(stepsToStart({ steps: overlapping, states: states({ 1: 'done', 3: 'done' }), limit: 3 }), [2]);
  });

  it('a failed step stops new steps from starting', () => {
    const wide = [step(1, ['a'], []), step(2, ['b'], []), step(3, ['c'], [])];
    assert.deepEqual(stepsToStart({ steps: wide, states: states({ 1: 'failed', 2: 'running' }), limit: 3 }), []);
    assert.deepEqual(stepsToStart({ steps: wide, states: states({ 1: 'failed', 2: 'done' }), limit: 3 }), []);
    assert.deepEqual(stepsToStart({ steps: wide, states: states({ 1: 'done', 2: 'done' }), limit: 3 }), [3]);
  });

  it('overlap of declared files: paths, folders and globs', () => {
    assert.equal(filesOverlap(['src/a.ts'], ['src/b.ts']), false);
    assert.equal(filesOverlap(['src/a.ts'], ['./src/a.ts']), true);
    assert.equal(filesOverlap(['src'], ['src/a.ts']), true);
    assert.equal(filesOverlap(['src/**/*.ts'], ['src/deep/a.ts']), true);
    assert.equal(filesOverlap(['src/**/*.ts'], ['docs/a.md']), false);
    assert.equal(filesOverlap(['src/**'], ['src/x/**']), true);
    assert.equal(filesOverlap(['*.md'], ['docs/a.md']), true);
    assert.equal(filesOverlap([], ['docs/a.md']), false);
  });

  it('which steps could ever run together (the plan card), and a chain has none', () => {
    assert.deepEqual(parallelPairs(diamond), [[2, 3]]);
    assert.deepEqual(parallelPairs([step(1, ['a']), step(2, ['b']), step(3, ['c'])]), []);
    assert.deepEqual(parallelPairs([step(1, ['a'], []), step(2, ['a'], [])]), []);
  });

  it('a step that nothing else can run beside runs alone (in the workspace)', () => {
    assert.equal(mayRunBeside(diamond, {}, 1, new Set([2, 3, 4])), false);
    assert.equal(mayRunBeside(diamond, states({ 1: 'done' }), 2, new Set([4])), true);
    assert.equal(mayRunBeside(diamond, states({ 1: 'done', 2: 'done', 3: 'done' }), 4, new Set()), false);
  });
});
