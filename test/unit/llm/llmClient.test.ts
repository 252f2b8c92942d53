import assert from 'node:assert/strict';
import { LlmClient, LlmError } from '../../../src/core/llm';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';

describe('llm client against the scripted server', () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  async function client(steps: ScriptStep[], opts: { maxRetries?: number; idleTimeoutMs?: number; firstTokenTimeoutMs?: number; requestDeadlineMs?: number } = {}) {
    server = await ScriptedServer.start(steps);
    return new LlmClient({ baseURL: server.url, apiKey: 'sk-test-secret-123', maxRetries: opts.maxRetries ?? 2, idleTimeoutMs: opts.idleTimeoutMs ?? 5000, firstTokenTimeoutMs: opts.firstTokenTimeoutMs, requestDeadlineMs: opts.requestDeadlineMs });
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
    const c = await client([{ type: 'fault', fault: 'hang', repeat: true }], { maxRetries: 0, idleTimeoutMs: 300, firstTokenTimeoutMs: 300 });
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

  it('a 401 when no key was set says the key is missing, not that a key was refused', async () => {
    server = await ScriptedServer.start([{ type: 'fault', fault: 'server_error', status: 401, message: 'You didn\'t provide an API key.' } as ScriptStep]);
    const c = new LlmClient({ baseURL: server.url, apiKey: '', maxRetries: 0, idleTimeoutMs: 5000 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'auth');
    assert.doesNotMatch(e.message, /refused/);
    assert.match(e.message, /No API key is set/);
    // With a key, the key is what was refused.
    await server.close();
    const keyed = await client([{ type: 'fault', fault: 'server_error', status: 401, message: 'bad key' } as ScriptStep], { maxRetries: 0 });
    assert.match((await failure(keyed.stream(req))).message, /refused the API key/);
  });

  it('abandons an endless stream of empty deltas: only content, reasoning or tool-call bytes count as progress', async () => {
    const c = await client([{ type: 'fault', fault: 'drip', text: 'Start', everyMs: 20 }], { maxRetries: 0, idleTimeoutMs: 300 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'idle_timeout');
    assert.equal(e.opts.partialText, 'Start');
  });

  it('ends a drip-feed that keeps sending a little text at the overall request deadline', async () => {
    const c = await client([{ type: 'fault', fault: 'drip', content: '.', everyMs: 20 }], { maxRetries: 2, idleTimeoutMs: 300, requestDeadlineMs: 600 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'deadline');
    assert.match(e.message, /overall limit of 600 ms/);
    assert.equal(server.chatRequests().length, 1, 'the deadline is not retried');
  });

  it('waits for the first token under its own, longer limit and says how large the prompt is', async () => {
    const c = await client([{ type: 'text', text: 'slow start', firstChunkDelayMs: 500 }], { maxRetries: 0, idleTimeoutMs: 150, firstTokenTimeoutMs: 5000 });
    const waits: { promptTokens: number }[] = [];
    const r = await c.stream({ ...req, promptTokens: 1234 }, { onWaitingForFirstToken: (w) => waits.push(w) });
    assert.equal(r.text, 'slow start');
    assert.deepEqual(waits.map((w) => w.promptTokens), [1234]);
  });

  it('gives up when the first token takes longer than the first-token limit, and says which limit', async () => {
    const c = await client([{ type: 'text', text: 'too late', firstChunkDelayMs: 3000 }], { maxRetries: 0, idleTimeoutMs: 5000, firstTokenTimeoutMs: 200 });
    const e = await failure(c.stream(req));
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /no first token within 200 ms/);
  });

  it('does not follow a redirect to another origin: nothing is sent to the other host', async () => {
    const other = await ScriptedServer.start([{ type: 'text', text: 'stolen' }]);
    try {
      const c = await client([{ type: 'fault', fault: 'redirect', location: `${other.url}/chat/completions`, repeat: true }]);
      const e = await failure(c.stream(req));
      assert.equal(e.kind, 'redirect');
      assert.match(e.message, /redirected to another host/);
      assert.equal(other.requests.length, 0, 'the other host received nothing');
      assert.equal(server.chatRequests().length, 1, 'a refused redirect is not retried');
    } finally {
      await other.close();
    }
  });

  it('follows a redirect within the same origin', async () => {
    const c = await client([]);
    server.push({ type: 'fault', fault: 'redirect', location: `${server.url}/chat/completions?moved=1` }, { type: 'text', text: 'moved here' });
    const r = await c.stream(req);
    assert.equal(r.text, 'moved here');
  });

  it('does not retry llama-server\'s "tools param requires --jinja flag" 500, and names the fix', async () => {
    const c = await client([{ type: 'fault', fault: 'server_error', status: 500, message: 'tools param requires --jinja flag', repeat: true }], { maxRetries: 2 });
    const e = await failure(c.stream(req));
    assert.equal(server.chatRequests().length, 1, 'a deterministic error is sent once');
    assert.match(e.message, /--jinja/);
    assert.match(e.message, /Start llama-server with --jinja/);
    assert.doesNotMatch(e.message, /HTTP 500\)?: 500/);
  });

  it('does not retry 400/404/422, says the status once, and names a fix for "does not support tools"', async () => {
    for (const [status, message] of [[400, 'registry.ollama.ai/library/gemma:2b does not support tools'], [404, 'model not found'], [422, 'Unprocessable request']] as const) {
      const c = await client([{ type: 'fault', fault: 'server_error', status, message, repeat: true }], { maxRetries: 2 });
      const e = await failure(c.stream(req));
      assert.equal(server.chatRequests().length, 1, `HTTP ${status} is sent once`);
      assert.ok(!e.message.includes(`${status}): ${status}`), e.message);
      assert.ok(!e.message.includes(`HTTP ${status}: ${status}`), e.message);
      if (status === 400) assert.match(e.message, /This model does not support tools/);
      await server.close();
    }
  });
});
