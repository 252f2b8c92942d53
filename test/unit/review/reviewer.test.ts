/**
 * The Reviewer through the whole Agent (real workspace, Node host, scripted server over a socket):
 * plan review with concerns on steps, repair and fallback models, review before Execute, step
 * review after each step, replanning that keeps the work done, step comments, usage per role/step.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { planStepOf, type ScriptStep } from '../../support/scriptedServer';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { DEFAULT_LIMITS } from '../../../src/core/settings/settings';
import { checkedPlan, goodPlan } from '../plans/planFixtures';
import { call, json, text, verdict } from '../../support/scriptSteps';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';

const propose = (plan: unknown): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan as Record<string, unknown> }], argChunkSize: 40 });
const lastMessage = (body: any) => body.messages[body.messages.length - 1];
const withReviewer = (extra: Record<string, unknown> = {}) => (s: any) => ({ ...s, models: { ...s.models, reviewer: 'reviewer-model' }, ...extra });

describe('the Reviewer', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('is a role of the product table: read-only, no shell, its own model setting and prompt', () => {
    const r = PRODUCT_ROLES.reviewer!;
    assert.equal(r.id, 'reviewer');
    assert.deepEqual([r.permissions, r.shell, r.mayPlan, r.executesPlans, r.modelSetting], [['read'], 'none', false, false, 'model.reviewer']);
    assert.match(r.systemPrompt({ stepTools: [] }), /Reviewer[\s\S]*never change anything/);
  });

  it('Review: a tool-less strict-schema request in the Reviewer role; the verdict and its concerns land on the plan card', async () => {
    h = await harness({ role: 'planner', settings: withReviewer(), steps: [
      propose(goodPlan()),
      verdict('revise', ['step 2 has no check'], [{ step: 2, file: null, line: null, text: 'Run npm test as the check of step 2' }, { step: null, file: 'src/args.ts', line: 3, text: 'parseArgs has other callers' }]),
    ] });
    await h.agent.send('add a --verbose flag');
    const [card] = h.cardsOf('plan');
    assert.equal(await h.agent.act({ type: 'review_plan', card_id: card.id }), 'done');

    const req = h.server.chatRequests()[1];
    assert.equal(req.model, 'reviewer-model');
    assert.equal(req.tools, undefined, 'a verdict request offers no tools at all');
    assert.equal(req.response_format?.json_schema?.name, 'tandem_review');
    assert.equal(req.messages[0].content, PRODUCT_ROLES.reviewer!.systemPrompt({ stepTools: [] }));
    assert.match(req.messages[1].content, /Review plan v1[\s\S]*"goal":"Add a --verbose flag to the CLI"/);
    assert.ok(!JSON.stringify(req.messages).includes('add a --verbose flag'), 'the Reviewer does not see the chat');

    const after = h.cardsOf('plan')[0]!;
    assert.equal(after.review?.verdict?.verdict, 'revise');
    assert.deepEqual(after.review?.verdict?.concerns.map((c) => c.step ?? null), [2, null]);
    assert.equal(after.review?.provenance.model, 'reviewer-model');
    assert.match(after.review!.provenance.prompt_version, /^reviewer@[0-9a-f]{10}$/);
    assert.equal(after.review?.provenance.repairs, 0);
    const ev = h.events.find((e) => e.type === 'review_verdict');
    assert.ok(ev && ev.type === 'review_verdict' && ev.verdict?.verdict === 'revise' && ev.step_number === undefined);
    assert.equal(h.agent.role, 'planner', 'reviewing does not switch the role');
    const usage = h.cardsOf('usage').at(-1)!;
    assert.deepEqual([usage.role, usage.outcome], ['reviewer', 'review']);
    assert.deepEqual(Object.keys(after.usage?.by_role ?? {}).sort(), ['planner', 'reviewer'], 'cost per role on the card');
  });

  it('an invalid verdict is repaired with its errors; when the repairs run out the next fallback model answers; provenance keeps every attempt', async () => {
    h = await harness({ role: 'planner', settings: withReviewer({ fallbackModels: { reviewer: ['backup-model'] }, limits: { ...DEFAULT_LIMITS, maxRetries: 0, requestIdleTimeoutMs: 5000, planRepairTries: 1 } }), steps: [
      propose(goodPlan()),
      json({ verdict: 'maybe', reasons: ['?'], concerns: [] }),
      json({ verdict: 'ok', reasons: ['fine'], concerns: [{ step: 9, text: 'no such step' }] }),
      verdict('ok', ['sound plan']),
    ] });
    await h.agent.send('add a --verbose flag');
    const [card] = h.cardsOf('plan');
    await h.agent.act({ type: 'review_plan', card_id: card.id });
    const reqs = h.server.chatRequests().slice(1);
    assert.deepEqual(reqs.map((r) => r.model), ['reviewer-model', 'reviewer-model', 'backup-model']);
    assert.match(lastMessage(reqs[1]).content, /The verdict was rejected:\n- verdict: /);
    assert.equal(reqs[2].messages.length, 2, 'the fallback model starts from the brief, not the failed exchange');
    const review = h.cardsOf('plan')[0]!.review!;
    assert.equal(review.verdict?.verdict, 'ok');
    assert.deepEqual(review.provenance.fallbacks, ['backup-model']);
    assert.equal(review.provenance.model, 'backup-model');
    assert.equal(review.provenance.attempts.length, 3);
    assert.match(review.provenance.attempts[1]!.errors.join(), /step 9 does not exist/);
    // Per-model reliability over the task: the plan and the three verdict answers.
    const rel = h.cardsOf('plan')[0]!.reliability!;
    assert.deepEqual(rel['planner-model'], { answers: 1, parse_failures: 0, validation_failures: 0 });
    assert.equal(rel['reviewer-model']!.answers, 2);
    assert.equal(rel['reviewer-model']!.validation_failures, 2);
    assert.equal(rel['backup-model']!.validation_failures, 0);
    assert.equal(typeof rel['backup-model']!.mean_latency_ms, 'number');
  });

  it('no valid verdict at all is said on the card and blocks nothing', async () => {
    h = await harness({ role: 'planner', settings: withReviewer({ limits: { ...DEFAULT_LIMITS, maxRetries: 0, planRepairTries: 0 } }), steps: [propose(goodPlan()), text('I think it is fine')] });
    await h.agent.send('x');
    const [card] = h.cardsOf('plan');
    assert.equal(await h.agent.act({ type: 'review_plan', card_id: card.id }), 'done');
    const review = h.cardsOf('plan')[0]!.review!;
    assert.equal(review.verdict, null);
    assert.match(review.error ?? '', /No valid verdict after 0 repair/);
    assert.equal(review.provenance.raw, 'I think it is fine');
    assert.equal(h.cardsOf('plan')[0]!.reliability?.['reviewer-model']?.parse_failures, 1, 'an unreadable answer counts as a parse failure');
  });

  it('with review required before Execute, Execute reviews first and a revise verdict executes nothing; Execute again overrides it', async () => {
    h = await harness({ role: 'planner', files: { 'src/args.ts': 'export {}\n' }, approver: { request: async () => ({ approved: true }) },
      settings: withReviewer({ reviewPlans: true }),
      steps: [propose(checkedPlan()), verdict('revise', ['too vague'], [{ step: 1, text: 'name the function' }]), text('Added.'), text('Tests pass.')] });
    await h.agent.send('add a --verbose flag');
    const [card] = h.cardsOf('plan');
    await h.agent.act({ type: 'execute_plan', card_id: card.id });
    assert.equal(h.server.chatRequests().length, 2, 'only the review ran');
    assert.equal(h.agent.role, 'planner');
    assert.deepEqual(h.cardsOf('plan')[0]!.step_states, { 1: 'pending', 2: 'pending' });
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: card.id }), 'done');
    const after = h.cardsOf('plan')[0]!;
    assert.deepEqual(after.step_states, { 1: 'done', 2: 'done' });
    assert.equal(after.review?.overridden, true, 'the card says the user went on regardless');
  });

  it('step review (every step) sees the step, its scope, its diff and check output — not the chat — and a replan verdict stops before the next step', async () => {
    const plan = goodPlan({ steps: [
      { step_number: 1, action: 'Append a greeting line to a.txt', reason: 'greet', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['a.txt'], check: 'grep -q hello a.txt' },
      { step_number: 2, action: 'Copy a.txt to b.txt', reason: 'backup', tools_needed: ['write_file'], estimated_time: '1 min', files: ['b.txt'] },
    ] });
    h = await harness({ role: 'planner', files: { 'a.txt': 'first line\n' },
      settings: withReviewer({ reviewSteps: 'every_step', approval: approvalFromFlag('all', false) }),
      steps: [
        propose(plan),
        { type: 'tool_calls', calls: [{ name: 'edit_file', arguments: { path: 'a.txt', edits: [{ old_text: 'first line', new_text: 'first line\nhello world' }] } }] },
        text('Appended.'),
        verdict('replan', ['b.txt is generated by the build; copying it by hand is wrong'], [{ step: 2, text: 'let the build write b.txt' }]),
        text('should never be asked'),
      ] });
    await h.agent.send('SECRET-CHAT-WORDS greet the user');
    const [card] = h.cardsOf('plan');
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: card.id }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 4, 'step 2 never ran');
    const brief = reqs[3].messages[1].content as string;
    assert.equal(reqs[3].model, 'reviewer-model');
    assert.match(brief, /Review step 1 of 2/);
    assert.match(brief, /Scope: files: a\.txt \| commands: \(none declared\) \| check: grep -q hello a\.txt/);
    assert.match(brief, /\+hello world/, 'the diff of the step');
    assert.match(brief, /Check `grep -q hello a\.txt` exited 0/);
    assert.ok(!JSON.stringify(reqs[3].messages).includes('SECRET-CHAT-WORDS'), 'not the chat');
    const after = h.cardsOf('plan')[0]!;
    assert.deepEqual(after.step_states, { 1: 'done', 2: 'pending' });
    assert.equal(after.step_reviews?.['1']?.verdict?.verdict, 'replan');
    assert.match(after.halted ?? '', /Reviewer says replan/);
    assert.ok(h.events.some((e) => e.type === 'review_verdict' && e.step_number === 1));
    assert.equal(after.usage?.by_step['1']?.requests, 3, 'two Actor requests and the step review count against step 1');
    assert.ok(after.usage?.by_role.reviewer && after.usage.by_role.actor);
  });

  // Runs on both kinds of step workspace: the copy-on-write view and the worktree it falls back to.
  for (const kind of STEP_WORKSPACE_KINDS) {
    describe(`on ${kind.name}`, function () {
      useStepWorkspaceKind(kind);

      it('steps run side by side (git worktrees) are reviewed as steps run alone: each gets its verdict with its own diff, and a replan verdict stops new steps from starting', async () => {
        const plan = goodPlan({ steps: [
          { step_number: 1, action: 'Write a.txt', reason: 'a', tools_needed: ['write_file'], estimated_time: '1 min', files: ['a.txt'], check: 'test -s a.txt', depends_on: [] },
          { step_number: 2, action: 'Write b.txt', reason: 'b', tools_needed: ['write_file'], estimated_time: '1 min', files: ['b.txt'], check: 'test -s b.txt', depends_on: [] },
          { step_number: 3, action: 'Write c.txt', reason: 'c', tools_needed: ['write_file'], estimated_time: '1 min', files: ['c.txt'], check: 'test -s c.txt', depends_on: [1, 2] },
        ] });
        h = await harness({
          git: true,
          files: { 'README.md': 'project\n' },
          settings: withReviewer({ reviewSteps: 'every_step', parallelSteps: 2, approval: approvalFromFlag('plan', false) }),
          // The Reviewer's requests take the main script (whichever step ends first is judged replan).
          steps: [verdict('replan', ['a.txt and b.txt should be one file']), verdict('ok', ['fine'])],
          server: {
            lanes: {
              keyOf: planStepOf,
              steps: {
                1: [call('write_file', { path: 'a.txt', content: 'from step 1\n' }), text('Wrote a.')],
                2: [call('write_file', { path: 'b.txt', content: 'from step 2\n' }), text('Wrote b.')],
                3: [call('write_file', { path: 'c.txt', content: 'never\n' }), text('never asked')],
              },
            },
          },
        });
        const record = await h.agent.planning.importPlan(JSON.stringify(plan), 'plan.json');
        assert.equal(await h.agent.act({ type: 'execute_plan', card_id: record.cardId }), 'done');
        const reviews = h.server.chatRequests().filter((b) => b.model === 'reviewer-model').map((b) => b.messages[1].content as string);
        assert.equal(reviews.length, 2, 'each step run side by side was reviewed');
        const of = (n: number) => reviews.find((r) => new RegExp(`Review step ${n} of 3`).test(r)) ?? assert.fail(`no review of step ${n}`);
        assert.match(of(1), /\+from step 1/, "step 1's own diff");
        assert.doesNotMatch(of(1), /from step 2/);
        assert.match(of(2), /\+from step 2/);
        const after = h.cardsOf('plan')[0]!;
        assert.deepEqual(Object.values(after.step_reviews ?? {}).map((r) => r.verdict?.verdict).sort(), ['ok', 'replan']);
        assert.deepEqual(after.step_states, { 1: 'done', 2: 'done', 3: 'pending' }, 'step 3 never started');
        assert.match(after.halted ?? '', /Reviewer says replan/);
        assert.equal(h.server.chatRequests().filter((b) => planStepOf(b) === '3').length, 0);
      });
    });
  }

  it('on_failure reviews only a step that did not end done', async () => {
    h = await harness({ role: 'planner', files: { 'src/args.ts': 'export {}\n' }, approver: { request: async () => ({ approved: true }) },
      settings: withReviewer({ reviewSteps: 'on_failure' }),
      steps: [propose(checkedPlan('true', 'false')), text('Added.'), text('Tests ran.'), verdict('replan', ['the tests fail'])] });
    await h.agent.send('x');
    const [card] = h.cardsOf('plan');
    await h.agent.act({ type: 'execute_plan', card_id: card.id });
    const after = h.cardsOf('plan')[0]!;
    assert.deepEqual(after.step_states, { 1: 'done', 2: 'failed' });
    assert.deepEqual(Object.keys(after.step_reviews ?? {}), ['2']);
    assert.match(h.server.chatRequests()[3].messages[1].content, /It ended: failed[\s\S]*Check `false` exited 1/);
  });

  it('Replan after a failed step: the Planner gets goal, done steps with output, the rest and the reason; v2 keeps step 1 done and Continue runs only the rest', async () => {
    h = await harness({ role: 'planner', files: { 'src/args.ts': 'export {}\n' }, approver: { request: async () => ({ approved: true }) },
      settings: withReviewer(),
      steps: [
        propose(checkedPlan('echo step-one-output', 'false')), text('Added.'), text('Tests ran.'),
        propose(goodPlan({ steps: [{ step_number: 1, action: 'Fix the failing test in test/args.test.ts', reason: 'the check failed', tools_needed: ['edit_file'], estimated_time: '2 min', files: ['test/args.test.ts'], check: 'true' }] })),
        text('Fixed.'),
      ] });
    await h.agent.send('add a --verbose flag');
    const [v1] = h.cardsOf('plan');
    await h.agent.act({ type: 'execute_plan', card_id: v1.id });
    assert.deepEqual(h.cardsOf('plan')[0]!.step_states, { 1: 'done', 2: 'failed' });

    assert.equal(await h.agent.act({ type: 'replan', card_id: v1.id }), 'done');
    assert.equal(h.agent.role, 'planner');
    const replanMsg = lastMessage(h.server.chatRequests()[3]).content as string;
    assert.match(replanMsg, /Replan: plan v1 stopped\. Propose plan v2/);
    assert.match(replanMsg, /Goal: Add a --verbose flag to the CLI/);
    assert.match(replanMsg, /1\. \[done\] In src\/args\.ts add verbose[\s\S]*step-one-output/);
    assert.match(replanMsg, /Steps that remained:\n2\. \[failed\] Run npm test/);
    assert.match(replanMsg, /Why it stopped: step 2 failed: the check `false` exited 1/);

    const v2 = h.cardsOf('plan')[1]!;
    assert.equal(v2.version, 2);
    assert.equal(v2.replan_of, 1);
    assert.deepEqual(v2.plan!.steps.map((s) => s.action), ['In src/args.ts add verbose to Options and parse --verbose', 'Fix the failing test in test/args.test.ts']);
    assert.deepEqual(v2.step_states, { 1: 'done', 2: 'pending' }, 'the done step stays done');
    assert.equal(v2.step_evidence?.['1']?.check?.output.includes('step-one-output'), true, 'with its evidence');
    assert.deepEqual(v2.changes?.removed.map((r) => r.step), [], 'the failed step was reworded into an edit');
    assert.equal(v2.changes?.edited.length, 1);
    assert.equal(v2.changes?.unchanged, 1);
    const pv = h.events.find((e) => e.type === 'plan_version' && e.version === 2);
    assert.ok(pv && pv.type === 'plan_version' && pv.replan_of === 1);

    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: v2.id, from_step: 2 }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 5, 'one Actor request: only step 2 ran');
    assert.match(lastMessage(reqs[4]).content, /Steps 1 to 1 were carried out already; continue from step 2[\s\S]*Do step 2 of 2/);
    assert.deepEqual(h.cardsOf('plan')[1]!.step_states, { 1: 'done', 2: 'done' });
  });

  it('Replan on a plan that neither failed nor was judged replan is refused with an error card', async () => {
    h = await harness({ role: 'planner', steps: [propose(goodPlan())] });
    await h.agent.send('x');
    assert.equal(await h.agent.act({ type: 'replan', card_id: h.cardsOf('plan')[0]!.id }), 'error');
    assert.match(h.cardsOf('error').at(-1)!.message, /nothing to replan/);
  });

  it('Revise sends the step comments together with the feedback, each naming its step', async () => {
    h = await harness({ role: 'planner', steps: [propose(goodPlan()), propose(goodPlan({ goal: 'Add --verbose and document it' }))] });
    await h.agent.send('x');
    const [card] = h.cardsOf('plan');
    await h.agent.act({ type: 'revise_plan', card_id: card.id, feedback: 'also document it', step_comments: [{ step: 2, text: 'use npm run test:unit' }, { step: 1, text: 'keep the default false' }] });
    const msg = h.server.chatRequests()[1].messages.find((m: any) => m.role === 'user' && /^Revise plan v1/.test(m.content)).content;
    assert.match(msg, /^Revise plan v1: also document it\nComments on steps:\n- step 2 \("Run npm test"\): use npm run test:unit\n- step 1 \("In src\/args\.ts add verbose/);
    assert.equal(h.cardsOf('plan')[1]!.version, 2);
    assert.ok(h.cardsOf('plan')[1]!.changes, 'v2 says what changed from v1');
  });

  it('a step that reaches its budget is stopped and fails; its changes stay; the next step never runs', async () => {
    const plan = goodPlan({ steps: [
      { step_number: 1, action: 'Write notes.txt', reason: 'r', tools_needed: ['write_file'], estimated_time: '1 min', files: ['notes.txt'] },
      { step_number: 2, action: 'Write more.txt', reason: 'r', tools_needed: ['write_file'], estimated_time: '1 min', files: ['more.txt'] },
    ] });
    h = await harness({ role: 'planner',
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', false), stepBudgetUsd: 0.5, prices: { 'actor-model': { input: 1_000_000, output: 0 } } }),
      steps: [
        propose(plan),
        { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'kept\n' } }], usage: { prompt_tokens: 0, completion_tokens: 1 } },
        { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'expensive\n' } }], usage: { prompt_tokens: 1, completion_tokens: 1 } },
        text('never'),
      ] });
    await h.agent.send('x');
    const [card] = h.cardsOf('plan');
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: card.id }), 'error');
    const after = h.cardsOf('plan')[0]!;
    assert.deepEqual(after.step_states, { 1: 'failed', 2: 'pending' });
    assert.match(after.step_evidence?.['1']?.why.join() ?? '', /step 1 reached its budget of \$0\.50 \(\$1\.00 spent\)/);
    assert.equal(h.read('notes.txt'), 'kept\n', 'the change made before the cap stays (revertible from its checkpoint)');
    assert.ok(!fs.existsSync(path.join(h.ws, 'more.txt')));
    assert.equal(h.server.chatRequests().length, 3);
  });
});

describe('fallback models for plans', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('when propose_plan stays invalid after its repairs, the role\'s fallback model is asked for the plan; provenance names it', async () => {
    const bad = { ...goodPlan(), steps: [] };
    h = await harness({ role: 'planner', settings: (s) => ({ ...s, fallbackModels: { planner: ['planner-backup'] }, limits: { ...s.limits, planRepairTries: 1 } }), steps: [
      propose(bad), propose(bad), json(goodPlan({ goal: 'From the backup model' })),
    ] });
    assert.equal(await h.agent.send('plan it'), 'done');
    const reqs = h.server.chatRequests();
    assert.deepEqual(reqs.map((r) => r.model), ['planner-model', 'planner-model', 'planner-backup']);
    assert.equal(reqs[2].response_format?.json_schema?.name, 'tandem_plan');
    const cards = h.cardsOf('plan');
    assert.equal(cards.length, 1, 'no invalid version was published on the way');
    assert.equal(cards[0]!.plan?.goal, 'From the backup model');
    const prov = h.agent.planning.book.get(cards[0]!.id)!.provenance;
    assert.equal(prov.model, 'planner-backup');
    assert.deepEqual(prov.fallbacks, ['planner-backup']);
    assert.deepEqual(prov.attempts.map((a) => a.model), ['planner-model', 'planner-model', 'planner-backup']);
    assert.equal(prov.repairs, 1);
    assert.match(prov.promptVersion ?? '', /^planner@[0-9a-f]{10}$/);
    assert.deepEqual(cards[0]!.reliability, {
      'planner-model': { answers: 2, parse_failures: 0, validation_failures: 2 },
      'planner-backup': { answers: 1, parse_failures: 0, validation_failures: 0 },
    });
  });

  it('without fallbacks the rejected plan is shown as before (Execute disabled)', async () => {
    const bad = { ...goodPlan(), steps: [] };
    h = await harness({ role: 'planner', settings: (s) => ({ ...s, limits: { ...s.limits, planRepairTries: 1 } }), steps: [propose(bad), propose(bad), text('gave up')] });
    await h.agent.send('plan it');
    assert.equal(h.server.chatRequests().length, 2);
    assert.equal(h.cardsOf('plan')[0]!.plan, null);
  });
});
