/**
 * The task runtime as a host drives it: the Node host, history on disk and the scripted server on
 * a real socket; the chat's messages go through the protocol's handler table.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TaskRuntime } from '../../../src/core/runtime/taskRuntime';
import { resumeRefusal } from '../../../src/core/runtime/resumeRefusal';
import { startTask, type RunningTask, type TaskStart } from '../../../src/core/runtime/runningTask';
import { combineHooks } from '../../../src/core/runtime/combineHooks';
import { HistoryStore, TaskLockedError } from '../../../src/core/history/historyStore';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { defaultSettings, type AgentSettings } from '../../../src/core/settings/settings';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { dispatchWebviewMessage, type Card, type HostEvent, type WebviewHandlers, type WebviewMessage, type WebviewReply } from '../../../src/protocol';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { harness } from '../../support/agentHarness';
import type { CountedUsage, SettledToolCall } from '../../../src/core/turn/turnHooks';
import { loadWebviewModule } from '../webview/loadWebviewModule';

type StoreMod = typeof import('../webview/webviewState.entry');

const plan = {
  format_version: '1.0', goal: 'Greet Tandem', estimated_total_time: '1 min', risks: [], prerequisites: [],
  steps: [{ step_number: 1, action: 'Write hello.txt', reason: 'asked', tools_needed: ['write_file'], estimated_time: '1 min', files: ['hello.txt'] }],
};

describe('task runtime: start, resume and routing for a host', function () {
  this.timeout(30_000);
  let tmp: string;
  let ws: string;
  let store: HistoryStore;
  let server: ScriptedServer;
  const runtimes: TaskRuntime[] = [];

  beforeEach(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-runtime-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'greeting.txt'), 'Hello, world\n');
    store = new HistoryStore(path.join(tmp, 'history'));
    server = await ScriptedServer.start([]);
  });
  afterEach(async () => {
    for (const r of runtimes.splice(0)) {
      r.agent.stop();
      await r.close();
    }
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A runtime as a chat host wires it: every event to the view, and a handler table for the chat's messages. */
  function host(steps: ScriptStep[]) {
    server.replace(steps);
    const settings: AgentSettings = defaultSettings({
      baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' },
      approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: false } },
    });
    settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
    const view: (HostEvent | WebviewReply)[] = [];
    const changed: RunningTask[] = [];
    const runtime = new TaskRuntime(
      { host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), settings: () => settings, history: store },
      { onEvent: (e) => view.push(e), onTaskChanged: (t) => { changed.push(t); view.push(t.snapshot()); } },
    );
    runtimes.push(runtime);
    // The host's own messages (approvals, answers, setup) are not the runtime's: here they only say they arrived.
    const hostSide: string[] = [];
    const handlers: WebviewHandlers = {
      ...runtime.handlers,
      ready: () => runtime.task.snapshot() as Extract<HostEvent, { type: 'snapshot' }>,
      approve: (m) => void hostSide.push(m.type), reject: (m) => void hostSide.push(m.type), open_diff: (m) => void hostSide.push(m.type), answer: (m) => void hostSide.push(m.type),
      test_connection: () => ({ type: 'connection_result', ok: true }), save_settings: () => ({ type: 'connection_result', ok: true }),
      open_file_diff: (m) => void hostSide.push(m.type), open_file: (m) => void hostSide.push(m.type), resume_task: (m) => void hostSide.push(m.type), set_api_key: (m) => void hostSide.push(m.type),
      mention_search: (m) => ({ type: 'mention_results', query: m.query, paths: [] }),
      allow_command: (m) => void hostSide.push(m.type), remove_allowed_command: (m) => void hostSide.push(m.type), set_model: (m) => void hostSide.push(m.type), forget_fact: (m) => void hostSide.push(m.type),
    };
    const chat = (msg: WebviewMessage) => dispatchWebviewMessage(handlers, msg, (r) => view.push(r));
    const cardsOf = <K extends Card['kind']>(kind: K) => runtime.agent.cards().filter((c): c is Extract<Card, { kind: K }> => c.kind === kind);
    return { runtime, view, changed, chat, cardsOf, hostSide };
  }

  it('starts a task that answers the chat, plans, executes and reverts through the handler table, and saves it', async () => {
    const h = host([
      { type: 'tool_calls', calls: [{ id: 'call_plan', name: 'propose_plan', arguments: plan }] },
      { type: 'tool_calls', calls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello, Tandem\n' } }] },
      { type: 'text', text: 'Done.' },
    ]);
    await h.chat({ type: 'send', text: 'Greet Tandem' });
    const planCard = h.cardsOf('plan')[0]!;
    assert.ok(planCard.plan, 'the Planner answered with a plan');
    await h.chat({ type: 'execute_plan', card_id: planCard.id });
    assert.equal(h.runtime.agent.role, 'actor');
    assert.equal(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8'), 'Hello, Tandem\n');
    await h.runtime.task.settled();
    const written = h.cardsOf('tool_call').find((c) => c.call_id === 'call_write')!;
    assert.equal(written.revertible, true, 'the checkpoint marked the call revertible once it settled');

    await h.chat({ type: 'revert_call', call_id: 'call_write' });
    assert.equal(fs.existsSync(path.join(ws, 'hello.txt')), false, 'the created file is gone again');
    const revertNote = h.cardsOf('text').find((c) => c.note === 'revert');
    assert.ok(revertNote, 'the revert is said in the chat, as a revert note');
    assert.ok(h.view.some((e) => 'seq' in e && e.type === 'card_patched' && e.id === written.id && e.patch.reverted === true), 'the view saw the card reverted');

    // `ready` is answered through the table with the whole visible state.
    h.view.length = 0;
    await h.chat({ type: 'ready' });
    const snap = h.view[0] as Extract<HostEvent, { type: 'snapshot' }>;
    assert.equal(snap.type, 'snapshot');
    assert.equal(snap.task_id, h.runtime.task.id);
    assert.deepEqual(snap.cards, h.runtime.agent.cards());

    await h.runtime.close();
    const saved = await store.load(h.runtime.task.id);
    assert.equal(saved.meta.title, 'Greet Tandem');
    assert.equal(saved.meta.role, 'actor');
    assert.deepEqual(saved.cards.map((c) => c.id), h.runtime.agent.cards().map((c) => c.id), 'history holds exactly what the chat showed');
  });

  it('the user\'s own role switch (the role control) puts no "Switched to…" note in the chat; a switch made elsewhere (the palette) does', async () => {
    const S = await loadWebviewModule<StoreMod>('test/unit/webview/webviewState.entry.ts');
    const h = host([]);
    const webview = new S.ChatStore();
    const shown = () => {
      for (const e of h.view.splice(0)) for (const item of S.decodeInbound(JSON.parse(JSON.stringify(e)))) if (item.kind === 'event') webview.apply(item.event);
      return { role: webview.role, notice: webview.roleNotice };
    };
    await h.chat({ type: 'ready' });
    await h.chat({ type: 'set_role', role: 'actor' });
    assert.deepEqual(shown(), { role: 'actor', notice: null }, 'the user just did it: no note');
    h.runtime.setRole('planner', 'switched from the command palette');
    assert.deepEqual(shown(), { role: 'planner', notice: 'switched from the command palette' });
  });

  it('new_task starts clean in the Planner; the replaced task is saved and its late events never reach the new view', async () => {
    const h = host([{ type: 'text', text: 'First answer.', chunkDelayMs: 20, chunkSize: 2 }]);
    await h.chat({ type: 'set_role', role: 'actor' });
    const first = h.runtime.task;
    const running = h.chat({ type: 'send', text: 'Say something long' });
    await new Promise((r) => setTimeout(r, 60));
    await h.chat({ type: 'new_task' });
    const second = h.runtime.task;
    assert.notEqual(second.id, first.id);
    assert.equal(h.changed.length, 1);
    const at = h.view.length;
    await running;
    const late = h.view.slice(at).filter((e) => 'seq' in e && e.type !== 'snapshot');
    assert.deepEqual(late, [], 'the stopped task spoke no more into the new view');
    assert.equal(second.agent.role, 'planner');
    assert.deepEqual(second.agent.cards(), []);
    await first.close();
    const saved = await store.load(first.id);
    assert.equal(saved.meta.title, 'Say something long');
    assert.equal(saved.meta.role, 'actor');
  });

  it('resuming the task just switched away from opens it, rather than saying this very window holds it', async () => {
    const h = host([{ type: 'text', text: 'Noted.' }]);
    await h.chat({ type: 'send', text: 'Remember PLUM' });
    const first = h.runtime.task.id;
    await h.chat({ type: 'new_task' });
    // At once, while the replaced task is still being saved and let go.
    await h.runtime.resume(first);
    assert.equal(h.runtime.task.id, first, 'the task opened');
  });

  it('resumes a saved task: its cards and role come back, the model gets the earlier turns, and new events are recorded', async () => {
    const a = host([{ type: 'text', text: 'Hello! I read nothing yet.' }, { type: 'text', text: 'You asked me to say hello.' }]);
    await a.chat({ type: 'send', text: 'Say hello' });
    const id = a.runtime.task.id;
    await a.runtime.close();

    const b = host([{ type: 'text', text: 'You asked me to say hello.' }]);
    await b.runtime.resume(id.slice(0, 14));
    assert.equal(b.runtime.task.id, id);
    assert.equal(b.runtime.task.resumed, true);
    const snap = b.view.find((e): e is Extract<HostEvent, { type: 'snapshot' }> => 'seq' in e && e.type === 'snapshot')!;
    assert.equal(snap.task_id, id);
    assert.deepEqual(snap.cards.map((c) => (c.kind === 'text' ? c.text : c.kind)), ['Say hello', 'Hello! I read nothing yet.', 'usage']);
    assert.equal(b.runtime.agent.role, 'planner');
    await b.chat({ type: 'send', text: 'What did I ask?' });
    const sent = server.chatRequests().at(-1)!.messages as { role: string; content: string }[];
    assert.deepEqual(sent.slice(1).map((m) => [m.role, m.content]), [['user', 'Say hello'], ['assistant', 'Hello! I read nothing yet.'], ['user', 'What did I ask?']]);
    await b.runtime.close();
    const saved = await store.load(id);
    assert.equal(saved.cards.filter((c) => c.kind === 'text' && c.author === 'user').length, 2, 'both sessions are in the one saved task');
  });

  it('edit_message cuts the task before the message, reverts the files changed after it when asked, and saves the shorter task', async () => {
    const h = host([
      { type: 'tool_calls', calls: [{ id: 'call_a', name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } }] },
      { type: 'text', text: 'Wrote a.' },
      { type: 'text', text: 'Fine, nothing written.' },
    ]);
    await h.chat({ type: 'set_role', role: 'actor' });
    await h.chat({ type: 'send', text: 'Write a.txt' });
    await h.runtime.task.settled();
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'A\n');
    const mine = h.cardsOf('text').find((c) => c.author === 'user')!;
    const before = h.runtime.agent.cards().filter((c) => c.ts < mine.ts).map((c) => c.id);

    await h.chat({ type: 'edit_message', card_id: mine.id, text: 'Write nothing', files: 'revert' });
    assert.equal(fs.existsSync(path.join(ws, 'a.txt')), false, 'the file the dropped turn created is gone');
    const texts = h.cardsOf('text').map((c) => c.text);
    assert.ok(!texts.includes('Write a.txt') && !texts.includes('Wrote a.'), `the old message and reply are dropped: ${JSON.stringify(texts)}`);
    assert.ok(texts.includes('Write nothing') && texts.includes('Fine, nothing written.'));
    assert.match(texts.find((t) => t.startsWith('You edited')) ?? '', /put back \(a\.txt removed/);
    assert.equal(h.cardsOf('tool_call').length, 0);
    const sent = server.chatRequests().at(-1)!.messages as { role: string; content: string }[];
    assert.ok(!JSON.stringify(sent).includes('Write a.txt'), 'the model no longer sees the old message');
    assert.match(sent.filter((m) => m.role === 'user').map((m) => m.content).join('\n'), /Write nothing/);
    assert.ok(h.view.some((e) => 'seq' in e && e.type === 'snapshot' && !e.cards.some((c) => c.id === mine.id)), 'the view got the cut task');
    assert.ok(before.every((id) => h.runtime.agent.cards().some((c) => c.id === id)), 'what came before the message stays');

    const id = h.runtime.task.id;
    await h.runtime.close();
    const saved = await store.load(id);
    assert.deepEqual(saved.cards.map((c) => c.id), h.runtime.agent.cards().map((c) => c.id), 'history holds the task as cut, not the dropped cards');
  });

  it('edit_message can keep the files as they are (the model is told), and refuses a card that is not one of the user\'s messages', async () => {
    const h = host([
      { type: 'tool_calls', calls: [{ id: 'call_b', name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }] },
      { type: 'text', text: 'Wrote b.' },
      { type: 'text', text: 'Keeping b.' },
    ]);
    await h.chat({ type: 'set_role', role: 'actor' });
    await h.chat({ type: 'send', text: 'Write b.txt' });
    await h.runtime.task.settled();
    const mine = h.cardsOf('text').find((c) => c.author === 'user')!;
    await h.chat({ type: 'edit_message', card_id: mine.id, text: 'Write b.txt, and say so', files: 'keep' });
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'B\n', 'kept');
    const sent = server.chatRequests().at(-1)!.messages as { role: string; content: string }[];
    assert.match(sent.filter((m) => m.role === 'user').map((m) => m.content).join('\n'), /kept as they are now: b\.txt/);

    // Not one of the user's messages: nothing is dropped, and the chat says why.
    const answer = h.cardsOf('text').find((c) => c.author === 'assistant')!;
    const count = h.runtime.agent.cards().length;
    await h.chat({ type: 'edit_message', card_id: answer.id, text: 'x', files: 'keep' });
    assert.equal(h.runtime.agent.cards().length, count + 1);
    assert.match(h.cardsOf('error').at(-1)!.message, /not one of your messages/);
  });

  it('tells the host how much of the window each request takes (the context meter)', async () => {
    server.replace([{ type: 'text', text: 'Short.' }, { type: 'text', text: 'Long.' }]);
    const settings: AgentSettings = defaultSettings({ baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' } });
    settings.limits = { ...settings.limits, maxRetries: 0 };
    const measured: { model: string; used: number; window: number; known: boolean }[] = [];
    const runtime = new TaskRuntime(
      { host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), settings: () => settings, history: store },
      { onEvent: () => undefined, onContextMeasured: (m) => void measured.push(m) },
    );
    runtimes.push(runtime);
    await runtime.agent.send('Hi');
    await runtime.agent.send(`Read this: ${'lorem ipsum dolor sit amet '.repeat(400)}`);
    assert.equal(measured.length, 2);
    assert.deepEqual(measured.map((m) => [m.model, m.window, m.known]), [['gpt-4o', 128_000, true], ['gpt-4o', 128_000, true]]);
    assert.ok(measured[0]!.used > 50, `the first request has the system prompt and tools (${measured[0]!.used})`);
    assert.ok(measured[1]!.used > measured[0]!.used + 1500, `the long message shows (${measured[0]!.used} → ${measured[1]!.used})`);
  });

  it('a task that cannot be opened is not resumed, and the current task stays as it was', async () => {
    const b = host([{ type: 'text', text: 'Hi.' }]);
    await b.chat({ type: 'send', text: 'Hi' });
    const before = b.runtime.task;
    await assert.rejects(b.runtime.resume('t-no-such-task'), /No task with id t-no-such-task/);
    assert.equal(b.runtime.task, before);
    assert.equal(b.changed.length, 0);
    assert.equal(before.agent.cards().length > 0, true);
  });
});

describe('agent hooks: the parts around a task are told, not watching the events', function () {
  this.timeout(20_000);

  it('tells each settled tool call once with its final status, each counted request, and the turn\'s end after turn_ended', async () => {
    const settled: SettledToolCall[] = [];
    const usage: CountedUsage[] = [];
    const order: string[] = [];
    const h = await harness({
      role: 'planner',
      files: { 'a.txt': 'alpha\n' },
      steps: [
        { type: 'tool_calls', calls: [{ id: 'c_read', name: 'read_file', arguments: { path: 'a.txt' } }, { id: 'c_write', name: 'write_file', arguments: { path: 'b.txt', content: 'x' } }], usage: { prompt_tokens: 1000, completion_tokens: 10 } },
        { type: 'text', text: 'Read it; writing is not mine to do.', usage: { prompt_tokens: 1200, completion_tokens: 20 } },
      ],
      hooks: {
        onEvent: (e) => { if (e.type === 'turn_ended') order.push('event:turn_ended'); },
        onToolCallSettled: (c) => void settled.push(c),
        onUsage: (u) => void usage.push(u),
        onTurnEnded: (o) => void order.push(`hook:${o}`),
      },
    });
    try {
      assert.equal(await h.agent.send('look at a.txt'), 'done');
      const cardOf = (callId: string) => h.toolCards().find((c) => c.call_id === callId)!.id;
      assert.deepEqual(settled, [
        { callId: 'c_read', cardId: cardOf('c_read'), tool: 'read_file', status: 'done' },
        { callId: 'c_write', cardId: cardOf('c_write'), tool: 'write_file', status: 'refused' },
      ]);
      assert.deepEqual(usage.map((u) => [u.model, u.role, u.tokensIn, u.tokensOut, u.outcome]), [['planner-model', 'planner', 1000, 10, 'tool_calls'], ['planner-model', 'planner', 1200, 20, 'ok']]);
      assert.deepEqual(order, ['event:turn_ended', 'hook:done']);
    } finally {
      await h.close();
    }
  });

  it('combines the parts\' hooks, in order, and refuses two context fitters', async () => {
    const seen: string[] = [];
    const hooks = combineHooks(
      { onTurnEnded: (o) => void seen.push(`a:${o}`), beforeChange: async () => void seen.push('a:before') },
      undefined,
      { onTurnEnded: (o) => void seen.push(`b:${o}`), onUsage: (u) => void seen.push(`b:${u.model}`) },
    );
    hooks.onTurnEnded!('done');
    hooks.onUsage!({ model: 'm', role: 'planner', tokensIn: 1, tokensOut: 1, outcome: 'ok' });
    await hooks.beforeChange!('/x', 'c1');
    assert.deepEqual(seen, ['a:done', 'b:done', 'b:m', 'a:before']);
    assert.equal(hooks.onEvent, undefined);
    assert.throws(() => combineHooks({ fitContext: async (m) => m }, { fitContext: async (m) => m }), /more than one part fits the context/);
  });

  it('every task fits its requests with its own context fitting: a host\'s hooks cannot take its place', () => {
    const host = createNodeHost({ roots: [fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-fit-'))] });
    const settings = defaultSettings({ baseURL: 'http://127.0.0.1:9', apiKey: 'k', models: { planner: 'p', actor: 'a' } });
    // Typed out of TaskStart: only a caller that goes around the types can try, and the runtime still refuses.
    const hooks = { fitContext: async (m: unknown[]) => m } as unknown as TaskStart['hooks'];
    assert.throws(() => startTask({ host, settings: () => settings }, { sink: () => {}, hooks }), /more than one part fits the context/);
    fs.rmSync(host.fs.roots[0]!, { recursive: true, force: true });
  });
});

describe('a task open elsewhere, as the chat says it', () => {
  it('names another window or terminal, never the process id', () => {
    const r = resumeRefusal('t1', new TaskLockedError('t1', 26647));
    assert.equal(r.canTakeOver, true);
    assert.match(r.reason, /open in another window or terminal/);
    assert.doesNotMatch(r.reason, /26647|process/);
  });
});
