/**
 * Plan state survives what a long task goes through: condensing (the plan's versions, step states,
 * scopes, verdicts and current step are re-injected word for word) and closing and resuming (a task
 * resumed mid-plan continues from the step where it stopped, the steps before it stay as they ended).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { defaultSettings, type AgentSettings } from '../../../src/core/settings/settings';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { resumeTask, startTask, type RunningTask, type TaskPorts } from '../../../src/core/runtime/runningTask';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { SUMMARY_MARKER } from '../../../src/core/context/taskFacts';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { Card, HostEvent, type RoleId } from '../../../src/protocol';
import { loadWebviewModule } from '../webview/loadWebviewModule';
import { text } from '../../support/scriptSteps';

type PlanStatusModule = typeof import('../../../webview-ui/src/state/planStatus');

const plan = {
  format_version: '1.0',
  goal: 'Write three notes',
  steps: [1, 2, 3].map((n) => ({ step_number: n, action: `Write note${n}.txt`, reason: 'notes', tools_needed: ['write_file'], estimated_time: '1 min', files: [`note${n}.txt`], check: `test -f note${n}.txt` })),
  estimated_total_time: '3 min',
  risks: [],
  prerequisites: [],
};
const write = (n: number): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: `note${n}.txt`, content: `note ${n}\n` } }] });

describe('plan state across condensing and resume', function () {
  this.timeout(40_000);
  let tmp: string;
  let ws: string;
  let store: HistoryStore;
  const open: { session: RunningTask; server: ScriptedServer }[] = [];

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-planstate-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    store = new HistoryStore(path.join(tmp, 'history'));
  });
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.session.close();
      await o.server.close();
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function task(steps: ScriptStep[], o: { resumeId?: string; role?: RoleId; settings?: (s: AgentSettings) => AgentSettings } = {}) {
    const server = await ScriptedServer.start(steps);
    let settings = defaultSettings({ baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' }, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: true } } });
    settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
    if (o.settings) settings = o.settings(settings);
    const ports: TaskPorts = { host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), history: store, settings: () => settings, workspace: ws };
    const events: HostEvent[] = [];
    const start = { role: o.role ?? 'planner', keepRole: o.role !== undefined, sink: (e: HostEvent) => void events.push(e) };
    const session = o.resumeId ? await resumeTask(ports, o.resumeId, start) : startTask(ports, start);
    open.push({ session, server });
    const cards = <K extends Card['kind']>(kind: K) => session.agent.cards().filter((c) => c.kind === kind) as Extract<Card, { kind: K }>[];
    return { session, server, agent: session.agent, cards, events };
  }

  it('a task closed mid-plan offers "Continue from step k" after resume, and continuing runs only the steps from k', async () => {
    const t1 = await task([{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] }, write(1), text('one'), { type: 'fault', fault: 'hang' }]);
    await t1.agent.send('three notes');
    const card = t1.cards('plan')[0]!;
    const run = t1.agent.act({ type: 'execute_plan', card_id: card.id });
    const end = Date.now() + 10_000;
    while (t1.server.chatRequests().length < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    t1.agent.stop();
    assert.equal(await run, 'stopped');
    await t1.session.close();

    const t2 = await task([write(2), text('two'), write(3), text('three')], { resumeId: t1.session.id });
    const resumed = t2.cards('plan')[0]!;
    // Stopped is its own end: the user stopped step 2, it did not fail.
    assert.deepEqual(resumed.step_states, { 1: 'done', 2: 'stopped', 3: 'pending' });
    const { planStatus, executedLabel } = await loadWebviewModule<PlanStatusModule>('webview-ui/src/state/planStatus.ts');
    const status = planStatus(resumed) as { kind: string; next?: number };
    assert.equal(status.next, 2, 'the card offers Continue from step 2');
    assert.match(executedLabel(status as never), /1 of 3 steps done/);

    assert.equal(await t2.agent.act({ type: 'execute_plan', card_id: resumed.id, from_step: 2 }), 'done');
    const reqs = t2.server.chatRequests();
    assert.equal(reqs.length, 4, 'steps 2 and 3 only');
    assert.match(reqs[0].messages.at(-1).content, /continue from step 2[\s\S]*Do step 2 of 3/);
    assert.deepEqual(t2.cards('plan')[0]!.step_states, { 1: 'done', 2: 'done', 3: 'done' });
    assert.equal(fs.readFileSync(path.join(ws, 'note1.txt'), 'utf8'), 'note 1\n');
  });

  it('a branching plan resumed at step 1 keeps a done step numbered after it: "Continue from step 1" never runs it again', async () => {
    // Step 1 needs step 2, step 3 needs step 1: one at a time (no git here) they run 2, 1, 3.
    const branching = { ...plan, steps: plan.steps.map((s) => ({ ...s, depends_on: s.step_number === 1 ? [2] : s.step_number === 2 ? [] : [1] })) };
    const t1 = await task([{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: branching }] }, write(2), text('two'), { type: 'fault', fault: 'hang' }]);
    await t1.agent.send('three notes');
    const card = t1.cards('plan')[0]!;
    const run = t1.agent.act({ type: 'execute_plan', card_id: card.id });
    const end = Date.now() + 10_000;
    while (t1.server.chatRequests().length < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    t1.agent.stop();
    assert.equal(await run, 'stopped');
    await t1.session.close();

    const t2 = await task([write(1), text('one'), write(3), text('three')], { resumeId: t1.session.id });
    const resumed = t2.cards('plan')[0]!;
    assert.deepEqual(resumed.step_states, { 1: 'stopped', 2: 'done', 3: 'pending' });
    const { planStatus } = await loadWebviewModule<PlanStatusModule>('webview-ui/src/state/planStatus.ts');
    assert.equal((planStatus(resumed) as { next?: number }).next, 1, 'the card offers Continue from step 1');
    assert.equal(await t2.agent.act({ type: 'execute_plan', card_id: resumed.id, from_step: 1 }), 'done');
    const asked = t2.server.chatRequests().map((b) => /Do step (\d+) of/.exec(JSON.stringify(b.messages.at(-1)))?.[1]).filter(Boolean);
    assert.deepEqual([...new Set(asked)], ['1', '3'], 'step 2 is never asked again');
    assert.match(t2.server.chatRequests()[0].messages.at(-1).content, /Step 2 was carried out already/);
    assert.deepEqual(t2.cards('plan')[0]!.step_states, { 1: 'done', 2: 'done', 3: 'done' });
  });

  it('history keeps the provenance of plans and verdicts: model, prompt version, raw output, errors, repairs', async () => {
    const t1 = await task([
      { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: { ...plan, steps: [] } }] },
      { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] },
      { type: 'text', text: 'not json at all' },
      { type: 'json', value: { verdict: 'ok', reasons: ['fine'], concerns: [] } },
    ]);
    await t1.agent.send('three notes');
    const card = t1.cards('plan')[0]!;
    await t1.agent.act({ type: 'review_plan', card_id: card.id });
    await t1.session.close();
    const saved = await store.load(t1.session.id);
    const prov = saved.provenance[card.id]!;
    assert.equal(prov.repairs, 1);
    assert.match(prov.attempts[0]!.errors.join(), /step/);
    assert.match(prov.promptVersion ?? '', /^planner@/);
    const kept = saved.cards.find((c) => c.id === card.id);
    assert.ok(kept?.kind === 'plan' && kept.review);
    assert.equal(kept.review.verdict?.verdict, 'ok');
    assert.equal(kept.review.provenance.repairs, 1);
    assert.equal(kept.review.provenance.attempts[0]!.raw, 'not json at all');
    assert.ok(kept.review.provenance.attempts[0]!.errors.length > 0);
    assert.match(kept.review.provenance.prompt_version, /^reviewer@/);
  });

  it('after a condense the request carries the plan state: version, step states with scopes, verdicts and the current step', async () => {
    const long = (i: number) => `Answer ${i}: ` + 'details about notes and how they are written in this project. '.repeat(18);
    const steps: ScriptStep[] = [
      { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] },
      { type: 'json', value: { verdict: 'ok', reasons: ['clear steps'], concerns: [] } },
      write(1), text('one'), { type: 'tool_calls', calls: [{ name: 'fail_step', arguments: { reason: 'note2 needs a template' } }] }, text('failed'),
    ];
    for (let i = 1; i <= 30; i++) steps.push(text(long(i)));
    const t = await task(steps, { settings: (s) => ({ ...s, contextWindow: 5000, maxTokens: 300, summaryModel: 'gpt-4o-mini' }) });
    await t.agent.send('three notes');
    const card = t.cards('plan')[0]!;
    await t.agent.act({ type: 'review_plan', card_id: card.id });
    await t.agent.act({ type: 'execute_plan', card_id: card.id });
    assert.deepEqual(t.cards('plan')[0]!.step_states, { 1: 'done', 2: 'failed', 3: 'pending' });
    for (let i = 1; i <= 24; i++) await t.agent.send(`Tell me more, part ${i}`);
    const reqs = t.server.chatRequests();
    const summaryAt = reqs.findIndex((b) => b.model === 'gpt-4o-mini');
    assert.ok(summaryAt > 0, `the task was condensed: ${reqs.length} requests, ${JSON.stringify(t.cards("error").map((c) => c.message))} ${JSON.stringify(t.cards("plan")[0]!.step_states)}`);
    const after = (reqs[summaryAt + 1].messages as any[]).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    assert.ok(after.includes(SUMMARY_MARKER));
    assert.match(after, /## Plan state\nPlan v1 of 1\./);
    assert.match(after, /- step 1 \[done\] \(files note1\.txt; check `test -f note1\.txt`\)/);
    assert.match(after, /- step 2 \[failed\] \(files note2\.txt; check `test -f note2\.txt`\) — note2 needs a template/);
    assert.match(after, /Current step: 2\./);
    assert.match(after, /Reviewer on v1: ok — clear steps/);
  });
  it('a plan the user edited and executed is still the only version a resumed task tells the model: v1\'s propose_plan arguments stay superseded', async () => {
    const t1 = await task([{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] }, write(1), text('one'), write(2), text('two'), write(3), text('three')]);
    await t1.agent.send('three notes');
    const v1 = t1.cards('plan')[0]!;
    assert.equal(await t1.agent.act({ type: 'edit_plan', card_id: v1.id, steps: [{ step_number: 3, action: 'Write the third note in capitals', files: ['note3.txt'], commands: [], check: 'test -f note3.txt' }] }), 'done');
    const v2 = t1.cards('plan')[1]!;
    await t1.agent.act({ type: 'execute_plan', card_id: v2.id });
    const live = JSON.stringify(t1.server.chatRequests().at(-1)!.messages);
    assert.doesNotMatch(live, /Write note3\.txt/, 'live: v1\'s step 3 is superseded');
    await t1.session.close();

    const t2 = await task([text('Still three notes.')], { resumeId: t1.session.id, role: 'actor' });
    await t2.agent.send('anything left?');
    const sent = JSON.stringify(t2.server.chatRequests().at(-1)!.messages);
    assert.match(sent, /Write the third note in capitals/, 'the edited version is in the resumed conversation');
    assert.doesNotMatch(sent, /Write note3\.txt/, 'v1\'s step 3 did not come back with the resume');
    assert.match(sent, /replaced by plan v2, which the user edited/);
  });
});
