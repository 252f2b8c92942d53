/**
 * "Implement with changes": the user edits a step's text, files, commands or check on the plan
 * card before Execute. The edit becomes the next plan version (with what changed) without a
 * request to the Planner, validated as any plan; an invalid edit publishes nothing and says why.
 */
import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { FAKE_WORKSPACE_TOOLS } from '../../support/fakeTools';
import type { ScriptStep } from '../../support/scriptedServer';
import { editPlanSteps } from '../../../src/core/plans/editPlanSteps';
import { checkedPlan, goodPlan } from './planFixtures';

const propose = (plan: unknown): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan as Record<string, unknown> }] });

describe('plans: the user\'s own edit before Execute (Implement with changes)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('becomes plan v2 with its changes, no request to the Planner; the other fields of the step are kept', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(checkedPlan())] });
    assert.equal(await h.agent.send('add a --verbose flag'), 'done');
    const v1 = h.cardsOf('plan')[0]!;
    const requests = h.server.chatRequests().length;
    const outcome = await h.agent.act({
      type: 'edit_plan', card_id: v1.id,
      steps: [{ step_number: 2, action: 'Run npm test and the linter', files: ['src/args.ts', ''], commands: ['npm test', 'npm run lint'], check: 'npm run lint' }],
    });
    assert.equal(outcome, 'done');
    assert.equal(h.server.chatRequests().length, requests, 'the Planner was not asked');
    const cards = h.cardsOf('plan');
    assert.equal(cards.length, 2);
    const v2 = cards[1]!;
    assert.equal(v2.version, 2);
    assert.equal(cards[0]!.superseded, true, 'v1 is superseded');
    const step2 = v2.plan!.steps[1]!;
    assert.equal(step2.action, 'Run npm test and the linter');
    assert.deepEqual(step2.files, ['src/args.ts'], 'blank entries dropped');
    assert.deepEqual(step2.commands, ['npm test', 'npm run lint']);
    assert.equal(step2.check, 'npm run lint');
    assert.deepEqual(step2.tools_needed, ['run_command'], 'fields the card does not edit are kept');
    assert.equal(step2.reason, 'check nothing broke');
    assert.deepEqual(v2.plan!.steps[0], checkedPlan().steps[0], 'the other step is unchanged');
    const fields = v2.changes!.edited.flatMap((e) => e.changes.map((c) => `${e.step}:${c.field}`));
    assert.deepEqual(fields.sort(), ['2:action', '2:check', '2:commands', '2:files']);
    assert.match(v2.amended ?? '', /Edited by you from v1/);
    assert.equal(h.agent.planning.book.get(v2.id)!.provenance.path, 'user_edit');
  });

  it('an edit that breaks the plan\'s rules publishes nothing and says why, next to the card', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(goodPlan())] });
    await h.agent.send('add a --verbose flag');
    const v1 = h.cardsOf('plan')[0]!;
    const outcome = await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 1, action: 'Edit a file outside', files: ['../outside.txt'], commands: [], check: null }] });
    assert.equal(outcome, 'error');
    assert.equal(h.cardsOf('plan').length, 1, 'no new version');
    const err = h.cardsOf('error').at(-1)!;
    assert.match(err.message, /not applied: step 1/);
    assert.deepEqual(err.refused, { action: 'edit_plan', target: v1.id });
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 1, action: ' ', files: [], commands: [], check: null }] }), 'error', 'an empty action is refused as for any plan');
    assert.match(h.cardsOf('error').at(-1)!.message, /not applied: step 1: its text is empty/, 'in the card\'s words, not the schema\'s');
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 9, action: 'x', files: [], commands: [], check: null }] }), 'error');
    assert.match(h.cardsOf('error').at(-1)!.message, /step 9: there is no such step/);
  });

  it('a plan that has run is not edited (Revise it instead); nor is a superseded version', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(goodPlan())] });
    await h.agent.send('add a --verbose flag');
    const v1 = h.cardsOf('plan')[0]!;
    const same = goodPlan().steps[0];
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 1, action: same.action, files: same.files, commands: [], check: null }] }), 'error');
    assert.match(h.cardsOf('error').at(-1)!.message, /nothing was changed/);
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 1, action: 'Parse --verbose in src/args.ts', files: ['src/args.ts'], commands: [], check: null }] }), 'done');
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 1, action: 'again', files: [], commands: [], check: null }] }), 'error');
    assert.match(h.cardsOf('error').at(-1)!.message, /superseded/);
  });

  it('a step\'s depends_on (the plan\'s graph) is kept through an edit of that step and of the others', async () => {
    const plan = goodPlan();
    plan.steps = [plan.steps[0]!, { ...plan.steps[0]!, step_number: 2, action: 'Document --verbose', files: ['README.md'], depends_on: [] }, { ...plan.steps[0]!, step_number: 3, action: 'Test --verbose', files: ['test/args.test.ts'], depends_on: [1, 2] }];
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(plan)] });
    await h.agent.send('add a --verbose flag');
    const v1 = h.cardsOf('plan')[0]!;
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 3, action: 'Test --verbose and --quiet', files: ['test/args.test.ts'], commands: [], check: null }] }), 'done');
    const v2 = h.cardsOf('plan')[1]!;
    assert.deepEqual(v2.plan!.steps.map((s) => s.depends_on), [undefined, [], [1, 2]]);
    assert.deepEqual(v2.changes!.edited.flatMap((e) => e.changes.map((c) => `${e.step}:${c.field}`)), ['3:action'], 'only what the user changed');
  });

  it('editPlanSteps: a removed check is gone; a plan without commands keeps none when none are given', () => {
    const p = checkedPlan();
    const r = editPlanSteps(p, [{ step_number: 1, action: 'x', files: [], commands: [], check: null }]);
    assert.ok('plan' in r);
    assert.equal(r.plan.steps[0]!.check, undefined);
    const g = editPlanSteps(goodPlan(), [{ step_number: 1, action: 'x', files: [], commands: [' '], check: ' ' }]);
    assert.ok('plan' in g);
    assert.equal('commands' in g.plan.steps[0]!, false);
    assert.equal('check' in g.plan.steps[0]!, false);
  });

  it('steps removed and added: the rest renumbered, the graph kept in order (a removed step\'s place goes to what it needed)', () => {
    const plan = goodPlan();
    const step = plan.steps[0]!;
    plan.steps = [step, { ...step, step_number: 2, action: 'B', depends_on: [] }, { ...step, step_number: 3, action: 'C', depends_on: [1, 2] }, { ...step, step_number: 4, action: 'D' }];
    const removed = editPlanSteps(plan, [], { remove: [2] });
    assert.ok('plan' in removed);
    assert.deepEqual(removed.plan.steps.map((s) => [s.step_number, s.action, s.depends_on]), [[1, step.action, undefined], [2, 'C', [1]], [3, 'D', undefined]]);
    const added = editPlanSteps(plan, [], { insert: [{ after: 1, action: 'N', files: ['n.txt'], commands: [], check: 'test -f n.txt' }] });
    assert.ok('plan' in added);
    assert.deepEqual(added.plan.steps.map((s) => [s.step_number, s.action, s.depends_on]), [[1, step.action, undefined], [2, 'N', undefined], [3, 'B', []], [4, 'C', [1, 3]], [5, 'D', undefined]]);
    assert.equal(added.plan.steps[1]!.check, 'test -f n.txt');
    // D needed C (the step before it); with C removed it needs what C needed, not B by position.
    const chain = editPlanSteps(plan, [], { remove: [3] });
    assert.ok('plan' in chain);
    assert.deepEqual(chain.plan.steps.map((s) => s.depends_on), [undefined, [], [1, 2]]);
    assert.deepEqual(editPlanSteps(plan, [], { remove: [1, 2, 3, 4] }), { error: 'a plan needs at least one step: Revise it instead' });
    assert.deepEqual(editPlanSteps(plan, [], { remove: [7] }), { error: 'step 7: there is no such step to remove' });
  });

  it('depends_on edited on the card: a cycle is refused naming its steps; null goes back to the step before', async () => {
    const plan = goodPlan();
    plan.steps = [plan.steps[0]!, { ...plan.steps[0]!, step_number: 2, action: 'Document --verbose', files: ['README.md'], depends_on: [1] }];
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(plan)] });
    await h.agent.send('add a --verbose flag');
    const v1 = h.cardsOf('plan')[0]!;
    const first = plan.steps[0]!;
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 1, action: first.action, files: first.files, commands: [], check: null, depends_on: [2] }] }), 'error');
    const err = h.cardsOf('error').at(-1)!;
    assert.match(err.message, /steps 1, 2: depends_on forms a cycle/);
    assert.deepEqual(err.refused, { action: 'edit_plan', target: v1.id });
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 2, action: 'Document --verbose', files: ['README.md'], commands: [], check: null, depends_on: [] }], insert: [{ after: 2, action: 'Release notes', files: ['CHANGES.md'], commands: [], check: null }] }), 'done', h.cardsOf('error').at(-1)?.message);
    const v2 = h.cardsOf('plan')[1]!;
    assert.deepEqual(v2.plan!.steps.map((s) => [s.action, s.depends_on]), [[first.action, undefined], ['Document --verbose', []], ['Release notes', undefined]]);
    const last = await h.agent.act({ type: 'edit_plan', card_id: v2.id, steps: [{ step_number: 2, action: 'Document --verbose', files: ['README.md'], commands: [], check: null, depends_on: null }], remove: [3] });
    assert.equal(last, 'done', h.cardsOf('error').at(-1)?.message);
    assert.deepEqual(h.cardsOf('plan')[2]!.plan!.steps.map((s) => s.depends_on), [undefined, undefined]);
  });

  it('the Actor is briefed with the saved version only: the Planner\'s v1 arguments are not in its requests', async () => {
    h = await harness({
      role: 'planner', tools: FAKE_WORKSPACE_TOOLS,
      steps: [propose(goodPlan()), { type: 'text', text: 'step 1 done' }, { type: 'text', text: 'step 2 done' }],
    });
    await h.agent.send('add a --verbose flag');
    const v1 = h.cardsOf('plan')[0]!;
    assert.equal(await h.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 2, action: 'Run the linter only', files: [], commands: ['npm run lint'], check: null }] }), 'done');
    const v2 = h.cardsOf('plan')[1]!;
    const before = h.server.chatRequests().length;
    await h.agent.act({ type: 'execute_plan', card_id: v2.id });
    const actorRequests = h.server.chatRequests().slice(before);
    assert.ok(actorRequests.length >= 1, 'the Actor was asked');
    const sent = JSON.stringify(actorRequests[0]!.messages);
    assert.match(sent, /Run the linter only/, 'the saved version is in the brief');
    assert.doesNotMatch(sent, /Run npm test/, 'v1\'s step 2 is not');
    assert.match(sent, /replaced by plan v2, which the user edited/);
  });
});
