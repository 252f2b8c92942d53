import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EventStream } from '../../../src/core/events';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { rebuildMessages } from '../../../src/core/history/rebuildMessages';
import { TaskState } from '../../../src/core/history/taskState';
import type { Card, HostEvent, HostEventInput, Plan } from '../../../src/protocol';
import { loadWebviewModule } from '../webview/loadWebviewModule';

type StoreMod = typeof import('../webview/webviewState.entry');

const plan: Plan = {
  format_version: '1.0', goal: 'Greet', estimated_total_time: '1m', risks: [], prerequisites: [],
  steps: [1, 2].map((n) => ({ step_number: n, action: `step ${n}`, reason: '', tools_needed: [], estimated_time: '1m', files: [] })),
};

/** A turn that plans, runs a step that fails, streams an answer and is stopped before the answer's last patch. */
const inputs: HostEventInput[] = [
  { type: 'card_added', card: { kind: 'text', id: 'u1', author: 'user', text: 'say hi', ts: 1 } },
  { type: 'agent_state', state: 'thinking' },
  { type: 'card_added', card: { kind: 'plan', id: 'p1', version: 1, plan, errors: [], step_states: {}, ts: 2 } },
  { type: 'role_changed', role: 'actor', reason: 'Execute plan' },
  { type: 'card_patched', id: 'p1', patch: { executing: true } },
  { type: 'step_started', plan_id: 'p1', step_number: 1 },
  { type: 'card_added', card: { kind: 'tool_call', id: 't1', call_id: 'c1', tool: 'run_command', summary: 'npm test', args: {}, status: 'pending', ts: 3 } },
  { type: 'card_patched', id: 't1', patch: { status: 'error', error: 'exit 1' } },
  { type: 'step_failed', plan_id: 'p1', step_number: 1, reason: 'exit 1' },
  { type: 'card_added', card: { kind: 'text', id: 'a1', author: 'assistant', text: '', streaming: true, role: 'actor', ts: 4 } },
  { type: 'text_appended', id: 'a1', text: 'The tests ' },
  { type: 'text_appended', id: 'a1', text: 'fail because' },
  { type: 'card_added', card: { kind: 'text', id: 'n1', author: 'system', note: 'retry', text: 'Rate limited; retrying in 2 s', ts: 5 } },
  { type: 'usage_total', turn: { tokens_in: 10, tokens_out: 5 }, task: { tokens_in: 30, tokens_out: 9 } },
  // Stopped mid-stream: the answer never gets its `streaming: false` patch.
  { type: 'turn_ended', outcome: 'stopped' },
];

describe('applyHostEvent: one meaning of the event stream for the host, history and the webview', () => {
  let S: StoreMod;
  before(async () => {
    S = await loadWebviewModule<StoreMod>('test/unit/webview/webviewState.entry.ts');
  });

  function everyStore(events: HostEvent[]) {
    const host = new EventStream(() => {});
    for (const e of events) host.emit(e);
    const history = new TaskState();
    for (const e of events) history.applyEvent(e);
    const webview = new S.ChatStore();
    for (const e of events) for (const item of S.decodeInbound(JSON.parse(JSON.stringify(e)))) if (item.kind === 'event') webview.apply(item.event);
    return { host, history, webview };
  }

  it('the same events give the same cards and role in the host card store, the history and the webview store', () => {
    let seq = 0;
    const events = inputs.map((e) => ({ ...e, seq: ++seq }) as HostEvent);
    const { host, history, webview } = everyStore(events);
    assert.deepEqual(history.cards(), host.cards());
    assert.deepEqual(webview.cards, host.cards());
    assert.equal(host.store.view.role, 'actor');
    assert.equal(history.role, 'actor');
    assert.equal(webview.role, 'actor');
    // What each of them now agrees on: the stopped answer is no longer streaming, the failed step is failed.
    const answer = host.card('a1') as Extract<Card, { kind: 'text' }>;
    assert.equal(answer.text, 'The tests fail because');
    assert.equal(answer.streaming, false);
    assert.deepEqual((host.card('p1') as Extract<Card, { kind: 'plan' }>).step_states, { '1': 'failed' });
    assert.equal(webview.stepReasons.get('p1#1'), 'exit 1');
    assert.equal(host.store.view.stepReasons.get('p1#1'), 'exit 1');
    assert.equal(webview.agentState, 'idle');
  });

  it('a snapshot replaces the cards everywhere, and deltas after it continue from it', () => {
    let seq = 0;
    const first = inputs.slice(0, 5).map((e) => ({ ...e, seq: ++seq }) as HostEvent);
    const cards = new EventStream(() => {});
    for (const e of first) cards.emit(e);
    const snap = { ...cards.snapshot('actor', 'task-1'), seq: ++seq } as HostEvent;
    const rest = inputs.slice(5).map((e) => ({ ...e, seq: ++seq }) as HostEvent);
    const { host, history, webview } = everyStore([{ type: 'card_added', seq: 0, card: { kind: 'text', id: 'gone', author: 'user', text: 'replaced', ts: 0 } }, snap, ...rest]);
    assert.equal(host.card('gone'), undefined);
    assert.deepEqual(history.cards(), host.cards());
    assert.deepEqual(webview.cards, host.cards());
    assert.equal(webview.taskId, 'task-1');
  });

  it('a patch never changes a card\'s id or kind, in any of the three', () => {
    const events: HostEvent[] = [
      { type: 'card_added', seq: 1, card: { kind: 'text', id: 'x', author: 'assistant', text: 'hi', ts: 1 } },
      { type: 'card_patched', seq: 2, id: 'x', patch: { id: 'y', kind: 'error', text: 'hello' } },
    ];
    const { host, history, webview } = everyStore(events);
    for (const cards of [host.cards(), history.cards(), webview.cards]) {
      assert.deepEqual(cards, [{ kind: 'text', id: 'x', author: 'assistant', text: 'hello', ts: 1 }]);
    }
  });

  it('a snapshot taken while an approval waits says so: a chat loaded from it (the view shown again) is waiting, not idle', () => {
    const host = new EventStream(() => {});
    host.emit({ type: 'card_added', card: { kind: 'text', id: 'u1', author: 'user', text: 'run it', ts: 1 } });
    host.emit({ type: 'agent_state', state: 'waiting_on_user' });
    host.emit({ type: 'card_added', card: { kind: 'tool_call', id: 't1', call_id: 'c1', tool: 'run_command', summary: 'echo hi', args: {}, status: 'pending', ts: 2 } });
    const loaded = (snap: HostEvent) => {
      const webview = new S.ChatStore();
      for (const item of S.decodeInbound(JSON.parse(JSON.stringify(snap)))) if (item.kind === 'event') webview.apply(item.event);
      return webview.agentState;
    };
    assert.equal(loaded(host.snapshot('actor')), 'waiting_on_user');
    host.emit({ type: 'turn_ended', outcome: 'done' });
    const idle = host.snapshot('actor');
    assert.equal((idle as { state?: string }).state, undefined, 'an idle task\'s snapshot is as before');
    assert.equal(loaded(idle), 'idle');
  });

  it('a snapshot carries the usage totals: a chat loaded from it (the view shown again) still shows the turn and task figures', () => {
    const host = new EventStream(() => {});
    host.emit({ type: 'card_added', card: { kind: 'text', id: 'u1', author: 'user', text: 'hi', ts: 1 } });
    const loaded = (snap: HostEvent) => {
      const webview = new S.ChatStore();
      for (const item of S.decodeInbound(JSON.parse(JSON.stringify(snap)))) if (item.kind === 'event') webview.apply(item.event);
      return { turn: webview.turnUsage, task: webview.taskUsage };
    };
    assert.deepEqual(loaded(host.snapshot('actor')), { turn: null, task: null }, 'no model call yet: no figures');
    host.emit({ type: 'usage_total', turn: { tokens_in: 120, tokens_out: 30 }, task: { tokens_in: 900, tokens_out: 210, cost_usd: 0.01 } });
    host.emit({ type: 'turn_ended', outcome: 'done' });
    assert.deepEqual(loaded(host.snapshot('actor')), { turn: { tokens_in: 120, tokens_out: 30 }, task: { tokens_in: 900, tokens_out: 210, cost_usd: 0.01 } });
  });
});

describe('system notes carry their meaning in a field, not in their id', () => {
  it('a resumed task replays reverts and role notes to the model, never condensing notes or retry waits, whatever the ids', () => {
    const cards: Card[] = [
      { kind: 'text', id: 'ctx-looks-like-context', author: 'system', note: 'revert', text: 'Reverted a.ts', ts: 1 },
      { kind: 'text', id: 'plain-1', author: 'system', note: 'context', text: 'Context condensed', ts: 2 },
      { kind: 'text', id: 'plain-2', author: 'system', note: 'retry', text: 'retrying in 2 s', ts: 3 },
      { kind: 'text', id: 'plain-3', author: 'system', text: "Stopped the Actor's run", ts: 4 },
    ];
    assert.deepEqual(rebuildMessages(cards), [{ role: 'user', content: "[Note from Tandem] Reverted a.ts\n\n[Note from Tandem] Stopped the Actor's run" }]);
  });

  it('a task saved before notes had a kind is read with the kind its ids said', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-legacy-notes-'));
    try {
      const store = new HistoryStore(dir);
      const taskDir = store.taskDir('t-old');
      fs.mkdirSync(taskDir, { recursive: true });
      const old = [
        { kind: 'text', id: 'u1', author: 'user', text: 'go', ts: 1 },
        { kind: 'text', id: 'ctx-condensed-1', author: 'system', text: 'Context condensed', ts: 2 },
        { kind: 'text', id: 'c7-retry-wait', author: 'system', text: 'retrying in 2 s', ts: 3 },
        { kind: 'text', id: 'rv-revert-2', author: 'system', text: 'Reverted a.ts', ts: 4 },
      ];
      fs.writeFileSync(path.join(taskDir, 'log-0.jsonl'), `${JSON.stringify({ k: 'meta', m: { created: 1, role: 'actor' } })}\n${old.map((card) => JSON.stringify({ k: 'add', card })).join('\n')}\n`);
      const task = await store.load('t-old');
      assert.deepEqual(task.cards.map((c) => (c.kind === 'text' ? c.note : undefined)), [undefined, 'context', 'retry', 'revert']);
      assert.deepEqual(rebuildMessages(task.cards), [{ role: 'user', content: 'go\n\n[Note from Tandem] Reverted a.ts' }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
