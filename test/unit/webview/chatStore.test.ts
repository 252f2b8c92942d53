import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type StoreMod = typeof import('./webviewState.entry');
type DecodeMod = StoreMod;

const text = (id: string, t = '', streaming = false) => ({ kind: 'text', id, author: 'assistant', text: t, streaming, ts: 1 });
const plan = (id: string) => ({
  kind: 'plan', id, version: 1, errors: [], step_states: {}, ts: 1,
  plan: { format_version: '1.0', goal: 'g', estimated_total_time: '1m', risks: [], prerequisites: [],
    steps: [1, 2].map((n) => ({ step_number: n, action: `a${n}`, reason: '', tools_needed: [], estimated_time: '', files: [] })) },
});

describe('webview chat store', () => {
  let S: StoreMod;
  let D: DecodeMod;
  before(async () => {
    S = await loadWebviewModule<StoreMod>('test/unit/webview/webviewState.entry.ts');
    D = S;
  });

  /** Feeds raw host payloads through the same decode → apply path as the webview. */
  function feed(store: InstanceType<StoreMod['ChatStore']>, data: unknown): string[] {
    const out: string[] = [];
    for (const item of D.decodeInbound(data)) {
      if (item.kind === 'event') out.push(store.apply(item.event));
      else if (item.kind === 'invalid') { store.addRaw(item.card, item.seq); out.push('raw'); }
      else out.push(`ui:${item.msg.type}`);
    }
    return out;
  }

  it('builds the chat from a snapshot and deltas, appending streamed text in order', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 3, role: 'planner', cards: [text('u', 'hi')] });
    const results = feed(s, [
      { type: 'card_added', seq: 4, card: text('a', '', true) },
      { type: 'text_appended', seq: 5, id: 'a', text: 'Hel' },
      { type: 'text_appended', seq: 6, id: 'a', text: 'lo' },
      { type: 'card_patched', seq: 7, id: 'a', patch: { streaming: false } },
      { type: 'role_changed', seq: 8, role: 'actor', reason: 'Execute plan' },
      { type: 'agent_state', seq: 9, state: 'calling_tool' },
      { type: 'usage_total', seq: 10, turn: { tokens_in: 5, tokens_out: 2 }, task: { tokens_in: 50, tokens_out: 20, cost_usd: 0.1 } },
    ]);
    assert.deepEqual(results, Array(7).fill('applied'));
    assert.deepEqual(s.cards.map((c) => c.id), ['u', 'a']);
    const a = s.get('a');
    assert.equal(a?.kind === 'text' && a.text, 'Hello');
    assert.equal(a?.kind === 'text' && a.streaming, false);
    assert.equal(s.role, 'actor');
    assert.equal(s.roleNotice, 'Execute plan');
    assert.equal(s.agentState, 'calling_tool');
    assert.deepEqual(s.taskUsage, { tokens_in: 50, tokens_out: 20, cost_usd: 0.1 });
    assert.equal(s.lastSeq, 10);
  });

  it('replaces only the changed card object, so unchanged rows keep their identity', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 1, role: 'planner', cards: [text('x', 'one'), text('y', 'two')] });
    const [x0, y0] = s.cards;
    feed(s, { type: 'text_appended', seq: 2, id: 'y', text: '!' });
    assert.equal(s.cards[0], x0);
    assert.notEqual(s.cards[1], y0);
    assert.equal((y0 as { text: string }).text, 'two', 'the old object is not mutated');
  });

  it('drops a duplicate (already seen) sequence number', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 1, role: 'planner', cards: [text('a')] });
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 2, id: 'a', text: 'x' }), ['applied']);
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 2, id: 'a', text: 'x' }), ['duplicate']);
    assert.equal((s.get('a') as { text: string }).text, 'x');
  });

  it('asks for a snapshot once on a gap, keeps applying deltas meanwhile, and the snapshot settles it', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 1, role: 'planner', cards: [text('a')] });
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 4, id: 'a', text: 'late' }), ['resync']);
    assert.equal(s.awaitingSnapshot, true);
    assert.equal(s.lastSeq, 4);
    // A second gap while waiting does not ask again.
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 9, id: 'a', text: '+' }), ['applied']);
    assert.equal((s.get('a') as { text: string }).text, 'late+');
    feed(s, { type: 'snapshot', seq: 9, role: 'actor', cards: [text('a', 'full text'), text('b', 'missed card')] });
    assert.equal(s.awaitingSnapshot, false);
    assert.deepEqual(s.cards.map((c) => c.id), ['a', 'b']);
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 10, id: 'b', text: '.' }), ['applied']);
  });

  it('treats a delta for a card it never saw as a gap', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 1, role: 'planner', cards: [] });
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 2, id: 'ghost', text: 'x' }), ['resync']);
    assert.equal(s.size, 0);
  });

  it('tracks plan step states from step events and keeps failure reasons', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 0, role: 'actor', cards: [plan('p')] });
    feed(s, [
      { type: 'step_started', seq: 1, plan_id: 'p', step_number: 1 },
      { type: 'step_done', seq: 2, plan_id: 'p', step_number: 1 },
      { type: 'step_failed', seq: 3, plan_id: 'p', step_number: 2, reason: 'exit 1' },
    ]);
    const p = s.get('p');
    assert.deepEqual(p?.kind === 'plan' && p.step_states, { 1: 'done', 2: 'failed' });
    assert.equal(s.stepReasons.get('p#2'), 'exit 1');
  });

  it('ends streaming on turn_ended even when the host never patched it', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 0, role: 'planner', cards: [text('a', 'par', true)] });
    feed(s, [{ type: 'agent_state', seq: 1, state: 'thinking' }, { type: 'turn_ended', seq: 2, outcome: 'stopped' }]);
    const a = s.get('a');
    assert.equal(a?.kind === 'text' && a.streaming, false);
    assert.equal(s.agentState, 'idle');
    assert.equal(s.lastOutcome, 'stopped');
  });

  it('shows a card whose patch made it invalid as plain text instead of dropping it', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 0, role: 'planner', cards: [{ kind: 'tool_call', id: 't', call_id: 'c', tool: 'read_file', summary: 's', args: {}, status: 'pending', ts: 1 }] });
    feed(s, { type: 'card_patched', seq: 1, id: 't', patch: { status: 'exploded' } });
    const t = s.get('t');
    assert.equal(t?.kind, 'raw');
    assert.match(t?.kind === 'raw' ? t.text : '', /exploded/);
  });

  it('keeps the rest of a snapshot when one card in it is malformed', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 5, role: 'planner', cards: [text('a', 'ok'), { kind: 'hologram', id: 'h' }, text('b', 'ok too'), 'junk', { kind: 'text', id: 'bad', author: 'assistant', text: 42, ts: 1 }] });
    // What a view would display (snapshot cards are validated on first display).
    assert.deepEqual(s.cards.map((c) => `${c.id}:${S.validated(c).kind}`).map((x) => x.replace(/^raw-.*:/, 'raw-id:')), ['a:text', 'h:raw', 'b:text', 'raw-id:raw', 'bad:raw']);
    assert.equal(s.get('h')?.kind, 'raw');
    assert.equal(s.lastSeq, 5);
  });

  it('validates a snapshot card before a delta touches it', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 1, role: 'planner', cards: [{ kind: 'text', id: 'a', author: 'robot', text: 'x', ts: 1 }, plan('p')] });
    assert.equal(S.isValidated(s.cards[0]!), false, 'not validated before first use');
    assert.deepEqual(feed(s, { type: 'text_appended', seq: 2, id: 'a', text: 'y' }), ['resync'], 'an invalid card is not a text card to append to');
    assert.equal(s.get('a')?.kind, 'raw');
    feed(s, { type: 'step_started', seq: 3, plan_id: 'p', step_number: 1 });
    const p = s.get('p');
    assert.equal(p?.kind === 'plan' && p.step_states['1'], 'running');
  });

  it('turns any unparsable payload into a plain-text card and never throws', () => {
    const s = new S.ChatStore();
    feed(s, { type: 'snapshot', seq: 0, role: 'planner', cards: [] });
    const junk: unknown[] = [null, 42, 'hello', [], { type: 'card_added' }, { type: 'nonsense', seq: 1 }, { type: 'text_appended', seq: 'x' }, { card: { kind: 'text' } }];
    for (const j of junk) assert.doesNotThrow(() => feed(s, j));
    // [] is an empty batch; every other payload shows up.
    assert.equal(s.cards.filter((c) => c.kind === 'raw').length, junk.length - 1);
    assert.match(s.cards.map((c) => (c.kind === 'raw' ? c.text : '')).join('\n'), /nonsense/);
  });

  it('decodes a batch (array) of host messages in order, UI messages included', () => {
    const s = new S.ChatStore();
    const out = feed(s, [
      { type: 'snapshot', seq: 0, role: 'planner', cards: [] },
      { type: 'setup_needed' },
      { type: 'connection_result', ok: true, models: ['m1'] },
      { type: 'card_added', seq: 1, card: text('a', 'x') },
    ]);
    assert.deepEqual(out, ['applied', 'ui:setup_needed', 'ui:connection_result', 'applied']);
  });
});
