import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { FAKE_WORKSPACE_TOOLS, bigTool, failingTool, fakeRead, rendezvous, waitTool } from '../../support/fakeTools';
import { CardStore } from '../../../src/core/events';
import { waitUntil } from '../../support/wait';
import { chunkedCalls, tc, text } from '../../support/scriptSteps';

const calls = chunkedCalls(4);
// Polled often: these tests act the moment a card reaches a state.
const SOON = { timeoutMs: 5000, everyMs: 5 };

/** The tool messages the agent sent back in the n-th chat request. */
function toolMessages(h: Harness, n: number): { tool_call_id: string; content: string }[] {
  return h.server.chatRequests()[n].messages.filter((m: any) => m.role === 'tool');
}

describe('turn loop', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('streams text into a text card, records usage, and ends the turn', async () => {
    h = await harness({ steps: [{ type: 'text', text: 'Hello from the model, in pieces.', chunkSize: 5, usage: { prompt_tokens: 321, completion_tokens: 12 } }], tools: [fakeRead] });
    const outcome = await h.agent.send('hi');
    assert.equal(outcome, 'done');
    const types = h.events.map((e) => e.type);
    const added = h.events.find((e) => e.type === 'card_added' && e.card.kind === 'text' && e.card.author === 'assistant');
    assert.ok(added, 'an assistant text card is added');
    const appends = h.events.filter((e) => e.type === 'text_appended');
    assert.ok(appends.length >= 5, 'the text arrives as several appends');
    assert.ok(types.indexOf('card_added') < types.indexOf('text_appended'));
    const textCard = h.cardsOf('text').find((c) => c.author === 'assistant')!;
    assert.equal(textCard.text, 'Hello from the model, in pieces.');
    assert.equal(textCard.streaming, false);
    const usage = h.cardsOf('usage');
    assert.equal(usage.length, 1);
    assert.deepEqual([usage[0]!.model, usage[0]!.role, usage[0]!.tokens_in, usage[0]!.tokens_out, usage[0]!.outcome], ['actor-model', 'actor', 321, 12, 'ok']);
    const total = h.events.find((e) => e.type === 'usage_total');
    assert.ok(total && total.type === 'usage_total' && total.task.tokens_in === 321);
    // Thinking, first waiting for the first token (said with the prompt's size), then idle.
    const states = h.events.flatMap((e) => (e.type === 'agent_state' ? [e.detail ? `${e.state}: ${e.detail.replace(/[\d,]+/, 'N')}` : e.state] : []));
    assert.deepEqual(states, ['thinking', "thinking: Waiting for the model's first token (prompt ~N tokens)", 'thinking', 'idle']);
    assert.deepEqual(h.events[h.events.length - 1], { type: 'turn_ended', seq: h.events.length, outcome: 'done' });
    // seq is 1..n without gaps, and the snapshot equals what a receiver rebuilds from the deltas.
    assert.deepEqual(h.events.map((e) => e.seq), h.events.map((_, i) => i + 1));
    const store = new CardStore();
    for (const e of h.events) store.apply(e);
    assert.deepEqual(store.all(), h.agent.cards());
  });

  it('sends the role prompt and model, and offers the Planner no write tools and no shell', async () => {
    h = await harness({ steps: [text('planner says hi'), text('actor says hi')], tools: FAKE_WORKSPACE_TOOLS, role: 'planner' });
    await h.agent.send('plan something');
    h.agent.setRole('actor');
    await h.agent.send('do something');
    const [p, a] = h.server.chatRequests();
    assert.equal(p.model, 'planner-model');
    assert.equal(a.model, 'actor-model');
    assert.match(p.messages[0].content, /Planner/);
    assert.match(a.messages[0].content, /Actor/);
    const [pt, at] = h.server.toolsOffered();
    for (const w of ['write_file', 'edit_file', 'apply_patch', 'delete_file', 'run_command']) {
      assert.ok(!pt!.includes(w), `Planner must not be offered ${w}`);
      assert.ok(at!.includes(w), `Actor is offered ${w}`);
    }
    assert.ok(pt!.includes('read_file') && pt!.includes('propose_plan'));
    assert.ok(!at!.includes('propose_plan'));
    assert.ok(h.events.some((e) => e.type === 'role_changed' && e.role === 'actor'));
  });

  it('refuses every write tool and the shell for the Planner at dispatch; the file stays byte-for-byte the same', async () => {
    const original = 'line one\r\nline two\n\u00e9\u0000 end';
    h = await harness({
      role: 'planner',
      tools: FAKE_WORKSPACE_TOOLS,
      files: { 'keep.txt': original },
      settings: (s) => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: true } }, limits: { ...s.limits, maxConsecutiveToolErrors: 10 } }),
      steps: [
        calls(
          tc('write_file', { path: 'keep.txt', content: 'overwritten' }),
          tc('edit_file', { path: 'keep.txt', edits: [{ old: 'line', new: 'LINE' }] }),
          tc('apply_patch', { patch: '--- a/keep.txt\n+++ b/keep.txt\n@@ -1 +1 @@\n-line one\n+x\n' }),
          tc('delete_file', { path: 'keep.txt' }),
          tc('run_command', { command: 'echo pwned > keep.txt' }),
          tc('write_file', { path: 'new.txt', content: 'created' }),
        ),
        text('ok, I cannot write'),
      ],
    });
    const outcome = await h.agent.send('please change keep.txt');
    assert.equal(outcome, 'done');
    assert.equal(h.read('keep.txt'), original);
    assert.throws(() => h!.read('new.txt'));
    const cards = h.toolCards();
    assert.equal(cards.length, 6);
    for (const c of cards) {
      assert.equal(c.status, 'refused', `${c.tool} refused`);
      assert.match(c.error ?? '', /not permitted for the Planner role/);
    }
    const back = toolMessages(h, 1);
    assert.equal(back.length, 6);
    for (const m of back) assert.match(m.content, /not permitted for the Planner role/);
    assert.equal(h.approvals.length, 0, 'nothing even asked for approval');
  });

  it('returns "unknown tool" for a tool that does not exist', async () => {
    h = await harness({ tools: [fakeRead], steps: [calls(tc('rm_rf', { path: '/' })), text('sorry')] });
    assert.equal(await h.agent.send('x'), 'done');
    const [card] = h.toolCards();
    assert.equal(card!.status, 'refused');
    assert.match(card!.error!, /unknown tool "rm_rf"/);
    assert.match(toolMessages(h, 1)[0]!.content, /unknown tool "rm_rf"\. Available tools: read_file/);
  });

  it('answers bad JSON, missing fields and wrong types with a concise error and keeps going', async () => {
    h = await harness({
      tools: [fakeRead],
      files: { 'a.txt': 'AAA' },
      settings: (s) => ({ ...s, limits: { ...s.limits, maxConsecutiveToolErrors: 5 } }),
      steps: [calls(tc('read_file', '{"path": "a.txt"'), tc('read_file', {}), tc('read_file', { path: 42 })), calls(tc('read_file', { path: 'a.txt' })), text('done')],
    });
    assert.equal(await h.agent.send('read'), 'done');
    const back = toolMessages(h, 1);
    assert.match(back[0]!.content, /Invalid arguments for read_file: the arguments are not valid JSON/);
    assert.match(back[1]!.content, /Invalid arguments for read_file: path: .*expected string/i);
    assert.match(back[2]!.content, /path: .*expected string, received number/i);
    assert.equal(toolMessages(h, 2).at(-1)!.content, 'AAA');
    assert.deepEqual(h.toolCards().map((c) => c.status), ['error', 'error', 'error', 'done']);
  });

  it('runs several tool calls of one message, split across chunks, and returns results in order', async () => {
    h = await harness({
      tools: [fakeRead],
      files: { 'a.txt': 'first file', 'b.txt': 'second file' },
      steps: [{ type: 'tool_calls', argChunkSize: 2, calls: [tc('read_file', { path: 'a.txt' }, 'call_a'), tc('read_file', { path: 'b.txt' }, 'call_b')] }, text('both read')],
    });
    assert.equal(await h.agent.send('read both'), 'done');
    const req = h.server.chatRequests()[1];
    const assistant = req.messages.find((m: any) => m.role === 'assistant');
    assert.deepEqual(assistant.tool_calls.map((c: any) => [c.id, c.function.name, JSON.parse(c.function.arguments)]), [
      ['call_a', 'read_file', { path: 'a.txt' }],
      ['call_b', 'read_file', { path: 'b.txt' }],
    ]);
    assert.deepEqual(toolMessages(h, 1).map((m) => [m.tool_call_id, m.content]), [['call_a', 'first file'], ['call_b', 'second file']]);
  });

  it('runs read-only calls of one message concurrently', async () => {
    const meet = rendezvous(3);
    h = await harness({ tools: [meet], steps: [calls(tc('rendezvous', { tag: 'a' }), tc('rendezvous', { tag: 'b' }), tc('rendezvous', { tag: 'c' })), text('met')] });
    await h.agent.send('go');
    assert.equal(meet.maxSeen(), 3, 'all three were running at the same time');
  });

  it('runs a writing call alone, after the read-only calls before it', async () => {
    const meet = rendezvous(2);
    h = await harness({
      tools: [meet, ...FAKE_WORKSPACE_TOOLS],
      settings: (s) => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: false, command: false } } }),
      steps: [calls(tc('rendezvous', { tag: 'a' }), tc('write_file', { path: 'w.txt', content: 'W' }), tc('rendezvous', { tag: 'b' })), text('ok')],
    });
    await h.agent.send('go');
    assert.equal(meet.maxSeen(), 1, 'the write between them keeps the reads apart');
    assert.equal(h.read('w.txt'), 'W');
  });

  it('caps a large tool result and says what was left out', async () => {
    h = await harness({ tools: [bigTool], settings: (s) => ({ ...s, limits: { ...s.limits, maxToolResultChars: 1000 } }), steps: [calls(tc('big', { n: 50_000 })), text('ok')] });
    await h.agent.send('go');
    const content = toolMessages(h, 1)[0]!.content;
    assert.ok(content.length < 1200, `capped (${content.length})`);
    assert.match(content, /49000 characters left out/);
    assert.ok(content.startsWith('AAA') && content.endsWith('BBB'), 'keeps head and tail');
  });

  it('asks to continue at the tool-call limit and goes on when allowed', async () => {
    h = await harness({
      tools: [fakeRead],
      files: { 'a.txt': 'A' },
      settings: (s) => ({ ...s, limits: { ...s.limits, maxToolCallsPerTurn: 2 } }),
      steps: [calls(tc('read_file', { path: 'a.txt' })), calls(tc('read_file', { path: 'a.txt' })), calls(tc('read_file', { path: 'a.txt' })), text('finished')],
      // The panel answers through continueAfterLimit; the host's asker never answers.
      asker: { ask: (_q, _id, signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))) },
    });
    const p = h.agent.send('go');
    await waitUntil(() => h!.cardsOf('question').length === 1, 'the question card', SOON);
    assert.ok(h.events.some((e) => e.type === 'agent_state' && e.state === 'waiting_on_user'));
    assert.equal(h.toolCards().length, 3);
    assert.equal(h.toolCards()[2]!.status, 'pending', 'the third call waits for the answer');
    h.agent.continueAfterLimit(true);
    assert.equal(await p, 'done');
    assert.deepEqual(h.toolCards().map((c) => c.status), ['done', 'done', 'done']);
    assert.equal(h.cardsOf('question')[0]!.status, 'answered');
  });

  it('ends the turn with outcome limit when the user declines to continue', async () => {
    h = await harness({
      tools: [fakeRead],
      files: { 'a.txt': 'A' },
      settings: (s) => ({ ...s, limits: { ...s.limits, maxToolCallsPerTurn: 1 } }),
      steps: [calls(tc('read_file', { path: 'a.txt' }), tc('read_file', { path: 'a.txt' })), text('never requested')],
      asker: { ask: async () => 'stop' },
    });
    assert.equal(await h.agent.send('go'), 'limit');
    assert.deepEqual(h.toolCards().map((c) => c.status), ['done', 'error']);
    assert.match(h.toolCards()[1]!.error!, /limit of 1 tool calls/);
    assert.equal(h.server.chatRequests().length, 1);
    assert.equal(h.server.remainingSteps, 1);
  });

  it('ends the turn waiting when nobody can answer the limit question (headless)', async () => {
    h = await harness({
      tools: [fakeRead],
      files: { 'a.txt': 'A' },
      settings: (s) => ({ ...s, limits: { ...s.limits, maxToolCallsPerTurn: 1 } }),
      steps: [calls(tc('read_file', { path: 'a.txt' })), calls(tc('read_file', { path: 'a.txt' })), text('x')],
    });
    assert.equal(await h.agent.send('go'), 'waiting');
    assert.equal(h.cardsOf('question')[0]!.status, 'waiting');
  });

  it('stops after 3 consecutive tool errors and tells the user', async () => {
    h = await harness({
      tools: [failingTool, ...FAKE_WORKSPACE_TOOLS],
      settings: (s) => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: true } } }),
      steps: [calls(tc('flaky', {})), calls(tc('flaky', {}), tc('flaky', {}), tc('write_file', { path: 'w.txt', content: 'x' })), text('never requested')],
    });
    assert.equal(await h.agent.send('go'), 'error');
    const statuses = h.toolCards().map((c) => [c.status, c.error]);
    assert.deepEqual(statuses.map((s) => s[0]), ['error', 'error', 'error', 'error']);
    assert.match(String(statuses[3]![1]), /Not run: 3 tool calls in a row failed/);
    assert.throws(() => h!.read('w.txt'), 'the call after the third error never ran');
    const err = h.cardsOf('error')[0]!;
    assert.match(err.message, /Stopped after 3 tool calls failed in a row/);
    assert.match(err.detail ?? '', /flaky failed/);
    assert.equal(h.server.chatRequests().length, 2);
  });

  it('a success resets the consecutive-error count', async () => {
    h = await harness({
      tools: [failingTool, fakeRead],
      files: { 'a.txt': 'A' },
      steps: [calls(tc('flaky', {}), tc('flaky', {}), tc('read_file', { path: 'a.txt' }), tc('flaky', {}), tc('flaky', {})), text('fine')],
    });
    assert.equal(await h.agent.send('go'), 'done');
  });

  it('Stop during a running tool ends the turn as stopped', async () => {
    h = await harness({ tools: [waitTool], steps: [calls(tc('wait_forever', {})), text('never')] });
    const p = h.agent.send('go');
    await waitUntil(() => h!.toolCards()[0]?.status === 'running', 'the tool to run', SOON);
    h.agent.stop();
    assert.equal(await p, 'stopped');
    assert.equal(h.toolCards()[0]!.status, 'error');
    assert.deepEqual(h.events[h.events.length - 1]!.type, 'turn_ended');
    assert.equal((h.events[h.events.length - 1] as any).outcome, 'stopped');
    assert.equal(h.server.chatRequests().length, 1);
  });

  it('Stop mid-stream aborts the request', async () => {
    h = await harness({ tools: [fakeRead], steps: [{ type: 'text', text: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 5 }] });
    const p = h.agent.send('go');
    await waitUntil(() => h!.events.filter((e) => e.type === 'text_appended').length > 3, 'the text to stream', SOON);
    h.agent.stop();
    assert.equal(await p, 'stopped');
    const t = h.cardsOf('text').find((c) => c.author === 'assistant')!;
    assert.ok(t.text.length < 2000, 'the stream did not run to the end');
    assert.equal(t.streaming, false);
    assert.equal(h.cardsOf('error').length, 0, 'a stop is not an error');
  });

  it('switching Actor → Planner mid-run stops the run and says so', async () => {
    h = await harness({ tools: [waitTool], steps: [calls(tc('wait_forever', {})), text('never')] });
    const p = h.agent.send('go');
    await waitUntil(() => h!.toolCards()[0]?.status === 'running', 'the tool to run', SOON);
    h.agent.setRole('planner');
    assert.equal(await p, 'stopped');
    assert.equal(h.agent.role, 'planner');
    assert.ok(h.cardsOf('text').some((c) => c.author === 'system' && /Stopped the Actor's run: switched to the Planner/.test(c.text)));
    assert.ok(h.events.some((e) => e.type === 'role_changed' && e.role === 'planner'));
  });
});
