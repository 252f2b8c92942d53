import assert from 'node:assert/strict';
import { TextPrinter } from '../../../src/cli/textPrinter';
import type { HostEvent } from '../../../src/protocol';

describe('CLI text output', () => {
  it('prints each plan step as it starts and as it finishes or fails', () => {
    let out = '';
    const p = new TextPrinter((s) => (out += s), (s) => (out += s));
    const events: HostEvent[] = [
      { type: 'step_started', seq: 1, plan_id: 'p1', step_number: 1 },
      { type: 'card_added', seq: 2, card: { kind: 'text', id: 't1', author: 'assistant', text: 'Editing app.py', ts: 1 } },
      { type: 'step_done', seq: 3, plan_id: 'p1', step_number: 1 },
      { type: 'step_started', seq: 4, plan_id: 'p1', step_number: 2 },
      { type: 'step_failed', seq: 5, plan_id: 'p1', step_number: 2, reason: 'tests fail' },
    ];
    for (const e of events) p.handle(e);
    assert.match(out, /\[step 1 started\]\nEditing app\.py\n\[step 1 done\]\n\[step 2 started\]\n\[step 2 failed: tests fail\]\n/);
  });
});
