import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Mod = typeof import('../../../webview-ui/src/state/planStatus');
type StoreMod = typeof import('./webviewState.entry');

const steps = [1, 2, 3].map((n) => ({ step_number: n, action: `a${n}`, reason: '', tools_needed: [], estimated_time: '', files: [] }));
const plan = { format_version: '1.0' as const, goal: 'g', estimated_total_time: '', risks: [], prerequisites: [], steps };
const card = (extra: Record<string, unknown>) => ({ kind: 'plan' as const, id: 'p', version: 1, plan, errors: [], step_states: {}, ts: 1, ...extra });

describe('webview plan status (Execute, executing, executed)', () => {
  let M: Mod;
  before(async () => { M = await loadWebviewModule<Mod>('webview-ui/src/state/planStatus.ts'); });

  it('a new plan, or one whose steps are all pending (reset before a run), is ready to execute', () => {
    assert.equal(M.planStatus(card({}) as never).kind, 'ready');
    assert.equal(M.planStatus(card({ step_states: { 1: 'pending', 2: 'pending', 3: 'pending' } }) as never).kind, 'ready');
  });

  it('executing wins over step states; superseded and invalid plans are neither', () => {
    assert.equal(M.planStatus(card({ executing: true, step_states: { 1: 'done' } }) as never).kind, 'executing');
    assert.equal(M.planStatus(card({ superseded: true, step_states: { 1: 'done' } }) as never).kind, 'superseded');
    assert.equal(M.planStatus(card({ plan: null }) as never).kind, 'invalid');
  });

  it('after a run it is executed, and says how it went', () => {
    const all = M.planStatus(card({ step_states: { 1: 'done', 2: 'done', 3: 'done' } }) as never);
    assert.deepEqual(all, { kind: 'executed', done: 3, unverified: 0, failed: 0, stopped: 0, total: 3 });
    assert.equal((M.planStatus(card({ step_states: { 1: 'done', 2: 'failed', 3: 'pending' } }) as never) as { next?: number }).next, 2);
    assert.equal(M.executedLabel(all as never), 'Executed ✓');
    const failed = M.planStatus(card({ step_states: { 1: 'done', 2: 'failed', 3: 'pending' } }) as never);
    assert.equal(M.executedLabel(failed as never), 'Execution failed (1 of 3 steps done)');
    // Stopped mid-run: a step left running (the host resets it) or only some done.
    const stopped = M.planStatus(card({ step_states: { 1: 'done', 2: 'pending', 3: 'pending' } }) as never);
    // The card offers "Continue from step 2": the label says where it stands.
    assert.equal(M.executedLabel(stopped as never), '1 of 3 steps done; step 2 is next');
  });

  it('"Executed ✓" only when every step is done: unverified steps are counted and said', () => {
    const unverified = M.planStatus(card({ step_states: { 1: 'done', 2: 'unverified', 3: 'done' } }) as never);
    assert.deepEqual(unverified, { kind: 'executed', done: 2, unverified: 1, failed: 0, stopped: 0, total: 3 });
    assert.equal(M.executedLabel(unverified as never), 'Executed, not verified (2 of 3 steps done, 1 unverified)');
    const both = M.planStatus(card({ step_states: { 1: 'unverified', 2: 'failed', 3: 'pending' } }) as never);
    assert.equal(M.executedLabel(both as never), 'Execution failed (0 of 3 steps done, 1 unverified)');
  });
});

describe('webview chat store: revertible changes of the task', () => {
  let S: StoreMod;
  before(async () => { S = await loadWebviewModule<StoreMod>('test/unit/webview/webviewState.entry.ts'); });
  const tool = (id: string, extra: Record<string, unknown>) => ({ kind: 'tool_call', id, call_id: `c-${id}`, tool: 'edit_file', summary: '', args: {}, status: 'done', ts: 1, ...extra });

  it('counts tool cards that can still be reverted, following patches and snapshots', () => {
    const s = new S.ChatStore();
    s.apply({ type: 'snapshot', seq: 1, role: 'actor', cards: [tool('a', {}), tool('b', { revertible: true })] } as never);
    assert.equal(s.revertibleCount(), 1);
    s.apply({ type: 'card_added', seq: 2, card: tool('c', { revertible: true }) } as never);
    assert.equal(s.revertibleCount(), 2);
    s.apply({ type: 'card_patched', seq: 3, id: 'b', patch: { reverted: true, revertible: false } } as never);
    assert.equal(s.revertibleCount(), 1);
    s.apply({ type: 'snapshot', seq: 4, role: 'planner', cards: [] } as never);
    assert.equal(s.revertibleCount(), 0);
  });

  it('offers Retry only on the latest retryable error, until a turn ends well or the user sends again', () => {
    const s = new S.ChatStore();
    const err = (id: string, retryable = true) => ({ kind: 'error', id, message: 'x', retryable, ts: 1 });
    s.apply({ type: 'snapshot', seq: 1, role: 'planner', cards: [{ kind: 'text', id: 'u', author: 'user', text: 'hi', ts: 1 }, err('e1'), { kind: 'usage', id: 'g', model: 'm', role: 'planner', tokens_in: 0, tokens_out: 0, latency_ms: 1, outcome: 'error', ts: 1 }] } as never);
    assert.equal(s.retryOfferId, 'e1', 'after a reload the trailing error still offers Retry');
    s.apply({ type: 'card_added', seq: 2, card: err('e2') } as never);
    assert.equal(s.retryOfferId, 'e2', 'only the latest');
    s.apply({ type: 'turn_ended', seq: 3, outcome: 'done' } as never);
    assert.equal(s.retryOfferId, null, 'a turn that ended well retires it');
    s.apply({ type: 'card_added', seq: 4, card: err('e3') } as never);
    s.apply({ type: 'card_added', seq: 5, card: { kind: 'text', id: 'u2', author: 'user', text: 'other', ts: 1 } } as never);
    assert.equal(s.retryOfferId, null, 'a new message retires it');
    s.apply({ type: 'snapshot', seq: 6, role: 'planner', cards: [err('e4'), { kind: 'text', id: 'a', author: 'assistant', text: 'later', ts: 1 }] } as never);
    assert.equal(s.retryOfferId, null, 'not when the conversation went on after it');
  });
});
