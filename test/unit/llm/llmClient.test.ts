import assert from 'node:assert/strict';
import { LlmClient, LlmError } from '../../../src/core/llm';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';

describe('llm client against the scripted server', () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  async function client(steps: ScriptStep[], opts: { maxRetries?: number; idleTimeoutMs?: number } = {}) {
    server = await ScriptedServer.start(steps);
    return new LlmClient({ baseURL: server.url, apiKey: 'sk-test-secret-123', maxRetries: opts.maxRetries ?? 2, idleTimeoutMs: opts.idleTimeoutMs ?? 5000 });
  }
  const req = { model: 'm1', messages: [{ role: 'user' as const, content: 'hi' }] };

  async function failure(p: Promise<unknown>): Promise<LlmError> {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof LlmError, `expected LlmError, got ${e}`);
      return e;
    }
    assert.fail('expected the request to fail');
  }

  it('streams text in fragments and reports the usage from the final chunk', async () => {
    const c = await client([{ type: 'text', text: 'Hello there, streaming world', chunkSize: 4, usage: { prompt_tokens: 42, completion_tokens: 7 } }]);
    const pieces: string[] = [];
    const r = await c.stream(req, { onText: (t) => pieces.push(t) });
    assert.equal(r.text, 'Hello there, streaming world');
    assert.ok(pieces.length >= 5, 'text arrives in several fragments');
    assert.deepEqual(r.usage, { tokensIn: 42, tokensOut: 7, estimated: false });
    assert.equal(r.finishReason, 'stop');
    const body = server.chatRequests()[0];
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer sk-test-secret-123');
  });

  it('reassembles several tool calls whose arguments are split across many chunks', async () => {
    const c = await client([{ type: 'tool_calls', argChunkSize: 3, calls: [
      { id: 'a', name: 'read_file', arguments: { path: 'src/a.ts', offset: 10 } },
      { id: 'b', name: 'search', arguments: { pattern: 'foo\\(bar\\)', path: '.' } },
    ] }]);
    const r = await c.stream(req);
    assert.equal(r.finishReason, 'tool_calls');
    assert.deepEqual(r.toolCalls.map((t) => [t.id, t.name, JSON.parse(t.arguments)]), [
      ['a', 'read_file', { path: 'src/a.ts', offset: 10 }],
      ['b', 'search', { pattern: 'foo\\(bar\\)', path: '.' }],
    ]);
  });

  it('retries a 429 honouring retry-after and then succeeds', async () => {
    const c = await client([{ type: 'fault', fault: 'rate_limit', retryAfterMs: 30 }, { type: 'text', text: 'ok after retry' }]);
    const r = await c.stream(req);
    assert.equal(r.text, 'ok after retry');
    assert.equal(server.chatRequests().length, 2);
  });

  it('gives up on a persistent 429 with a readable message', async () => {
    const c = await client([{ type: 'fault', fault: 'rate_limit', retryAfterMs: 5, repeat: true }], { maxRetries: 1 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'rate_limited');
    assert.match(e.message, /429/);
    assert.equal(server.chatRequests().length, 2);
  });

  it('reports a persistent 500 after the retries', async () => {
    const c = await client([{ type: 'fault', fault: 'server_error', repeat: true, retryAfterMs: 1 } as ScriptStep], { maxRetries: 1 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'server_error');
    assert.match(e.message, /HTTP 500 after 2 attempts/);
  });

  it('times out on a server that never answers', async () => {
    const c = await client([{ type: 'fault', fault: 'hang', repeat: true }], { maxRetries: 0, idleTimeoutMs: 300 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /did not answer within 300 ms/);
  });

  it('abandons a stream that goes silent midway (idle timeout)', async () => {
    const c = await client([{ type: 'fault', fault: 'stall', text: 'some words then nothing', afterChunks: 2 }], { maxRetries: 0, idleTimeoutMs: 300 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'idle_timeout');
    assert.match(e.message, /sent nothing for/);
  });

  it('reports a connection reset', async () => {
    const c = await client([{ type: 'fault', fault: 'reset', repeat: true }], { maxRetries: 1 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'connection');
    assert.match(e.message, /Could not reach .*reset|connection/);
  });

  it('reports malformed SSE data as a malformed response', async () => {
    const c = await client([{ type: 'fault', fault: 'malformed_sse' }], { maxRetries: 0 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'malformed');
    assert.match(e.message, /malformed/);
  });

  it('reports a JSON body that is not an event stream as malformed', async () => {
    const c = await client([{ type: 'fault', fault: 'malformed_json' }], { maxRetries: 0 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'malformed');
    assert.match(e.message, /malformed/);
  });

  it('reports an error event mid-stream', async () => {
    const c = await client([{ type: 'fault', fault: 'error_event', message: 'overloaded now' }], { maxRetries: 0 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'api_error');
    assert.match(e.message, /overloaded now/);
  });

  for (const mode of ['destroy', 'end'] as const) {
    it(`never returns a tool call cut off mid-arguments (socket ${mode})`, async () => {
      const c = await client([{ type: 'fault', fault: 'cut', mode, argChunkSize: 4, calls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x'.repeat(80) } }] }], { maxRetries: 0 });
      const e = await failure(c.stream(req));
      assert.equal(e.kind, 'cut_off');
      if (process.env.SHOW_MESSAGES) console.log(e.message);
      assert.equal(e.opts.partialToolCalls, 1);
      assert.match(e.message, /cut off and not run/);
    });
  }

  it('refuses tool calls when the model ran out of tokens mid-call', async () => {
    const c = await client([{ type: 'tool_calls', finishReason: 'length', calls: [{ name: 'write_file', arguments: '{"path":"a.txt","content":"tru' }] }]);
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'length');
  });

  it('stops when the signal is aborted mid-stream', async () => {
    const c = await client([{ type: 'text', text: 'a long answer '.repeat(50), chunkSize: 5, chunkDelayMs: 10 }]);
    const ac = new AbortController();
    let got = '';
    const p = c.stream(req, { signal: ac.signal, onText: (t) => { got += t; if (got.length > 20) ac.abort(); } });
    const e = await failure(p);
    assert.equal(e.kind, 'stopped');
  });

  it('estimates usage when the endpoint sends none', async () => {
    const c = await client([{ type: 'text', text: 'no usage here', usage: false }]);
    const r = await c.stream(req);
    assert.equal(r.usage.estimated, true);
    assert.ok(r.usage.tokensIn > 0 && r.usage.tokensOut > 0);
  });

  it('lists models and never puts the key in an error message', async () => {
    const c = await client([{ type: 'fault', fault: 'server_error', status: 401, message: 'bad key sk-test-secret-123' } as ScriptStep]);
    assert.deepEqual(await c.listModels(), ['scripted-model', 'scripted-model-large']);
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'auth');
    assert.ok(!e.message.includes('sk-test-secret-123'));
    assert.ok(!(e.detail ?? '').includes('sk-test-secret-123'));
  });
});
