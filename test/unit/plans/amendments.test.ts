/**
 * Amendments and plan-scope approval through the whole Agent: the product's tools on a real temp
 * workspace, the Node host (commands in the sandbox), the scripted server over a real socket. A plan
 * step's scope is enforced at dispatch: in scope, the plan may count as the approval; outside it, a
 * person decides (Allow once / Add to the plan / Reject), and no blanket approval ever does.
 */
import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { planStepOf, type ScriptStep } from '../../support/scriptedServer';
import type { Approver, ApprovalRequest } from '../../../src/core/ports/ports';
import type { AgentSettings } from '../../../src/core/settings/settings';
import type { Amendment, HostEvent } from '../../../src/protocol';
import { call, text } from '../../support/scriptSteps';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';

/** The Actor reads before it writes (write_file refuses to replace a file it has not read). */
const readAll = (...paths: string[]): ScriptStep => ({ type: 'tool_calls', calls: paths.map((p) => ({ name: 'read_file', arguments: { path: p } })) });
const stepEvents = (h: Harness) => h.events.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
const amendments = (h: Harness) => h.events.filter((e): e is Extract<HostEvent, { type: 'amendment' }> => e.type === 'amendment').map((e) => e.amendment);

/** One step that may edit src/a.txt only, checked by a grep of that file. */
function scopedPlan(step: Record<string, unknown> = {}) {
  return {
    format_version: '1.0',
    goal: 'Say hello in src/a.txt',
    steps: [{
      step_number: 1, action: "Replace 'old' with 'hello' in src/a.txt", reason: 'greet', tools_needed: ['write_file', 'run_command'],
      estimated_time: '1m', files: ['src/a.txt'], commands: ['grep'], check: 'grep -q hello src/a.txt', ...step,
    }],
    estimated_total_time: '1m',
    risks: [],
    prerequisites: [],
  };
}

const FILES = { 'src/a.txt': 'old\n', 'src/b.txt': 'b\n' };
const ALL = { edit: true, create: true, delete: true, command: true };

/** Records every request and answers with `answer` (Allow once by default). */
function person(answer: (req: ApprovalRequest) => Awaited<ReturnType<Approver['request']>> = () => ({ approved: true })): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, request: async (req) => { asked.push(req); return answer(req); } };
}

async function execute(h: Harness, plan: unknown) {
  const record = await h.agent.planning.importPlan(JSON.stringify(plan), 'plan.json');
  assert.ok(record.plan, record.errors.join('\n'));
  return h.agent.act({ type: 'execute_plan', card_id: record.cardId });
}

const withApproval = (approval: AgentSettings['approval']) => (s: AgentSettings): AgentSettings => ({ ...s, approval });

describe('amendments: a plan step asks before leaving its scope', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('an edit of a file the step did not name is an amendment card; Allow once writes it, and the step is not shown done', async () => {
    const p = person();
    h = await harness({ files: FILES, approver: p, steps: [
      readAll('src/a.txt', 'src/b.txt'),
      call('write_file', { path: 'src/a.txt', content: 'hello\n' }),
      call('write_file', { path: 'src/b.txt', content: 'changed too\n' }),
      text('Done.'),
    ] });
    const outcome = await execute(h, scopedPlan());
    assert.equal(outcome, 'done', JSON.stringify(h.agent.cards().filter((c) => c.kind !== 'usage'), null, 1));
    const asked = p.asked.filter((r) => r.info.amendment);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.info.amendment!.text, 'Step 1 wants to edit src/b.txt, which the plan did not name');
    assert.deepEqual(asked[0]!.info.amendment!.add, { files: ['src/b.txt'] });
    assert.equal(h.read('src/b.txt'), 'changed too\n');
    assert.deepEqual(amendments(h).map((a) => a.outcome), ['asked', 'allowed_once']);
    const card = h.toolCards().find((c) => c.approval?.amendment)!;
    assert.equal(card.approval!.amendment!.outcome, 'allowed_once');
    const [plan] = h.cardsOf('plan');
    assert.equal(h.cardsOf('plan').length, 1, 'Allow once makes no new version');
    assert.deepEqual(plan!.step_states, { 1: 'unverified' });
    assert.deepEqual(plan!.step_evidence?.['1']?.why, ["changed src/b.txt, which the step's files do not name"]);
  });

  it("Add to the plan: a new version whose step names the file, the card says what changed, and the step ends done on its check", async () => {
    const p = person((req) => (req.info.amendment ? { approved: true, addToPlan: true } : { approved: true }));
    h = await harness({ files: FILES, approver: p, steps: [
      readAll('src/a.txt', 'src/b.txt'),
      call('write_file', { path: 'src/b.txt', content: 'b2\n' }),
      call('write_file', { path: 'src/a.txt', content: 'hello\n' }),
      text('Done.'),
    ] });
    assert.equal(await execute(h, scopedPlan()), 'done');
    const plans = h.cardsOf('plan');
    assert.equal(plans.length, 2);
    const [v1, v2] = plans;
    assert.equal(v1!.superseded, true);
    assert.equal(v2!.version, 2);
    assert.deepEqual(v2!.plan!.steps[0]!.files, ['src/a.txt', 'src/b.txt']);
    assert.equal(v2!.amended, 'v2 adds to v1: step 1 files: + src/b.txt');
    assert.deepEqual(v2!.step_states, { 1: 'done' }, 'the run went on in v2, and the check passed');
    assert.equal(v2!.step_evidence?.['1']?.check?.exit_code, 0);
    assert.equal(v2!.executing, false);
    const added = amendments(h).at(-1)!;
    assert.equal(added.outcome, 'added');
    assert.equal(added.added_version, 2);
    assert.equal(added.change, 'step 1 files: + src/b.txt');
    assert.equal(h.agent.planning.book.get(v2!.id)!.provenance.path, 'amendment');
    // The widened scope holds from then on: the second edit of the step was not an amendment.
    assert.equal(p.asked.filter((r) => r.info.amendment).length, 1);
  });

  it('Reject: nothing is written, the model is told, and the step is unverified', async () => {
    const p = person((req) => (req.info.amendment ? { approved: false, reason: 'stay in the plan' } : { approved: true }));
    h = await harness({ files: FILES, approver: p, steps: [
      readAll('src/a.txt', 'src/b.txt'),
      call('write_file', { path: 'src/b.txt', content: 'nope\n' }),
      call('write_file', { path: 'src/a.txt', content: 'hello\n' }),
      text('Done.'),
    ] });
    await execute(h, scopedPlan());
    assert.equal(h.read('src/b.txt'), 'b\n');
    assert.deepEqual(amendments(h).map((a) => a.outcome), ['asked', 'rejected']);
    const [plan] = h.cardsOf('plan');
    assert.deepEqual(plan!.step_states, { 1: 'unverified' });
    assert.match(plan!.step_evidence?.['1']?.why[0] ?? '', /write_file .* was rejected/);
  });

  it('a command the step did not declare is an amendment, also when it starts with a declared prefix and chains more', async () => {
    const p = person((req) => (req.info.amendment ? { approved: false } : { approved: true }));
    h = await harness({ files: FILES, approver: p, steps: [
      call('run_command', { command: 'grep -c old src/a.txt' }),
      call('run_command', { command: 'grep -c old src/a.txt && touch escaped.txt' }),
      call('run_command', { command: 'rm src/b.txt' }),
      text('Done.'),
    ] });
    await execute(h, scopedPlan({ check: 'true' }));
    const texts = p.asked.filter((r) => r.info.amendment).map((r) => r.info.amendment!.text);
    assert.deepEqual(texts, [
      'Step 1 wants to run `grep -c old src/a.txt && touch escaped.txt`, which the plan did not name',
      'Step 1 wants to run `rm src/b.txt`, which the plan did not name',
    ]);
    assert.equal(h.read('src/b.txt'), 'b\n');
  });

  it('no blanket approval answers an amendment: with every auto-approval on and nobody to ask, it is refused and the run stops waiting', async () => {
    const p = person();
    h = await harness({ files: FILES, approver: p, settings: withApproval({ mode: 'never', autoApprove: ALL, planScope: true }), steps: [
      readAll('src/a.txt', 'src/b.txt'),
      call('write_file', { path: 'src/a.txt', content: 'hello\n' }),
      call('write_file', { path: 'src/b.txt', content: 'sneaky\n' }),
      text('should never be requested'),
    ] });
    assert.equal(await execute(h, scopedPlan()), 'waiting');
    assert.equal(p.asked.length, 0, 'nobody was asked');
    assert.equal(h.read('src/a.txt'), 'hello\n', 'the in-scope edit was allowed by the flags');
    assert.equal(h.read('src/b.txt'), 'b\n', 'the out-of-scope edit was not');
    const refused = amendments(h).at(-1) as Amendment;
    assert.equal(refused.outcome, 'refused');
    assert.equal(h.agent.planning.refusedAmendment?.text, 'Step 1 wants to edit src/b.txt, which the plan did not name');
    assert.equal(h.server.chatRequests().length, 3, 'the turn ended at the refused amendment (read, edit, edit)');
    assert.deepEqual(stepEvents(h), ['step_started:1', 'step_failed:1']);
    const [plan] = h.cardsOf('plan');
    assert.match(plan!.step_evidence?.['1']?.why[0] ?? '', /stopped on an amendment nobody could decide here: Step 1 wants to edit src\/b\.txt/);
  });

  it('with every auto-approval on and a person there, in-scope actions run unasked but the amendment is still asked', async () => {
    const p = person((req) => (req.info.amendment ? { approved: false } : { approved: true }));
    h = await harness({ files: FILES, approver: p, settings: withApproval({ mode: 'ask', autoApprove: ALL }), steps: [
      readAll('src/a.txt', 'src/b.txt'),
      call('write_file', { path: 'src/a.txt', content: 'hello\n' }),
      call('write_file', { path: 'src/b.txt', content: 'sneaky\n' }),
      text('Done.'),
    ] });
    await execute(h, scopedPlan());
    assert.deepEqual(p.asked.map((r) => r.info.amendment?.text ?? r.info.path), ['Step 1 wants to edit src/b.txt, which the plan did not name']);
    assert.equal(h.read('src/b.txt'), 'b\n');
  });
});

// Runs on both kinds of step workspace: the copy-on-write view and the worktree it falls back to.
for (const kind of STEP_WORKSPACE_KINDS) {
describe(`on ${kind.name}`, function () {
  useStepWorkspaceKind(kind);

  describe('amendments in a step run beside another (git worktrees)', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('offers Add to the plan as a step run alone does: v2 widens only that step, which ends done and is applied; the other step is not held up', async () => {
      const plan = {
        format_version: '1.0',
        goal: 'Two notes',
        steps: [
          { step_number: 1, action: 'Write a.txt', reason: 'a', tools_needed: ['write_file'], estimated_time: '1m', files: ['a.txt'], check: 'test -s a.txt && test -s extra.txt', depends_on: [] },
          { step_number: 2, action: 'Write b.txt', reason: 'b', tools_needed: ['write_file'], estimated_time: '1m', files: ['b.txt'], check: 'test -s b.txt', depends_on: [] },
        ],
        estimated_total_time: '2m',
        risks: [],
        prerequisites: [],
      };
      let step2Ended = false;
      const p = person((req) => (req.info.amendment ? { approved: true, addToPlan: true } : { approved: true }));
      h = await harness({
        git: true,
        files: { 'README.md': 'project\n' },
        approver: { request: async (req, signal) => {
          // Step 2 finishes while step 1's amendment waits on the person.
          if (req.info.amendment) { const end = Date.now() + 10_000; while (!step2Ended && Date.now() < end) await new Promise((r) => setTimeout(r, 20)); }
          return p.request(req, signal);
        } },
        steps: [],
        server: {
          lanes: {
            keyOf: planStepOf,
            steps: {
              1: [call('write_file', { path: 'a.txt', content: 'a\n' }), call('write_file', { path: 'extra.txt', content: 'extra\n' }), text('Done.')],
              2: [call('write_file', { path: 'b.txt', content: 'b\n' }), text('Done.')],
            },
          },
        },
        settings: (s) => ({ ...s, parallelSteps: 2, approval: { mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false }, planScope: true } }),
        hooks: { onEvent: (e) => { if (e.type === 'step_done' && e.step_number === 2) step2Ended = true; } },
      });
      assert.equal(await execute(h, plan), 'done', JSON.stringify(h.cardsOf('plan').map((c) => [c.step_states, c.step_evidence])));
      const asked = p.asked.filter((r) => r.info.amendment);
      assert.equal(asked.length, 1);
      assert.equal(asked[0]!.info.step, 1, 'the approval says its step');
      assert.deepEqual(asked[0]!.info.amendment!.add, { files: ['extra.txt'] }, 'Add to the plan is offered');
      assert.ok(step2Ended, 'step 2 ended while step 1 waited');
      const plans = h.cardsOf('plan');
      assert.equal(plans.length, 2);
      assert.deepEqual(plans[1]!.plan!.steps[0]!.files, ['a.txt', 'extra.txt']);
      assert.deepEqual(plans[1]!.plan!.steps[1]!.files, ['b.txt'], 'only that step is widened');
      assert.deepEqual(plans[1]!.step_states, { 1: 'done', 2: 'done' }, 'the run goes on in v2 for both steps');
      assert.equal(plans[1]!.executing, false);
      assert.equal(amendments(h).at(-1)!.outcome, 'added');
      // Both steps' changes reached the workspace, the added file included (in scope in v2).
      assert.equal(h.read('a.txt'), 'a\n');
      assert.equal(h.read('extra.txt'), 'extra\n');
      assert.equal(h.read('b.txt'), 'b\n');
    });
  });
});
}

describe('plan-scope approval: Execute plan approves what each step declares, and only that', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("a step's in-scope edit, command and check run without asking; the step ends done", async () => {
    const p = person();
    h = await harness({ files: FILES, approver: p, settings: withApproval({ mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false }, planScope: true }), steps: [
      readAll('src/a.txt', 'src/b.txt'),
      call('write_file', { path: 'src/a.txt', content: 'hello\n' }),
      call('run_command', { command: 'grep -c hello src/a.txt' }),
      text('Done.'),
    ] });
    assert.equal(await execute(h, scopedPlan()), 'done');
    assert.deepEqual(p.asked, [], 'nothing was asked');
    assert.equal(h.read('src/a.txt'), 'hello\n');
    assert.deepEqual(h.cardsOf('plan')[0]!.step_states, { 1: 'done' });
  });

  it('still asks for a file that runs code by itself even when the step names it, and for a deletion', async () => {
    const p = person(() => ({ approved: false }));
    h = await harness({ files: { ...FILES, '.vscode/tasks.json': '{}\n' }, approver: p, settings: withApproval({ mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false }, planScope: true }), steps: [
      readAll('src/a.txt', '.vscode/tasks.json'),
      call('write_file', { path: '.vscode/tasks.json', content: '{"tasks":[]}\n' }),
      call('delete_file', { path: 'src/a.txt' }),
      text('Done.'),
    ] });
    await execute(h, scopedPlan({ files: ['src/a.txt', '.vscode/tasks.json'], check: 'true' }));
    assert.deepEqual(p.asked.map((r) => [r.info.kind, r.info.path, !!r.info.amendment]), [['edit', '.vscode/tasks.json', false], ['delete', 'src/a.txt', false]]);
    assert.equal(h.read('.vscode/tasks.json'), '{}\n');
    assert.equal(h.read('src/a.txt'), 'old\n');
  });

  it('without plan-scope approval, in-scope actions are ordinary approvals (asked)', async () => {
    const p = person();
    h = await harness({ files: FILES, approver: p, steps: [readAll('src/a.txt'), call('write_file', { path: 'src/a.txt', content: 'hello\n' }), text('Done.')] });
    await execute(h, scopedPlan());
    assert.deepEqual(p.asked.map((r) => [r.info.kind, r.info.path, !!r.info.amendment]), [['edit', 'src/a.txt', false], ['command', undefined, false]]);
  });
});
