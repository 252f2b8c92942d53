import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type HM = typeof import('../../../webview-ui/src/state/heightModel');

const card = (id: string, text = 'x') => ({ kind: 'text' as const, id, author: 'assistant' as const, text, ts: 1 });

describe('webview virtual list geometry', () => {
  let M: HM;
  before(async () => {
    M = await loadWebviewModule<HM>('webview-ui/src/state/heightModel.ts');
  });

  it('renders only the rows near the viewport of a 10,000-card list', () => {
    const cards = Array.from({ length: 10_000 }, (_, i) => card(`c${i}`));
    const m = new M.HeightModel();
    cards.forEach((c) => m.setMeasured(c.id, 50, c));
    m.layout(cards, 10);
    assert.equal(m.total, 600_000);
    const [first, last] = m.visibleRange(300_000, 900, 0, cards.length);
    assert.equal(first, 5000);
    assert.equal(last, 5014); // rows starting before 300,900: 5000..5014
    // Scrolled to the very bottom (scrollTop = total - viewport): the last row is included.
    const [f2, l2] = m.visibleRange(599_100, 900, 0, cards.length);
    assert.deepEqual([f2, l2], [9985, 9999]);
  });

  it('moves later rows when a measured height replaces the estimate', () => {
    const cards = [card('a'), card('b'), card('c')];
    const m = new M.HeightModel();
    m.layout(cards, 0);
    const before = m.offsets[2]!;
    const delta = m.setMeasured('b', m.heightOf(cards[1]!) + 100, cards[1]!);
    assert.equal(delta, 100);
    assert.equal(m.setMeasured('b', m.heightOf(cards[1]!), cards[1]!), 0, 'same height again is no change');
    m.layout(cards, 0);
    assert.equal(m.offsets[2]!, before + 100);
  });

  it('estimates longer text as taller, so the scrollbar is roughly right before measuring', () => {
    assert.ok(M.estimateHeight(card('s', 'short')) < M.estimateHeight(card('l', 'word '.repeat(400))));
    assert.ok(M.estimateHeight(card('n', 'a\nb\nc\nd\ne\nf')) > M.estimateHeight(card('o', 'abcdef')));
  });
});
