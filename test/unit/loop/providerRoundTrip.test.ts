/**
 * What the agent does with providers' stream shapes: what the user sees (answer, collapsed
 * reasoning, notices) and what goes back to the provider on the next request (asserted on the
 * requests the scripted server received).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { fakeRead, fakeWrite } from '../../support/fakeTools';
import type { ScriptStep } from '../../support/scriptedServer';
import { text } from '../../support/scriptSteps';

const fixture = (name: string): ScriptStep => ({ type: 'raw_sse', body: fs.readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'streams', name), 'utf8'), pieces: 5 });

describe('provider fields and reasoning through the agent', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('Gemini: both parallel calls run, and the thought signature goes back on the assistant message verbatim', async () => {
    h = await harness({ steps: [fixture('gemini-parallel-empty-ids.sse'), text('Both read.')], tools: [fakeRead], files: { 'a.txt': 'alpha\n', 'b.txt': 'bravo\n' } });
    assert.equal(await h.agent.send('read both'), 'done');
    const cards = h.toolCards();
    assert.deepEqual(cards.map((c) => [c.tool, (c.args as { path: string }).path, c.status]), [['read_file', 'a.txt', 'done'], ['read_file', 'b.txt', 'done']]);
    const second = h.server.chatRequests()[1];
    const assistant = second.messages.find((m: any) => m.role === 'assistant');
    assert.equal(assistant.tool_calls.length, 2);
    assert.deepEqual(assistant.tool_calls[0].extra_content, { google: { thought_signature: 'CiQBVKhc7sig1Q==' } });
    assert.equal(assistant.tool_calls[1].extra_content, undefined);
    const results = second.messages.filter((m: any) => m.role === 'tool');
    assert.deepEqual(results.map((m: any) => m.tool_call_id), assistant.tool_calls.map((c: any) => c.id));
    assert.match(results[0].content, /alpha/);
    assert.match(results[1].content, /bravo/);
  });

  it('Gemini: two different functions in one chunk run as two calls (no merged names)', async () => {
    h = await harness({
      steps: [fixture('gemini-two-functions-one-chunk.sse'), text('Done.')],
      tools: [fakeRead, fakeWrite],
      files: { 'a.txt': 'alpha\n' },
      approver: { request: async () => ({ approved: true }) },
    });
    assert.equal(await h.agent.send('go'), 'done');
    assert.deepEqual(h.toolCards().map((c) => c.tool), ['read_file', 'write_file']);
    assert.equal(h.read('b.txt'), 'B');
  });

  it('DeepSeek: reasoning_content goes back on the assistant turn with tool calls, and is shown apart from the answer', async () => {
    h = await harness({ steps: [fixture('deepseek-reasoning-tool-call.sse'), text('The notes say hi.')], tools: [fakeRead], files: { 'notes.txt': 'hi\n' } });
    assert.equal(await h.agent.send('what do the notes say?'), 'done');
    const assistant = h.server.chatRequests()[1].messages.find((m: any) => m.role === 'assistant');
    assert.equal(assistant.reasoning_content, 'I should read the file first.');
    assert.equal(assistant.tool_calls[0].function.name, 'read_file');
    const thinking = h.cardsOf('text').find((c) => c.author === 'assistant' && c.reasoning);
    assert.equal(thinking?.reasoning, 'I should read the file first.');
    assert.equal(thinking?.text, '', 'reasoning is not the answer');
  });

  it('Mistral: array content becomes string text in the card and the conversation; thinking parts are reasoning', async () => {
    h = await harness({ steps: [fixture('mistral-array-content.sse'), text('again')], tools: [fakeRead] });
    assert.equal(await h.agent.send('2+2?'), 'done');
    const card = h.cardsOf('text').find((c) => c.author === 'assistant')!;
    assert.equal(card.text, '2 + 2 = **4**.');
    assert.equal(card.reasoning, 'The user wants the sum. 2 plus 2 is 4.');
    for (const e of h.events) if (e.type === 'text_appended' || e.type === 'reasoning_appended') assert.equal(typeof e.text, 'string');
    await h.agent.send('and again');
    const assistant = h.server.chatRequests()[1].messages.find((m: any) => m.role === 'assistant');
    assert.equal(assistant.content, '2 + 2 = **4**.');
  });

  it('OpenRouter: reasoning_details (with the signature) go back on a tool-call turn, the comments are ignored', async () => {
    const body = fs.readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'streams', 'openrouter-comments-reasoning.sse'), 'utf8')
      .replace('"content":"Hello"', '"content":"","tool_calls":[{"index":0,"id":"toolu_01","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"a.txt\\"}"}}]')
      .replace('"content":" from OpenRouter."', '"content":""')
      .replace('"finish_reason":"stop"', '"finish_reason":"tool_calls"');
    h = await harness({ steps: [{ type: 'raw_sse', body, pieces: 9 }, text('ok')], tools: [fakeRead], files: { 'a.txt': 'alpha\n' } });
    assert.equal(await h.agent.send('read a'), 'done');
    const assistant = h.server.chatRequests()[1].messages.find((m: any) => m.role === 'assistant');
    assert.equal(assistant.reasoning, 'Let me think briefly.');
    assert.deepEqual(assistant.reasoning_details, [{ type: 'reasoning.text', text: 'Let me think briefly.', format: 'anthropic-claude-v1', index: 0, signature: 'EqQBCkgIBxABGAIiQL' }]);
  });

  it('an answer ended by finish_reason "length" says it was cut off', async () => {
    h = await harness({ steps: [{ type: 'text', text: 'The answer is long and', finishReason: 'length' }], tools: [fakeRead] });
    assert.equal(await h.agent.send('explain'), 'done');
    const notes = h.cardsOf('text').filter((c) => c.author === 'system').map((c) => c.text);
    assert.ok(notes.some((n) => /cut off.*output limit/.test(n)), notes.join('\n'));
    assert.equal(h.cardsOf('usage')[0]!.outcome, 'length');
  });

  it('usage the endpoint did not report is labelled as estimated; reported usage is not', async () => {
    h = await harness({ steps: [{ type: 'text', text: 'no usage here', usage: false }, { type: 'text', text: 'with usage', usage: { prompt_tokens: 5, completion_tokens: 2 } }], tools: [fakeRead] });
    await h.agent.send('one');
    await h.agent.send('two');
    const usage = h.cardsOf('usage');
    assert.equal(usage[0]!.estimated, true);
    assert.equal(usage[1]!.estimated, undefined);
  });

  it('says it is waiting for the first token, with the prompt size, and clears it when the answer starts', async () => {
    h = await harness({ steps: [{ type: 'text', text: 'hello', firstChunkDelayMs: 200 }], tools: [fakeRead] });
    await h.agent.send('hi');
    const states = h.events.filter((e) => e.type === 'agent_state').map((e) => (e.type === 'agent_state' ? e.detail ?? e.state : ''));
    const i = states.findIndex((s) => /^Waiting for the model's first token \(prompt ~[\d,]+ tokens\)$/.test(s));
    assert.ok(i >= 0, states.join(' | '));
    assert.equal(states[i + 1], 'thinking', 'the detail is cleared once tokens arrive');
  });

  it('a long tool-call stream reports its progress while it arrives', async () => {
    h = await harness({
      steps: [{ type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'big.txt', content: 'x'.repeat(20_000) } }], argChunkSize: 500 }, text('written')],
      tools: [fakeRead, fakeWrite],
      approver: { request: async () => ({ approved: true }) },
    });
    await h.agent.send('write it');
    const details = h.events.flatMap((e) => (e.type === 'agent_state' && e.detail?.startsWith('Receiving') ? [e.detail] : []));
    assert.ok(details.length >= 3, details.join(' | '));
    assert.match(details.at(-1)!, /Receiving a tool call \(16,384\+ characters\)/);
  });
});
