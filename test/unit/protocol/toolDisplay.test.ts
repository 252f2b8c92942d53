/**
 * The tool-call card carries its tool's display (zod-checked, short), and cards saved before it did
 * still load and read: `toolCallDisplay` derives a neutral display from any card, naming no tool.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Card, clampToolDisplay, HostEvent, ToolCallDisplay, toolCallDisplay, type HostEventInput, type ToolCallCard } from '../../../src/protocol';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { sampleCard } from '../tools/toolSamples';

describe('protocol: tool-call display', () => {
  it('a card with a display validates; an unknown kind or an over-long field does not', () => {
    const card = sampleCard('t', 'read_file');
    assert.equal(Card.safeParse(card).success, true);
    const d = card.display as ToolCallDisplay;
    assert.equal(Card.safeParse({ ...card, display: { ...d, kind: 'teleport' } }).success, false);
    assert.equal(Card.safeParse({ ...card, display: { ...d, detail: 'x'.repeat(2001) } }).success, false);
    assert.equal(Card.safeParse({ ...card, display: { ...d, verb: undefined } }).success, false);
    assert.equal(HostEvent.safeParse({ type: 'card_added', seq: 1, card }).success, true);
  });

  it('clamps a display to its caps instead of letting the card fail', () => {
    const long = clampToolDisplay({ kind: 'command', title: 't'.repeat(500), verb: 'Run', detail: 'x'.repeat(9000), path: 'p'.repeat(5000), tag: 's'.repeat(200) });
    assert.equal(ToolCallDisplay.safeParse(long).success, true);
    assert.ok(long.detail!.endsWith('…') && long.detail!.length === 2000);
  });

  it('a card saved by an older version (no display) loads from history and reads from what it asked approval for, else its summary', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-display-'));
    try {
      const store = new HistoryStore(tmp);
      const rec = store.create({ id: 'old', workspace: '/ws' });
      let seq = 0;
      const emit = (e: HostEventInput) => rec.onEvent({ ...e, seq: ++seq } as HostEvent);
      // As an older version wrote them: no display.
      emit({ type: 'card_added', card: { kind: 'tool_call', id: 'r', call_id: 'c1', tool: 'read_file', summary: 'read a.ts', args: { path: 'a.ts' }, status: 'done', ts: 1 } });
      emit({ type: 'card_added', card: { kind: 'tool_call', id: 'x', call_id: 'c2', tool: 'run_command', summary: '$ ls', args: { command: 'ls' }, status: 'done', approval: { kind: 'command', command: 'ls' }, ts: 2 } });
      emit({ type: 'card_added', card: sampleCard('n', 'search') as Card });
      emit({ type: 'turn_ended', outcome: 'done' });
      const t = await store.load('old');
      const cards = t.cards.filter((c): c is ToolCallCard => c.kind === 'tool_call');
      assert.equal(cards.length, 3);
      for (const c of cards) assert.equal(Card.safeParse(c).success, true, c.id);
      assert.deepEqual(toolCallDisplay(cards[0]!), { kind: 'other', title: 'read_file', verb: 'read a.ts' });
      assert.deepEqual(toolCallDisplay(cards[1]!), { kind: 'command', title: 'run_command', verb: 'Run', done: 'Ran', detail: 'ls', code: true });
      assert.equal(toolCallDisplay(cards[2]!).fold, 'run', 'a saved display comes back as it was');
      assert.equal(toolCallDisplay(cards[2]!).verb, 'Search for');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
