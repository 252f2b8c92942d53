/**
 * History through the whole Agent: a real temp workspace, the Node host, the scripted server on a
 * real socket, history on disk. Asserts on what the server receives and what is on disk.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Agent } from '../../../src/core/task/taskAgent';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { defaultSettings, type AgentSettings } from '../../../src/core/settings/settings';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { resumeTask, startTask, type RunningTask, type TaskPorts } from '../../../src/core/runtime/runningTask';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { messagesTokens, toolsTokens } from '../../../src/core/context/messageTokens';
import { SUMMARY_MARKER } from '../../../src/core/context/taskFacts';
import type { QuestionAsker } from '../../../src/core/ports/ports';
import type { CheckpointLimits } from '../../../src/core/checkpoints/checkpointStore';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { Card, HostEvent, type RoleId } from '../../../src/protocol';

const plan = {
  format_version: '1.0',
  goal: 'Add a --verbose flag to the CLI',
  steps: [
    { step_number: 1, action: 'In src/args.ts add verbose to Options and parse --verbose', reason: 'accept the flag', tools_needed: ['read_file', 'edit_file'], estimated_time: '2 min', files: ['src/args.ts'] },
    { step_number: 2, action: 'Write notes.txt describing the flag', reason: 'document it', tools_needed: ['write_file'], estimated_time: '1 min', files: ['notes.txt'] },
  ],
  estimated_total_time: '3 min',
  risks: [],
  prerequisites: [],
};

interface Rig {
  server: ScriptedServer;
  agent: Agent;
  session: RunningTask;
  events: HostEvent[];
  cards<K extends Card['kind']>(kind: K): Extract<Card, { kind: K }>[];
  close(): Promise<void>;
}

describe('task runtime: history, checkpoints, context and budget through the agent', function () {
  this.timeout(30_000);
  let tmp: string;
  let ws: string;
  let store: HistoryStore;
  const rigs: Rig[] = [];

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-session-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'a.txt'), 'hello from a\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bee\n');
    fs.writeFileSync(path.join(ws, 'src', 'args.ts'), 'export interface Options {}\n');
    store = new HistoryStore(path.join(tmp, 'history'));
  });
  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function rig(o: { steps: ScriptStep[]; settings?: (s: AgentSettings) => AgentSettings; resumeId?: string; role?: RoleId; asker?: QuestionAsker; checkpointLimits?: CheckpointLimits }): Promise<Rig> {
    const server = await ScriptedServer.start(o.steps);
    const host = createNodeHost({ roots: [ws], asker: o.asker ?? new HeadlessAsker('none') });
    let settings = defaultSettings({
      baseURL: server.url,
      apiKey: 'sk-test',
      models: { planner: 'gpt-4o', actor: 'gpt-4o' },
      approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: false } },
    });
    settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
    if (o.settings) settings = o.settings(settings);
    const events: HostEvent[] = [];
    const ports: TaskPorts = { host, history: store, settings: () => settings, workspace: ws, ...(o.checkpointLimits ? { checkpointLimits: o.checkpointLimits } : {}) };
    const start = {
      // A new task here starts in the Actor; a resumed one keeps its role unless the test names one.
      role: o.role ?? 'actor',
      keepRole: o.role !== undefined,
      sink: (e: HostEvent) => {
        const p = HostEvent.safeParse(e);
        if (!p.success) throw new Error(`invalid event ${JSON.stringify(e)}`);
        events.push(e);
      },
    };
    const session = o.resumeId ? await resumeTask(ports, o.resumeId, start) : startTask(ports, start);
    const agent = session.agent;
    const r: Rig = {
      server,
      agent,
      session,
      events,
      cards: <K extends Card['kind']>(kind: K) => agent.cards().filter((c) => c.kind === kind) as Extract<Card, { kind: K }>[],
      async close() {
        await session.close();
        await server.close();
      },
    };
    rigs.push(r);
    return r;
  }

  it('resumes a saved task: the model receives the earlier turns, usage keeps counting, history holds both sessions', async () => {
    const r1 = await rig({ steps: [
      { type: 'tool_calls', calls: [{ id: 'call_r', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { type: 'text', text: 'a.txt says hello from a.' },
    ] });
    assert.equal(await r1.agent.send('What is in a.txt?'), 'done');
    const id = r1.session.id;
    await r1.close();
    rigs.splice(rigs.indexOf(r1), 1);

    // A new process: a fresh store object, a fresh server, resume by id prefix.
    store = new HistoryStore(store.dir);
    const listed = await store.list();
    assert.equal(listed.length, 1);
    assert.equal(listed[0].title, 'What is in a.txt?');
    const r2 = await rig({ resumeId: id.slice(0, 12), steps: [{ type: 'text', text: 'It greets you.' }] });
    assert.equal(r2.session.id, id);
    assert.equal(r2.agent.cards().length, r1.agent.cards().length, 'the resumed task shows its cards');
    assert.equal(await r2.agent.send('And what does that mean?'), 'done');

    const sent = r2.server.chatRequests()[0].messages as any[];
    assert.equal(sent[0].role, 'system');
    assert.deepEqual(sent.slice(1).map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'user']);
    assert.equal(sent[1].content, 'What is in a.txt?');
    assert.equal(sent[2].tool_calls[0].function.name, 'read_file');
    assert.equal(sent[3].tool_call_id, sent[2].tool_calls[0].id);
    assert.match(sent[3].content, /hello from a/);
    assert.equal(sent[4].content, 'a.txt says hello from a.');
    assert.equal(sent[5].content, 'And what does that mean?');

    const totals = r2.events.filter((e) => e.type === 'usage_total').at(-1) as Extract<HostEvent, { type: 'usage_total' }>;
    assert.equal(totals.task.tokens_in, 300, 'two requests before the resume plus one after');
    const ids = r2.agent.cards().map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'new card ids never collide with resumed ones');
    await r2.session.close();
    const loaded = await store.load(id);
    assert.equal(loaded.cards.length, r2.agent.cards().length);
    assert.equal(loaded.meta.usage.tokens_in, 300);
  });

  it('a resumed task\'s snapshot carries its usage: the chat\'s header shows Turn and Task as before, not nothing until the next request', async () => {
    const r1 = await rig({ steps: [
      { type: 'tool_calls', calls: [{ id: 'call_u', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { type: 'text', text: 'Read it.' },
      { type: 'text', text: 'Second turn.' },
    ] });
    await r1.agent.send('Read a.txt');
    await r1.agent.send('And again');
    const before = r1.session.snapshot() as Extract<HostEvent, { type: 'snapshot' }>;
    assert.ok(before.usage, 'the live snapshot has usage');
    const id = r1.session.id;
    await r1.close();
    rigs.splice(rigs.indexOf(r1), 1);

    store = new HistoryStore(store.dir);
    const r2 = await rig({ resumeId: id, steps: [] });
    const after = r2.session.snapshot() as Extract<HostEvent, { type: 'snapshot' }>;
    assert.ok(after.usage, 'the resumed snapshot has usage');
    assert.deepEqual(after.usage.task, before.usage!.task, 'the task\'s totals');
    assert.deepEqual(after.usage.turn, before.usage!.turn, 'the last turn\'s totals');
    assert.equal(after.usage.turn.tokens_in, 100, 'the last turn made one request');
  });

  it('a plan made before closing can be executed after resuming, and its provenance is saved', async () => {
    const r1 = await rig({ role: 'planner', steps: [{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] }] });
    assert.equal(await r1.agent.send('Plan a --verbose flag'), 'done');
    const planCard = r1.cards('plan')[0]!;
    await r1.close();
    rigs.splice(rigs.indexOf(r1), 1);
    const saved = await store.load(r1.session.id);
    assert.equal(saved.provenance[planCard.id]?.path, 'tool');
    assert.equal(saved.provenance[planCard.id]?.model, 'gpt-4o');

    const r2 = await rig({ resumeId: r1.session.id, steps: [{ type: 'text', text: 'Step 1 done.' }, { type: 'text', text: 'Step 2 done.' }] });
    assert.equal(await r2.agent.act({ type: 'execute_plan', card_id: planCard.id }), 'done');
    const after = r2.cards('plan').find((c) => c.id === planCard.id)!;
    // No step declares a check: each ends unverified, and says why.
    assert.deepEqual(after.step_states, { '1': 'unverified', '2': 'unverified' });
    assert.deepEqual(after.step_evidence?.['2'], { why: ['no check was declared'] });
    const first = r2.server.chatRequests()[0].messages as any[];
    assert.equal(first[1].content, 'Plan a --verbose flag', 'the Actor sees the planning turn too');
    await r2.session.close();
    const kept = (await store.load(r1.session.id)).cards.find((c) => c.id === planCard.id);
    assert.ok(kept?.kind === 'plan');
    assert.deepEqual(kept.step_states, { '1': 'unverified', '2': 'unverified' }, 'history keeps the step states');
    assert.deepEqual(kept.step_evidence?.['1'], { why: ['no check was declared'] }, 'and why');
  });

  it('condenses a task longer than the window: the request keeps the plan and touched files and never exceeds the window', async () => {
    const long = (i: number) => `Answer ${i}: ` + `details about the verbose flag and how arguments are parsed in this project. `.repeat(18);
    const window = 6000;
    const maxTokens = 300;
    const steps: ScriptStep[] = [
      { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] },
      { type: 'tool_calls', calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'The --verbose flag prints more.\n' } }] },
      { type: 'text', text: long(0) },
    ];
    for (let i = 1; i <= 20; i++) steps.push({ type: 'text', text: long(i) });
    const r = await rig({ role: 'planner', steps, settings: (s) => ({ ...s, contextWindow: window, maxTokens, summaryModel: 'gpt-4o-mini' }) });
    assert.equal(await r.agent.send('Plan a --verbose flag'), 'done');
    r.agent.setRole('actor', 'test');
    assert.equal(await r.agent.send('Write notes.txt'), 'done');
    for (let i = 1; i <= 16; i++) {
      const outcome = await r.agent.send(`Tell me more, part ${i}`);
      assert.equal(outcome, 'done');
    }
    const reqs = r.server.chatRequests();
    const summaryAt = reqs.findIndex((b) => b.model === 'gpt-4o-mini');
    assert.ok(summaryAt > 0, 'a summary request went to the summary model');
    assert.ok(!reqs[summaryAt].tools, 'the summary request offers no tools');
    for (const b of reqs) {
      const n = messagesTokens(b.messages) + toolsTokens(b.tools);
      assert.ok(n + maxTokens <= window, `request of ${n} tokens + ${maxTokens} reserve fits ${window}`);
    }
    const after = reqs[summaryAt + 1];
    const text = (after.messages as any[]).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    assert.ok(text.includes(SUMMARY_MARKER));
    assert.match(text, /Goal: Add a --verbose flag to the CLI/);
    assert.match(text, /2\. Write notes\.txt describing the flag/);
    assert.match(text, /- notes\.txt \(created\)/);
    const note = r.cards('text').find((c) => c.author === 'system' && /Context condensed/.test(c.text));
    assert.ok(note, 'the chat shows where it was condensed');
    assert.equal(note!.note, 'condensed', 'a note of its own kind: the chat shows it as a quiet marker');
    assert.match(note!.text, /summarised by gpt-4o-mini to fit gpt-4o's 6,000-token window/);
    assert.ok(r.cards('usage').some((u) => u.outcome === 'summary' && u.model === 'gpt-4o-mini'), 'the summary request is counted');
  });

  it('reverts a tool call, restores a deleted file, and refuses (nothing changed, diff offered) after the user edited', async () => {
    const r = await rig({ steps: [
      { type: 'tool_calls', calls: [{ id: 'call_r', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { type: 'tool_calls', calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'a.txt', content: 'agent wrote this\n' } }] },
      { type: 'tool_calls', calls: [{ id: 'call_d', name: 'delete_file', arguments: { path: 'b.txt' } }] },
      { type: 'text', text: 'Done.' },
    ] });
    assert.equal(await r.agent.send('rewrite a, delete b'), 'done');
    await r.session.settled();
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
    const del = r.cards('tool_call').find((c) => c.call_id === 'call_d')!;
    assert.equal(del.revertible, true, 'the card offers "Revert this change"');

    const back = await r.session.revertCall('call_d');
    assert.equal(back.ok, true);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'bee\n');
    assert.equal(r.cards('tool_call').find((c) => c.call_id === 'call_d')!.reverted, true);
    assert.ok(r.cards('text').some((c) => c.author === 'system' && /b\.txt restored \(the agent had deleted it\)/.test(c.text)), 'the revert is recorded in the chat');
    const conv = r.agent.conversation;
    assert.match(String((conv[conv.length - 1] as any).content), /\[Note from Tandem\] The user reverted changes/);

    fs.writeFileSync(path.join(ws, 'a.txt'), 'agent wrote this\nand the user added a line\n');
    const refused = await r.session.revertCall('call_w');
    assert.equal(refused.ok, false);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent wrote this\nand the user added a line\n');
    const err = r.cards('error').at(-1)!;
    assert.match(err.message, /Nothing was reverted: this change cannot be undone safely/);
    assert.match(err.message, /a\.txt was edited since the agent's change/);
    assert.match(err.detail!, /\+and the user added a line/);
    // The chat has no "Show diff" button: the message points at the card's details, where the diff is.
    assert.match(err.message, /see the diff in this card's details\.$/);
    assert.doesNotMatch(err.message, /Show the diff/);
    assert.equal((await r.session.revertTask()).ok, false);

    // The reverts are in history too.
    await r.session.close();
    const saved = await store.load(r.session.id);
    assert.equal((saved.cards.find((c) => c.kind === 'tool_call' && c.call_id === 'call_d') as any).reverted, true);
  });

  it('a file over the checkpoint cap is still changed (approved as usual) but marked not revertible, with a clear message', async () => {
    fs.writeFileSync(path.join(ws, 'big.log'), 'x'.repeat(50_000));
    const r = await rig({
      checkpointLimits: { maxFileBytes: 10_000, maxTaskBytes: 1_000_000 },
      steps: [{ type: 'tool_calls', calls: [{ id: 'call_big', name: 'delete_file', arguments: { path: 'big.log' } }] }, { type: 'text', text: 'Deleted.' }],
    });
    assert.equal(await r.agent.send('delete big.log'), 'done');
    await r.session.settled();
    assert.equal(fs.existsSync(path.join(ws, 'big.log')), false);
    const card = r.cards('tool_call').find((c) => c.call_id === 'call_big')!;
    assert.equal(card.revertible, false);
    assert.match(card.revert_note!, /Not revertible: big\.log is 49 KB, over the 10 KB checkpoint cap per file/);
    assert.ok(r.cards('text').some((c) => c.author === 'system' && /Not revertible: big\.log/.test(c.text)));
    const refused = await r.session.revertCall('call_big');
    assert.equal(refused.ok, false);
    assert.equal(fs.existsSync(path.join(ws, 'big.log')), false);
  });

  it('warns at 80% of the task budget and stops before the request that would go over, waiting for the user', async () => {
    const read = (id: string): ScriptStep => ({ type: 'tool_calls', calls: [{ id, name: 'read_file', arguments: { path: 'a.txt' } }] });
    const r = await rig({
      steps: [read('c1'), read('c2'), read('c3'), { type: 'text', text: 'never sent' }],
      // 100 prompt tokens at $1000 per 1M = $0.10 a request.
      settings: (s) => ({ ...s, taskBudgetUsd: 0.25, prices: { 'gpt-4o': { input: 1000, output: 0 } } }),
    });
    assert.equal(await r.agent.send('read a few times'), 'waiting');
    assert.equal(r.server.chatRequests().length, 3, 'the 4th request was never sent');
    const errors = r.cards('error').map((e) => e.message);
    assert.ok(errors.some((m) => /80% of this task's budget is spent: \$0\.20 of \$0\.25/.test(m)));
    assert.ok(errors.some((m) => /budget of \$0\.25 is used up \(\$0\.30 spent\)/.test(m)));
    const q = r.cards('question').at(-1)!;
    assert.match(q.question.question, /budget of \$0\.25 is used up/);
    assert.equal(q.question.default, 'stop');
    const usage = r.cards('usage');
    assert.ok(usage.every((u) => Math.abs(u.cost_usd! - 0.1) < 1e-9), 'each request shows its cost');
  });

  it('says when the budget cannot count a model with no known price, and when its window is a guess', async () => {
    const r = await rig({ steps: [{ type: 'text', text: 'hi' }], settings: (s) => ({ ...s, models: { planner: 'my-local-model', actor: 'my-local-model' }, taskBudgetUsd: 1 }) });
    assert.equal(await r.agent.send('hello'), 'done');
    await new Promise((res) => setImmediate(res));
    assert.ok(r.cards('error').some((e) => /budget cannot count requests to my-local-model: its price is unknown/.test(e.message)));
    assert.ok(r.cards('text').some((c) => c.author === 'system' && /context window of my-local-model is not known \(the endpoint reports none at \/models or \/props\), so Tandem assumes 8,192 tokens/.test(c.text)));
  });

  it('says the context window is a guess once per task: not again for the other role\'s model, nor after a resume', async () => {
    const local = (s: AgentSettings): AgentSettings => ({ ...s, models: { planner: 'local-a', actor: 'local-b' } });
    const said = (cards: { author: string; text: string }[]) => cards.filter((c) => c.author === 'system' && /context window of .* is not known/.test(c.text)).length;
    const r1 = await rig({ role: 'planner', steps: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }], settings: local });
    assert.equal(await r1.agent.send('first'), 'done');
    r1.agent.setRole('actor');
    assert.equal(await r1.agent.send('second'), 'done');
    assert.equal(said(r1.cards('text')), 1, 'once for both models');
    await r1.close();
    rigs.splice(rigs.indexOf(r1), 1);
    const r2 = await rig({ resumeId: r1.session.id, steps: [{ type: 'text', text: 'three' }], settings: local });
    assert.equal(await r2.agent.send('third'), 'done');
    assert.equal(said(r2.cards('text')), 1, 'not again after the resume');
  });

  it('goes on past the budget when the user says so', async () => {
    const read = (id: string): ScriptStep => ({ type: 'tool_calls', calls: [{ id, name: 'read_file', arguments: { path: 'a.txt' } }] });
    const asked: string[] = [];
    const r = await rig({
      steps: [read('c1'), read('c2'), { type: 'text', text: 'finished' }],
      asker: { ask: async (q) => (asked.push(q.question), 'raise') },
      settings: (s) => ({ ...s, taskBudgetUsd: 0.15, prices: { 'gpt-4o': { input: 1000, output: 0 } } }),
    });
    assert.equal(await r.agent.send('go'), 'done');
    assert.equal(asked.length, 1);
    assert.equal(r.server.chatRequests().length, 3);
    assert.equal(r.cards('question').at(-1)!.answer, 'raise');
  });
});
