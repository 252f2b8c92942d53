/**
 * A window that closes or reloads with a task open opens that task again when it starts: the Node
 * host, history on disk and the scripted server on a real socket, two runtimes on one history
 * folder standing for the window before and after. The memory is what the editor keeps in the
 * workspace's state.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TaskRuntime } from '../../../src/core/runtime/taskRuntime';
import type { ResumeRefusal } from '../../../src/core/runtime/resumeRefusal';
import type { OpenTaskMemory } from '../../../src/core/runtime/reopenTask';
import type { ContextMeasure } from '../../../src/core/runtime/taskContextFitting';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { defaultSettings, type AgentSettings } from '../../../src/core/settings/settings';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import type { Approver } from '../../../src/core/ports/ports';
import type { Card, HostEvent } from '../../../src/protocol';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { waitUntil } from '../../support/wait';

describe('the task open when the window closed opens again when it starts', function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let historyDir: string;
  let server: ScriptedServer;
  const runtimes: TaskRuntime[] = [];

  beforeEach(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-reopen-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'old\n');
    historyDir = path.join(tmp, 'history');
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

  /** What the editor keeps in the workspace's state, here in memory (shared by the windows "before" and "after"). */
  function memory(initial?: string): OpenTaskMemory & { value: string | undefined; writes: (string | undefined)[] } {
    const m = {
      value: initial,
      writes: [] as (string | undefined)[],
      get: () => m.value,
      set: (id: string | undefined) => { m.value = id; m.writes.push(id); },
    };
    return m;
  }

  /** One window: a runtime on its own store object over the shared history folder. */
  function windowWith(mem: OpenTaskMemory, o: { approver?: Approver } = {}) {
    const settings: AgentSettings = defaultSettings({
      baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' }, contextWindow: 128_000,
      approval: { mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false }, planScope: false },
    });
    settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
    const view: HostEvent[] = [];
    const refused: ResumeRefusal[] = [];
    const measured: ContextMeasure[] = [];
    const runtime = new TaskRuntime(
      { host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none'), ...(o.approver ? { approver: o.approver } : {}) }), settings: () => settings, history: new HistoryStore(historyDir) },
      {
        onEvent: (e) => view.push(e),
        onTaskChanged: (t) => view.push(t.snapshot()),
        onResumeRefused: (r) => refused.push(r),
        onContextMeasured: (m) => measured.push(m),
      },
      mem,
    );
    runtimes.push(runtime);
    return { runtime, view, refused, measured };
  }

  async function closeWindow(w: { runtime: TaskRuntime }): Promise<void> {
    runtimes.splice(runtimes.indexOf(w.runtime), 1);
    await w.runtime.close();
  }

  const kinds = (cards: readonly Card[]) => cards.map((c) => (c.kind === 'text' ? `${c.author}: ${c.text}` : c.kind));

  it('a finished task opens as it was (its cards), the model gets its turns, and the window keeps it open', async () => {
    server.replace([{ type: 'text', text: 'Noted: PLUM.' }, { type: 'text', text: 'The word was PLUM.' }]);
    const mem = memory();
    const before = windowWith(mem);
    await before.runtime.agent.send('Remember the word PLUM');
    const id = before.runtime.task.id;
    assert.equal(mem.value, id, 'the task is remembered once it has a card');
    const shown = kinds(before.runtime.agent.cards());
    await closeWindow(before);

    const after = windowWith(mem);
    assert.deepEqual(after.runtime.agent.cards(), [], 'it starts empty, as every window does');
    const r = await after.runtime.reopen();
    assert.equal(r.outcome, 'opened');
    assert.equal(after.runtime.task.id, id);
    assert.deepEqual(kinds(after.runtime.agent.cards()), shown, 'the cards as they were');
    const snap = after.view.filter((e): e is Extract<HostEvent, { type: 'snapshot' }> => e.type === 'snapshot').at(-1);
    assert.equal(snap?.task_id, id, 'the view was given the task');
    assert.deepEqual(after.refused, [], 'nothing to tell');

    await after.runtime.agent.send('Which word?');
    const sent = JSON.stringify(server.chatRequests().at(-1)!.messages);
    assert.ok(sent.includes('Remember the word PLUM') && sent.includes('Noted: PLUM.'), 'the earlier turn went with the next request');
  });

  it('a task that was running comes back stopped, its cards kept, and goes on with the next message', async () => {
    // The approval nobody answers: the window goes away while it waits.
    const waiting: Approver = { request: (_req, signal) => new Promise((_res, rej) => signal.addEventListener('abort', () => rej(new Error('stopped')), { once: true })) };
    server.replace([
      { type: 'tool_calls', calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'fresh.txt', content: 'new\n' } }] },
      { type: 'text', text: 'Carrying on.' },
    ]);
    const mem = memory();
    const before = windowWith(mem, { approver: waiting });
    before.runtime.setRole('actor');
    const sent = before.runtime.agent.send('Write fresh.txt');
    let ended: unknown;
    sent.then((o) => { ended = o; }, (e: unknown) => { ended = e; });
    await waitUntil(() => ended !== undefined || before.runtime.agent.cards().some((c) => c.kind === 'tool_call' && c.status === 'pending'), 'the approval to wait');
    assert.equal(ended, undefined, `the turn waits for the approval: ${JSON.stringify(before.runtime.agent.cards())}`);
    const id = before.runtime.task.id;
    // Saved as it is, approval still waiting (what a window that reloads leaves behind).
    await before.runtime.task.close();
    runtimes.splice(runtimes.indexOf(before.runtime), 1);
    before.runtime.agent.stop();

    const after = windowWith(mem);
    assert.equal((await after.runtime.reopen()).outcome, 'opened');
    assert.equal(after.runtime.task.id, id);
    const call = after.runtime.agent.cards().find((c) => c.kind === 'tool_call');
    assert.equal(call?.kind === 'tool_call' && call.status, 'stopped', 'the waiting approval came back stopped, not waiting for a click nothing hears');
    assert.match(call?.kind === 'tool_call' ? call.error ?? '' : '', /^Interrupted: the task was closed/);
    assert.ok(after.runtime.agent.cards().some((c) => c.kind === 'text' && c.author === 'user' && c.text === 'Write fresh.txt'));
    assert.equal(after.runtime.agent.busy, false, 'nothing runs');
    assert.equal(after.runtime.agent.role, 'actor', 'in the role it was in');
    assert.equal(fs.existsSync(path.join(ws, 'fresh.txt')), false, 'the unapproved file was not written');
    await after.runtime.agent.send('Go on');
    assert.ok(after.runtime.agent.cards().some((c) => c.kind === 'text' && c.text === 'Carrying on.'));
  });

  it('held by another window: told so with Take over (a window, never a process), and opened by itself once that window lets go', async () => {
    server.replace([{ type: 'text', text: 'Noted.' }]);
    const mem = memory();
    const other = windowWith(mem);
    await other.runtime.agent.send('Remember KIWI');
    const id = other.runtime.task.id;

    const here = windowWith(mem);
    const r = await here.runtime.reopen();
    assert.equal(r.outcome, 'held');
    assert.equal(here.refused.length, 1);
    assert.equal(here.refused[0]!.taskId, id);
    assert.equal(here.refused[0]!.canTakeOver, true);
    assert.match(here.refused[0]!.reason, /open in another window/);
    assert.doesNotMatch(here.refused[0]!.reason, /process|pid|\d{3,}/i);
    assert.deepEqual(here.runtime.agent.cards(), [], 'the chat stays empty meanwhile');

    await closeWindow(other);
    assert.equal(await r.retried, 'opened');
    assert.equal(here.runtime.task.id, id);
    assert.equal(here.refused.length, 1, 'told once, not at every try');
  });

  it('held by another window: once the user starts something here, the task is no longer opened over it', async () => {
    server.replace([{ type: 'text', text: 'Noted.' }, { type: 'text', text: 'Something else.' }]);
    const mem = memory();
    const other = windowWith(mem);
    await other.runtime.agent.send('Remember KIWI');
    const here = windowWith(mem);
    const r = await here.runtime.reopen();
    assert.equal(r.outcome, 'held');
    await here.runtime.agent.send('Do something else');
    const mine = here.runtime.task.id;
    await closeWindow(other);
    assert.equal(await r.retried, 'none');
    assert.equal(here.runtime.task.id, mine, 'the user\'s own task stays');
  });

  it('gone from history: the chat opens empty with one line saying so, and the window forgets it', async () => {
    const mem = memory('t20990101-000000-abcdef');
    const w = windowWith(mem);
    const first = w.runtime.task;
    assert.equal((await w.runtime.reopen()).outcome, 'unavailable');
    assert.equal(w.runtime.task, first, 'the empty task stays');
    assert.equal(w.refused.length, 1);
    assert.equal(w.refused[0]!.canTakeOver, false);
    assert.match(w.refused[0]!.reason, /no longer in its history/);
    assert.doesNotMatch(w.refused[0]!.reason, /\n/, 'one line');
    assert.equal(mem.value, undefined, 'not tried again at the next start');
  });

  it('unreadable: the chat opens empty with one line saying why, and the saved files are left as they were', async () => {
    server.replace([{ type: 'text', text: 'Noted.' }]);
    const mem = memory();
    const before = windowWith(mem);
    await before.runtime.agent.send('Remember FIG');
    const id = before.runtime.task.id;
    await closeWindow(before);
    const dir = path.join(historyDir, 'tasks', id);
    // Saved by a newer Tandem than this one (the user went back a version).
    fs.writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ format_version: 99, gen: 0, cards: [], meta: {} }));
    const files = () => Object.fromEntries(fs.readdirSync(dir).filter((f) => !f.startsWith('writer.lock')).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
    const saved = files();

    const after = windowWith(mem);
    assert.equal((await after.runtime.reopen()).outcome, 'unavailable');
    assert.deepEqual(after.runtime.agent.cards(), []);
    assert.equal(after.refused.length, 1);
    assert.match(after.refused[0]!.reason, /^The task last open in this workspace could not be read: .*saved by a newer Tandem.*\. It is left as it is, and a new task is open\.$/);
    assert.doesNotMatch(after.refused[0]!.reason, /\n/, 'one line');
    assert.deepEqual(files(), saved, 'nothing of it was changed');
    assert.equal(mem.value, undefined);
  });

  it('a new window, or one whose last task was New Task, opens the empty chat; a new task is remembered from its first card', async () => {
    server.replace([{ type: 'text', text: 'One.' }, { type: 'text', text: 'Two.' }]);
    const fresh = memory();
    const w = windowWith(fresh);
    assert.equal((await w.runtime.reopen()).outcome, 'none');
    assert.deepEqual(w.refused, []);
    assert.deepEqual(fresh.writes, [], 'an empty task is not remembered');

    await w.runtime.agent.send('First task');
    const first = w.runtime.task.id;
    assert.equal(fresh.value, first);
    w.runtime.newTask();
    assert.equal(fresh.value, undefined, 'New Task: the next start opens empty');
    await w.runtime.agent.send('Second task');
    assert.equal(fresh.value, w.runtime.task.id);
    await w.runtime.resume(first);
    assert.equal(fresh.value, first, 'a task resumed from History is the one open');
  });

  it('New Task from the chat: the window has forgotten the old task before the chat shows the new one (a reload right after must not bring it back)', async () => {
    server.replace([{ type: 'text', text: 'Noted.' }]);
    // The editor's workspace state is written by the workbench: `set` settles once the workbench has the value.
    const stored: (() => void)[] = [];
    const mem = memory();
    const slow: OpenTaskMemory = { get: mem.get, set: (id) => { mem.set(id); return new Promise<void>((r) => stored.push(r)); } };
    const w = windowWith(slow);
    await w.runtime.agent.send('Remember FIG');
    const old = w.runtime.task.id;
    assert.equal(mem.value, old);
    stored.splice(0).forEach((r) => r());
    const shownBefore = w.view.filter((e) => e.type === 'snapshot').length;

    const done = w.runtime.handlers.new_task({ type: 'new_task' });
    await waitUntil(() => stored.length > 0, 'the window to forget the old task');
    assert.equal(mem.value, undefined);
    assert.equal(w.view.filter((e) => e.type === 'snapshot').length, shownBefore, 'the new task is not shown while the forgetting is not stored');
    assert.equal(w.runtime.task.id, old);
    stored.splice(0).forEach((r) => r());
    await done;
    assert.equal(w.view.filter((e) => e.type === 'snapshot').length, shownBefore + 1, 'then the empty task is shown');
    assert.notEqual(w.runtime.task.id, old);
    assert.equal(w.runtime.agent.cards().length, 0);
  });

  it('a resumed task\'s context meter shows its conversation against the window before the next request', async () => {
    server.replace([{ type: 'text', text: 'Read it.' }]);
    const mem = memory();
    const before = windowWith(mem);
    await before.runtime.agent.send(`Keep this in mind: ${'lorem ipsum dolor sit amet '.repeat(400)}`);
    const last = before.measured.at(-1)!;
    assert.ok(last.used > 2000, `the long message was measured (${last.used})`);
    const id = before.runtime.task.id;
    await closeWindow(before);

    const asked = server.chatRequests().length;
    const after = windowWith(mem);
    await after.runtime.resume(id);
    await waitUntil(() => after.measured.length > 0, 'the meter of the resumed task');
    assert.equal(server.chatRequests().length, asked, 'no request was made for it');
    const m = after.measured[0]!;
    assert.deepEqual([m.model, m.window, m.known], ['gpt-4o', 128_000, true]);
    // The last request and the answer to it; the project's instructions (none here) are left out.
    assert.ok(m.used >= last.used && m.used < last.used + 200, `the conversation as it stands (${last.used} → ${m.used})`);
  });
});
