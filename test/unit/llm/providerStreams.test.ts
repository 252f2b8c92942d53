/**
 * Streams in the shapes real providers send (recorded as fixtures from their documented chunk
 * formats, in test/fixtures/streams), served verbatim by the scripted server over a real socket and
 * read by the real LlmClient and openai SDK.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LlmClient, LlmError } from '../../../src/core/llm';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';

const fixture = (name: string) => fs.readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'streams', name), 'utf8');

describe('provider stream shapes', () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  async function client(steps: ScriptStep[], opts: { maxRetries?: number } = {}) {
    server = await ScriptedServer.start(steps);
    return new LlmClient({ baseURL: server.url, apiKey: 'sk-test-secret-123', maxRetries: opts.maxRetries ?? 0, idleTimeoutMs: 5000 });
  }
  const req = { model: 'm1', messages: [{ role: 'user' as const, content: 'hi' }] };
  const raw = (name: string, pieces = 7): ScriptStep => ({ type: 'raw_sse', body: fixture(name), pieces });

  async function failure(p: Promise<unknown>): Promise<LlmError> {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof LlmError, `expected LlmError, got ${e}`);
      return e;
    }
    assert.fail('expected the request to fail');
  }

  it('Mistral: content as an array of parts gives text as a string and thinking parts as reasoning', async () => {
    const c = await client([raw('mistral-array-content.sse')]);
    const shown: string[] = [];
    const thought: string[] = [];
    const r = await c.stream(req, { onText: (t) => shown.push(t), onReasoning: (t) => thought.push(t) });
    assert.equal(r.text, '2 + 2 = **4**.');
    for (const piece of shown) assert.equal(typeof piece, 'string');
    assert.equal(shown.join(''), '2 + 2 = **4**.');
    assert.equal(r.reasoning, 'The user wants the sum. 2 plus 2 is 4.');
    assert.equal(thought.join(''), r.reasoning);
    assert.doesNotMatch(r.text, /object Object|thinking/);
    assert.deepEqual(r.usage, { tokensIn: 14, tokensOut: 56, estimated: false });
  });

  it('DeepSeek: reasoning_content is reasoning, and comes back as reasoning_content on the tool-call turn', async () => {
    const c = await client([raw('deepseek-reasoning-tool-call.sse')]);
    const r = await c.stream(req);
    assert.equal(r.text, '');
    assert.equal(r.reasoning, 'I should read the file first.');
    assert.deepEqual(r.toolCalls.map((t) => [t.id, t.name, JSON.parse(t.arguments)]), [['call_00_Xk1', 'read_file', { path: 'notes.txt' }]]);
    assert.deepEqual(r.messageFields, { reasoning_content: 'I should read the file first.' });
    assert.deepEqual(r.usage, { tokensIn: 31, tokensOut: 25, estimated: false });
  });

  it('Gemini: two parallel calls with id "" and no index stay two calls, the thought signature kept on the first', async () => {
    const c = await client([raw('gemini-parallel-empty-ids.sse')]);
    const r = await c.stream(req);
    assert.equal(r.finishReason, 'tool_calls');
    assert.deepEqual(r.toolCalls.map((t) => [t.name, JSON.parse(t.arguments)]), [['read_file', { path: 'a.txt' }], ['read_file', { path: 'b.txt' }]]);
    assert.equal(new Set(r.toolCalls.map((t) => t.id)).size, 2, 'each call gets its own id');
    assert.deepEqual(r.toolCalls[0]!.providerFields, { extra_content: { google: { thought_signature: 'CiQBVKhc7sig1Q==' } } });
    assert.equal(r.toolCalls[1]!.providerFields, undefined);
  });

  it('Gemini: two different functions in one chunk without index are not merged (no concatenated names)', async () => {
    const c = await client([raw('gemini-two-functions-one-chunk.sse')]);
    const r = await c.stream(req);
    assert.deepEqual(r.toolCalls.map((t) => [t.name, JSON.parse(t.arguments)]), [['read_file', { path: 'a.txt' }], ['write_file', { path: 'b.txt', content: 'B' }]]);
  });

  it('OpenRouter: comment lines are skipped, reasoning shown once, reasoning_details kept whole with the signature', async () => {
    const c = await client([raw('openrouter-comments-reasoning.sse', 13)]);
    const r = await c.stream(req);
    assert.equal(r.text, 'Hello from OpenRouter.');
    assert.equal(r.reasoning, 'Let me think briefly.');
    assert.deepEqual(r.usage, { tokensIn: 11, tokensOut: 21, estimated: false });
    // No tool calls: nothing needs to go back.
    assert.equal(r.messageFields, undefined);
  });

  it('OpenRouter: a mid-stream error object ends the request with the provider\'s message', async () => {
    const c = await client([raw('openrouter-midstream-error.sse')]);
    const e = await failure(c.stream(req));
    assert.match(e.message, /Provider disconnected unexpectedly/);
    assert.equal(e.opts.partialText, 'Partial answer');
  });

  it('a proxy that ends with finish_reason "error" is an error, not an answer', async () => {
    const c = await client([raw('proxy-finish-error.sse')]);
    const e = await failure(c.stream(req));
    assert.match(e.message, /Upstream model overloaded/);
  });

  it('Groq: usage under x_groq is the reported usage', async () => {
    const c = await client([raw('groq-usage-in-x-groq.sse')]);
    const r = await c.stream(req);
    assert.equal(r.text, 'Hi there.');
    assert.deepEqual(r.usage, { tokensIn: 18, tokensOut: 3, estimated: false });
  });

  it('Moonshot: usage inside the finishing choice is the reported usage', async () => {
    const c = await client([raw('moonshot-usage-in-choice.sse')]);
    const r = await c.stream(req);
    assert.deepEqual(r.usage, { tokensIn: 19, tokensOut: 13, estimated: false });
  });

  it('older Ollama: calls all at index 0 with distinct ids are separate calls', async () => {
    const c = await client([raw('ollama-index0-distinct-ids.sse')]);
    const r = await c.stream(req);
    assert.deepEqual(r.toolCalls.map((t) => [t.id, JSON.parse(t.arguments).path]), [['call_k2j4', 'a.txt'], ['call_p9q1', 'b.txt']]);
  });

  it('llama-server: reasoning_content apart from the answer, usage from the last chunk', async () => {
    const c = await client([raw('llama-server-reasoning.sse')]);
    const r = await c.stream(req);
    assert.equal(r.text, 'Yes.');
    assert.equal(r.reasoning, 'Short question.');
    assert.deepEqual(r.usage, { tokensIn: 12, tokensOut: 9, estimated: false });
  });
});
