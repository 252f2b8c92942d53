import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { HistoryStore, TaskLockedError } from '../../../src/core/history/historyStore';
import { LOCK_BEAT_MS, LOCK_STALE_MS } from '../../../src/core/history/taskLock';
import { waitUntil } from '../../support/wait';
import type { TaskRecorder } from '../../../src/core/history/taskRecorder';
import { exportMarkdown } from '../../../src/core/history/exportMarkdown';
import { rebuildMessages } from '../../../src/core/history/rebuildMessages';
import { cliHistoryDir } from '../../../src/core/history/storageDir';
import type { Card, HostEvent, HostEventInput, Plan } from '../../../src/protocol';

function feeder(rec: TaskRecorder) {
  let seq = 0;
  return (e: HostEventInput) => rec.onEvent({ ...e, seq: ++seq } as HostEvent);
}

const plan: Plan = {
  format_version: '1.0', goal: 'Add a greeting', estimated_total_time: '1m', risks: [], prerequisites: [],
  steps: [{ step_number: 1, action: 'Create hello.txt', reason: 'asked', tools_needed: ['write_file'], estimated_time: '1m', files: ['hello.txt'] }],
};

/** One planner turn and one actor turn, as the loop would emit them. */
function playTask(emit: ReturnType<typeof feeder>, streamed: string) {
  emit({ type: 'card_added', card: { kind: 'text', id: 'u1', author: 'user', text: 'Please add a greeting file\nwith details', ts: 1000 } });
  emit({ type: 'card_added', card: { kind: 'text', id: 'a1', author: 'assistant', text: '', streaming: true, role: 'planner', ts: 1001 } });
  for (let i = 0; i < streamed.length; i += 3) emit({ type: 'text_appended', id: 'a1', text: streamed.slice(i, i + 3) });
  emit({ type: 'card_patched', id: 'a1', patch: { streaming: false } });
  emit({ type: 'card_added', card: { kind: 'usage', id: 'us1', model: 'gpt-4o', role: 'planner', tokens_in: 2000, tokens_out: 100, latency_ms: 10, cost_usd: 0.006, outcome: 'ok', ts: 1002 } });
  emit({ type: 'card_added', card: { kind: 'plan', id: 'p1', version: 1, plan, errors: [], step_states: { '1': 'pending' }, ts: 1003 } });
  emit({ type: 'turn_ended', outcome: 'done' });
  emit({ type: 'role_changed', role: 'actor', reason: 'Execute plan' });
  emit({ type: 'card_added', card: { kind: 'tool_call', id: 'tc1', call_id: 'call_1', tool: 'write_file', summary: 'write hello.txt', args: { path: 'hello.txt', content: 'hi' }, status: 'pending', ts: 1004 } });
  emit({ type: 'card_patched', id: 'tc1', patch: { status: 'approved' } });
  emit({ type: 'card_patched', id: 'tc1', patch: { status: 'running' } });
  emit({ type: 'card_patched', id: 'tc1', patch: { status: 'done', result: 'Created hello.txt (1 line)' } });
  emit({ type: 'card_added', card: { kind: 'usage', id: 'us2', model: 'gpt-4o-mini', role: 'actor', tokens_in: 3000, tokens_out: 50, latency_ms: 10, outcome: 'ok', ts: 1005 } });
  emit({ type: 'card_added', card: { kind: 'text', id: 'a2', author: 'assistant', text: 'Created hello.txt.', role: 'actor', ts: 1006 } });
  emit({ type: 'card_patched', id: 'p1', patch: { step_states: { '1': 'done' } } });
  emit({ type: 'turn_ended', outcome: 'done' });
}

describe('history: task store', () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-hist-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('saves a task as it goes and loads the same cards, role, models, usage and provenance', async () => {
    const store = new HistoryStore(tmp);
    const provenance = { model: 'gpt-4o', raw: JSON.stringify(plan), path: 'tool' as const, attempts: [{ raw: '{bad', path: 'tool' as const, errors: ['steps: required'], at: 1 }], repairs: 1, createdAt: 1003 };
    const rec = store.create({ id: 'task1', workspace: '/ws', planProvenance: () => [{ cardId: 'p1', provenance }] });
    const streamed = 'Here is my plan for the greeting file. '.repeat(20);
    const emit = feeder(rec);
    playTask(emit, streamed);
    // No close(): turn ends are flushed at once, as a kill right now would find them.
    const t = await store.load('task1');
    assert.equal(t.cards.length, 7);
    const a1 = t.cards.find((c) => c.id === 'a1');
    assert.ok(a1?.kind === 'text' && a1.text === streamed && a1.streaming === false);
    const tc = t.cards.find((c) => c.id === 'tc1');
    assert.ok(tc?.kind === 'tool_call' && tc.status === 'done' && tc.result === 'Created hello.txt (1 line)');
    const p = t.cards.find((c) => c.id === 'p1');
    assert.ok(p?.kind === 'plan' && p.step_states['1'] === 'done');
    assert.equal(t.meta.title, 'Please add a greeting file');
    assert.equal(t.meta.role, 'actor');
    assert.deepEqual(t.meta.models, ['gpt-4o', 'gpt-4o-mini']);
    assert.equal(t.meta.usage.tokens_in, 5000);
    // gpt-4o-mini usage had no cost on the card: priced from the table (3000*0.15+50*0.6)/1e6.
    assert.ok(Math.abs(t.meta.usage.cost_usd! - (0.006 + 0.00048)) < 1e-9);
    assert.equal(t.meta.workspace, '/ws');
    assert.deepEqual(t.provenance.p1, provenance);
    rec.close();
  });

  it('stores streamed text once, not once per delta, and folds patches', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'task2' });
    const streamed = 'x'.repeat(5000);
    playTask(feeder(rec), streamed);
    rec.flush();
    const log = fs.readFileSync(path.join(tmp, 'tasks', 'task2', 'log-0.jsonl'), 'utf8');
    const count = log.split('xxxxxxxxxx').length - 1;
    assert.ok(log.length < 5000 + 4000, `log is ${log.length} bytes for 5000 chars of text`);
    assert.ok(count <= 500 + 5, 'the 5000 chars are on disk once');
    assert.equal(log.split('write hello.txt').length - 1, 1, 'the tool card is written once; later only its changed fields');
  });

  it('compacts into a snapshot and loads the same thing; reopening appends to the same task', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'task3', compactBytes: 200 });
    playTask(feeder(rec), 'streamed text '.repeat(30));
    rec.close();
    const t = await store.load('task3');
    assert.ok(t.gen > 0);
    assert.ok(fs.existsSync(path.join(tmp, 'tasks', 'task3', 'snapshot.json')));
    assert.equal(t.cards.length, 7);
    const { recorder, task } = await store.resume('task3');
    assert.equal(task.cards.length, 7);
    const emit = feeder(recorder);
    emit({ type: 'card_added', card: { kind: 'text', id: 'u2', author: 'user', text: 'one more thing', ts: 2000 } });
    emit({ type: 'turn_ended', outcome: 'done' });
    const again = await store.load('task3');
    assert.deepEqual(again.cards.map((c) => c.id), ['u1', 'a1', 'us1', 'p1', 'tc1', 'us2', 'a2', 'u2']);
    assert.equal(again.meta.role, 'actor');
  });

  it('reads every state a killed writer can leave: a cut last line, a stray temp file, an old log beside a new snapshot', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'task4' });
    playTask(feeder(rec), 'abc '.repeat(10));
    rec.flush();
    const dir = path.join(tmp, 'tasks', 'task4');
    fs.appendFileSync(path.join(dir, 'log-0.jsonl'), '{"k":"add","card":{"kind":"text","id":"half');
    fs.writeFileSync(path.join(dir, '.snapshot.json.123.abc.tmp'), '{"format_version":1,"gen":1,"cards":[{"ki');
    // Killed: its heartbeat stops (here it is still in this process, so its lock is aged by hand).
    fs.writeFileSync(path.join(dir, 'writer.lock'), JSON.stringify({ pid: process.pid, token: 'killed', beat: 0 }));
    let t = await store.load('task4');
    assert.equal(t.cards.length, 7);
    assert.equal(t.skippedLines, 0);
    assert.equal(fs.existsSync(path.join(dir, '.snapshot.json.123.abc.tmp')), false);
    // Snapshot renamed but the old log not yet deleted: the old log must be ignored.
    const r2 = (await store.resume('task4')).recorder;
    r2.compact();
    fs.writeFileSync(path.join(dir, 'log-0.jsonl'), '{"k":"add","card":{"kind":"text","id":"ghost","author":"user","text":"x","ts":1}}\n');
    t = await store.load('task4');
    assert.equal(t.cards.some((c) => c.id === 'ghost'), false);
    assert.equal(t.cards.length, 7);
  });

  it('lists tasks newest first with title, date, size and cost; deletes; resolves id prefixes', async () => {
    let clock = 10_000;
    const store = new HistoryStore(tmp);
    const a = store.create({ id: 'taskA', now: () => clock });
    playTask(feeder(a), 'first');
    a.close();
    clock = 20_000;
    const b = store.create({ id: 'taskB', now: () => clock });
    feeder(b)({ type: 'card_added', card: { kind: 'text', id: 'u1', author: 'user', text: 'Second task', ts: 20_000 } });
    b.close();
    const list = await store.list();
    assert.deepEqual(list.map((m) => m.id), ['taskB', 'taskA']);
    assert.equal(list[1].title, 'Please add a greeting file');
    assert.ok(list[1].bytes > 0 && list[1].usage.cost_usd! > 0 && list[1].cards === 7);
    assert.equal(await store.resolveId('taskA'), 'taskA');
    await assert.rejects(store.resolveId('task'), /ambiguous/);
    await assert.rejects(store.resolveId('nope'), /No task with id nope/);
    assert.equal(await store.delete('taskB'), 'taskB');
    assert.deepEqual((await store.list()).map((m) => m.id), ['taskA']);
    await assert.rejects(store.load('taskB'), /No task/);
  });

  it('a task opened and never used leaves nothing behind', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'empty' });
    feeder(rec)({ type: 'role_changed', role: 'actor' });
    feeder(rec)({ type: 'turn_ended', outcome: 'done' });
    rec.close();
    assert.deepEqual(await store.list(), []);
    assert.equal(fs.existsSync(path.join(tmp, 'tasks', 'empty')), false);
  });

  it('one writer per task: another live process holding it blocks resume and delete; a dead one is taken over', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'locked' });
    playTask(feeder(rec), 'x');
    rec.close();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(tmp, 'tasks', 'locked', 'writer.lock'), String(other.pid));
      await assert.rejects(store.resume('locked'), new RegExp(`open in another Tandem window or terminal \\(process ${other.pid}\\)`));
      await assert.rejects(store.delete('locked'), /close it there before deleting it/);
      assert.equal((await store.load('locked')).cards.length, 7, 'reading it is still fine');
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    const { recorder } = await store.resume('locked');
    assert.equal(JSON.parse(fs.readFileSync(path.join(tmp, 'tasks', 'locked', 'writer.lock'), 'utf8')).pid, process.pid);
    recorder.close();
    assert.equal(fs.existsSync(path.join(tmp, 'tasks', 'locked', 'writer.lock')), false);
  });

  it('a live holder whose heartbeat went stale (a closed browser tab\'s extension host) is taken over without asking, and writes nothing more', async () => {
    const first = new HistoryStore(tmp, { presence: async () => false });
    const rec = first.create({ id: 'stale' });
    playTask(feeder(rec), 'x');
    rec.close();
    let toldA = 0;
    const a = await first.resume('stale', { onTakeoverRequested: () => toldA++ });
    const second = new HistoryStore(tmp);
    await assert.rejects(second.resume('stale'), (e: Error) => e instanceof TaskLockedError && e.pid === process.pid);
    // Its window never answers, so it never beats again: as if LOCK_STALE_MS had passed.
    const lockFile = path.join(tmp, 'tasks', 'stale', 'writer.lock');
    const held = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { beat: number };
    fs.writeFileSync(lockFile, JSON.stringify({ ...held, beat: held.beat - LOCK_STALE_MS - 1 }));
    const b = await second.resume('stale');
    await waitUntil(() => toldA === 1, 'the old holder to be told', LOCK_BEAT_MS * 3);
    // The old holder's late events (its run stopping) are not written over the new writer's log.
    feeder(a.recorder)({ type: 'card_added', card: { kind: 'text', id: 'late', author: 'assistant', text: 'late', ts: 9 } });
    a.recorder.close();
    b.recorder.close();
    assert.equal((await second.load('stale')).cards.some((c) => c.id === 'late'), false);
  });

  it('Take over: the live holder is asked, saves what it had and lets go; the asker loads it with those last cards', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'handover' });
    playTask(feeder(rec), 'x');
    rec.close();
    let a: Awaited<ReturnType<HistoryStore['resume']>> | undefined;
    a = await store.resume('handover', {
      onTakeoverRequested: () => {
        feeder(a!.recorder)({ type: 'card_added', card: { kind: 'text', id: 'last-words', author: 'assistant', text: 'stopped here', ts: 9 } });
        a!.recorder.close();
      },
    });
    const other = new HistoryStore(tmp);
    await assert.rejects(other.resume('handover'), TaskLockedError);
    const b = await other.resume('handover', { takeOver: true });
    assert.ok(b.task.cards.some((c) => c.id === 'last-words'), 'what the holder saved while handing over is loaded');
    b.recorder.close();
  });

  it('exports a task as Markdown', async () => {
    const store = new HistoryStore(tmp);
    const rec = store.create({ id: 'taskM' });
    playTask(feeder(rec), 'I will create `hello.txt`.');
    rec.close();
    const t = await store.load('taskM');
    const md = exportMarkdown(t.meta, t.cards);
    assert.match(md, /^# Please add a greeting file/);
    assert.match(md, /## User — /);
    assert.match(md, /I will create `hello.txt`\./);
    assert.match(md, /### Plan v1\n\n\*\*Goal:\*\* Add a greeting\n\n1\. Create hello.txt — `hello.txt` _\(done\)_/);
    assert.match(md, /#### Tool `write_file` — write hello.txt — done/);
    assert.match(md, /Tokens: 5000 in, 150 out; cost: \$0\.0065/);
  });

  it('rebuilds the conversation for the model from the cards', () => {
    const cards: Card[] = [
      { kind: 'text', id: 'u1', author: 'user', text: 'fix it', ts: 1 },
      { kind: 'text', id: 'a1', author: 'assistant', text: 'Looking.', ts: 2 },
      { kind: 'usage', id: 'us1', model: 'm', role: 'actor', tokens_in: 1, tokens_out: 1, latency_ms: 1, outcome: 'ok', ts: 3 },
      { kind: 'tool_call', id: 't1', call_id: 'c1', tool: 'read_file', summary: '', args: { path: 'a.ts' }, status: 'done', result: '1: x', ts: 4 },
      { kind: 'tool_call', id: 't2', call_id: 'c2', tool: 'edit_file', summary: '', args: { path: 'a.ts' }, status: 'rejected', error: 'The user rejected this edit_file call.', ts: 5 },
      { kind: 'usage', id: 'us2', model: 'm', role: 'actor', tokens_in: 1, tokens_out: 1, latency_ms: 1, outcome: 'ok', ts: 6 },
      { kind: 'tool_call', id: 't3', call_id: 'c3', tool: 'read_file', summary: '', args: { path: 'b.ts' }, status: 'running', ts: 7 },
      { kind: 'text', id: 'n0', author: 'system', note: 'context', text: 'Context condensed', ts: 8 },
      { kind: 'text', id: 'n00', author: 'system', note: 'retry', text: 'Rate limited; retrying in 8 s', ts: 8 },
      { kind: 'text', id: 'n1', author: 'system', note: 'revert', text: 'Reverted edit of a.ts', ts: 9 },
      { kind: 'text', id: 'u2', author: 'user', text: 'go on', ts: 10 },
    ];
    const m = rebuildMessages(cards);
    assert.deepEqual(m.map((x) => x.role), ['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'user']);
    assert.equal((m[1] as { tool_calls: unknown[] }).tool_calls.length, 2);
    assert.equal(m[3].content, 'The user rejected this edit_file call.');
    assert.match(String(m[5].content), /did not finish/);
    assert.equal(m[6].content, '[Note from Tandem] Reverted edit of a.ts\n\ngo on');
  });

  it('keeps CLI history outside the workspace, one folder per workspace', () => {
    const env = { TANDEM_DATA_DIR: path.join(tmp, 'data') };
    const d1 = cliHistoryDir('/some/where/proj', env);
    const d2 = cliHistoryDir('/other/proj', env);
    assert.ok(d1.startsWith(path.join(tmp, 'data', 'workspaces', 'proj-')));
    assert.notEqual(d1, d2);
    assert.equal(cliHistoryDir('/some/where/proj', env), d1);
    assert.ok(cliHistoryDir('/x', { XDG_DATA_HOME: '/xdg' }).startsWith(process.platform === 'linux' ? '/xdg/tandem/workspaces/' : ''));
  });
});
