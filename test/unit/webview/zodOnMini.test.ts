import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Protocol = typeof import('../../../src/protocol');

const textCard = { kind: 'text', id: 'c', author: 'assistant', text: 'hi', ts: 1 };
const question = { question: 'Delete?', severity: 'major', options: [{ label: 'Yes', value: 'y' }, { label: 'No', value: 'n' }], default: 'n', allow_custom: false };
const step = { step_number: 1, action: 'do', reason: 'r', tools_needed: ['read_file'], estimated_time: '1m', files: ['a.ts'] };
const plan = { format_version: '1.0', goal: 'g', steps: [step], estimated_total_time: '1m', risks: [], prerequisites: [] };
const planCard = { kind: 'plan', id: 'p', version: 1, plan, errors: [], step_states: { 1: 'running' }, ts: 1 };

/** [schema name, payload] pairs, valid and invalid, covering every modifier src/protocol uses. */
const cases: Array<[keyof Protocol, unknown]> = [
  ['HostEvent', { type: 'card_added', seq: 1, card: textCard }],
  ['HostEvent', { type: 'card_added', seq: -1, card: textCard }],
  ['HostEvent', { type: 'card_added', seq: 1.5, card: textCard }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...textCard, author: 'robot' } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...textCard, streaming: 'yes' } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: planCard }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...planCard, plan: null, raw_text: 'x' } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...planCard, version: 0 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...planCard, plan: { ...plan, goal: '' } } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...planCard, plan: { ...plan, format_version: '2.0' } } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...planCard, plan: { ...plan, steps: Array(51).fill(step) } } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { ...planCard, step_states: { 1: 'sleeping' } } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'question', id: 'q', question, status: 'waiting', ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'question', id: 'q', question: { ...question, default: 'maybe' }, status: 'waiting', ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'question', id: 'q', question: { ...question, options: [question.options[0]] }, status: 'waiting', ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'tool_call', id: 't', call_id: 'c', tool: 'x', summary: 's', args: { any: [1] }, status: 'pending', approval: { kind: 'edit', added: 3, removed: 1 }, ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'tool_call', id: 't', call_id: 'c', tool: 'x', summary: 's', args: null, status: 'pending', approval: { kind: 'edit', added: 1.5 }, ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'tool_call', id: 't', call_id: 'c', tool: 'x', summary: 's', args: {}, status: 'done', display: { kind: 'read', title: 'Read file', verb: 'Read', path: 'a.ts', fold: 'run' }, ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'tool_call', id: 't', call_id: 'c', tool: 'x', summary: 's', args: {}, status: 'done', display: { kind: 'teleport', title: 't', verb: 'v' }, ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'tool_call', id: 't', call_id: 'c', tool: 'x', summary: 's', args: {}, status: 'done', display: { kind: 'read', title: 't', verb: 'v', detail: 'x'.repeat(2001) }, ts: 1 } }],
  ['HostEvent', { type: 'card_added', seq: 1, card: { kind: 'usage', id: 'u', model: 'm', role: 'actor', tokens_in: 1, tokens_out: 2, latency_ms: 3.5, outcome: 'ok', ts: 1 } }],
  ['HostEvent', { type: 'card_patched', seq: 2, id: 'c', patch: { status: 'done' } }],
  ['HostEvent', { type: 'card_patched', seq: 2, id: 'c', patch: 'nope' }],
  ['HostEvent', { type: 'role_changed', seq: 2, role: 'actor' }],
  ['HostEvent', { type: 'role_changed', seq: 2, role: 'admin' }],
  ['HostEvent', { type: 'usage_total', seq: 2, turn: { tokens_in: 1, tokens_out: 1 }, task: { tokens_in: 1, tokens_out: 1, cost_usd: 0.1 } }],
  ['HostEvent', { type: 'turn_ended', seq: 2, outcome: 'exploded' }],
  ['HostEvent', { type: 'snapshot', seq: 0, role: 'planner', cards: [textCard, planCard] }],
  ['HostEvent', { type: 'nope', seq: 0 }],
  ['HostUiMessage', { type: 'connection_result', ok: true, models: ['a'] }],
  ['HostUiMessage', { type: 'connection_result', ok: 'yes' }],
  ['HostUiMessage', { type: 'prefill', text: 'x' }],
  ['WebviewMessage', { type: 'send', text: 'x' }],
  ['WebviewMessage', { type: 'send', text: '' }],
  ['WebviewMessage', { type: 'send', text: 'x'.repeat(100_001) }],
  ['WebviewMessage', { type: 'approve', call_id: 'c'.repeat(201) }],
  ['WebviewMessage', { type: 'ready' }],
  ['WebviewMessage', { type: 'ready', last_seq: 3 }],
];

describe('webview zod on zod/mini', () => {
  let lean: Protocol;
  let full: Protocol;
  before(async () => {
    lean = await loadWebviewModule<Protocol>('src/protocol/index.ts', { leanZod: true });
    full = await loadWebviewModule<Protocol>('src/protocol/index.ts', { leanZod: false });
  });

  it('accepts and rejects exactly what classic zod does for the shared protocol', () => {
    let accepted = 0;
    for (const [name, payload] of cases) {
      const a = (full[name] as { safeParse(x: unknown): { success: boolean } }).safeParse(payload).success;
      const b = (lean[name] as { safeParse(x: unknown): { success: boolean } }).safeParse(payload).success;
      assert.equal(b, a, `${name} ${JSON.stringify(payload).slice(0, 160)}: classic ${a}, mini ${b}`);
      if (a) accepted++;
    }
    // The table must exercise both outcomes, or it proves nothing.
    assert.ok(accepted > 5 && accepted < cases.length - 5, `accepted ${accepted} of ${cases.length}`);
  });

  it('returns the parsed data, not the input object, like classic zod', () => {
    const r = lean.HostEvent.safeParse({ type: 'card_added', seq: 1, card: { ...textCard, extra: 'dropped' } });
    assert.equal(r.success, true);
    assert.equal(r.success && r.data.type === 'card_added' && 'extra' in r.data.card, false);
    assert.equal(r.success && r.data.type, 'card_added');
  });

  it('treats a modifier it does not map as a no-op instead of failing to load', async () => {
    type Shim = typeof import('../../../webview-ui/src/lib/zodOnMini');
    const { z } = await loadWebviewModule<Shim>('webview-ui/src/lib/zodOnMini.ts');
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const s = z.object({ a: z.string().min(2).brandNewModifier('x') });
      assert.equal(s.safeParse({ a: 'ok' }).success, true);
      assert.equal(s.safeParse({ a: 'x' }).success, false);
    } finally {
      console.warn = warn;
    }
  });
});
