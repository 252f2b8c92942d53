import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type L = typeof import('../../../webview-ui/src/state/stepLanes');

const card = (id: string, step?: number) => ({ kind: 'text', id, author: 'assistant', text: id, ts: 0, ...(step ? { step } : {}) });

describe('plan step lanes in the chat', () => {
  let M: L;
  before(async () => {
    M = await loadWebviewModule<L>('webview-ui/src/state/stepLanes.ts');
  });

  it('two steps running side by side: each step\'s cards follow its own header, not interleaved; cards of no step keep their place', () => {
    const cards = [card('plan'), card('a1', 1), card('b1', 2), card('a2', 1), card('b2', 2), card('note'), card('a3', 1)];
    const { rows, indexOf } = M.laneRows(cards as never, new Set());
    assert.deepEqual(rows.map((r) => r.id), ['plan', 'lane:0#1', 'a1', 'a2', 'a3', 'lane:0#2', 'b1', 'b2', 'note']);
    const lane = rows[1] as { kind: string; open: boolean; step_number: number };
    assert.deepEqual([lane.kind, lane.step_number, lane.open], ['lane', 1, true]);
    assert.equal(indexOf('b1'), 6);
    assert.equal(indexOf('nope'), -1);
  });

  it('a folded lane shows its header alone', () => {
    const cards = [card('a1', 1), card('b1', 2), card('a2', 1)];
    const { rows } = M.laneRows(cards as never, new Set(['lane:0#1']));
    assert.deepEqual(rows.map((r) => r.id), ['lane:0#1', 'lane:0#2', 'b1']);
  });

  it('a step of a later run (after the run\'s summary) gets a lane of its own', () => {
    const cards = [card('a1', 1), { kind: 'summary', id: 's', ts: 0 }, card('a2', 1)];
    assert.deepEqual(M.laneRows(cards as never, new Set()).rows.map((r) => r.id), ['lane:0#1', 'a1', 's', 'lane:1#1', 'a2']);
  });

  it('a chat without steps is the cards as they are', () => {
    const cards = [card('x'), card('y')];
    assert.deepEqual(M.laneRows(cards as never, new Set()).rows, cards);
  });
});
