import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import type { ScriptStep } from '../../support/scriptedServer';
import type { AgentSettings } from '../../../src/core/settings/settings';

const writeCall = { name: 'write_file', arguments: { path: 'a.txt', content: 'TRUNCATED-WRITE '.repeat(20) } };
const allowAll = (s: AgentSettings): AgentSettings => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: true } } });

describe('faults end the turn cleanly through the agent', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function run(steps: ScriptStep[], limits: Partial<AgentSettings['limits']> = {}) {
    h = await harness({ files: { 'a.txt': 'original\n' }, steps, settings: (s) => ({ ...allowAll(s), limits: { ...s.limits, ...limits } }) });
    const outcome = await h.agent.send('go');
    return { outcome, errors: h.cardsOf('error'), usage: h.cardsOf('usage') };
  }

  it('429 is retried (honouring retry-after) and the turn succeeds', async () => {
    const r = await run([{ type: 'fault', fault: 'rate_limit', retryAfterMs: 20 }, { type: 'text', text: 'fine now' }], { maxRetries: 2 });
    assert.equal(r.outcome, 'done');
    assert.equal(r.errors.length, 0);
    assert.equal(h!.server.chatRequests().length, 2);
    assert.equal(h!.cardsOf('text').at(-1)!.text, 'fine now');
  });

  it('a persistent 500 ends in an error card after the retries', async () => {
    const r = await run([{ type: 'fault', fault: 'server_error', repeat: true }], { maxRetries: 1 });
    assert.equal(r.outcome, 'error');
    assert.match(r.errors[0]!.message, /HTTP 500 after 2 attempts/);
    assert.equal(r.errors[0]!.retryable, true);
    assert.equal(r.usage[0]!.outcome, 'server_error');
    assert.equal(h!.events.at(-1)!.type, 'turn_ended');
  });

  it('a hang times out with the idle timeout', async () => {
    const r = await run([{ type: 'fault', fault: 'hang', repeat: true }], { requestIdleTimeoutMs: 250, firstOutputTimeoutMs: 250 });
    assert.equal(r.outcome, 'error');
    assert.match(r.errors[0]!.message, /did not answer within 250 ms/);
  });

  it('a stream that stalls midway is abandoned', async () => {
    const r = await run([{ type: 'fault', fault: 'stall', text: 'thinking about it', afterChunks: 2 }], { requestIdleTimeoutMs: 250 });
    assert.equal(r.outcome, 'error');
    assert.match(r.errors[0]!.message, /sent nothing for 0.3 s|sent nothing for 0.2 s|idle timeout/);
  });

  it('a connection reset gives a readable error', async () => {
    const r = await run([{ type: 'fault', fault: 'reset', repeat: true }]);
    assert.equal(r.outcome, 'error');
    assert.match(r.errors[0]!.message, /Could not reach http:\/\/127\.0\.0\.1:\d+\/v1: the connection was reset/);
  });

  it('a malformed JSON body gives a readable error', async () => {
    const r = await run([{ type: 'fault', fault: 'malformed_json' }]);
    assert.equal(r.outcome, 'error');
    assert.match(r.errors[0]!.message, /malformed response/);
  });

  it('malformed SSE gives a readable error', async () => {
    const r = await run([{ type: 'fault', fault: 'malformed_sse' }]);
    assert.equal(r.outcome, 'error');
    assert.match(r.errors[0]!.message, /malformed response/);
  });

  for (const mode of ['destroy', 'end'] as const) {
    it(`a stream cut before [DONE] in the middle of write_file's arguments (${mode}) runs nothing; the file is untouched`, async () => {
      const r = await run([{ type: 'fault', fault: 'cut', mode, calls: [writeCall], argChunkSize: 10, fraction: 0.5 }]);
      assert.equal(r.outcome, 'error');
      assert.match(r.errors[0]!.message, /cut off and not run/);
      assert.equal(h!.read('a.txt'), 'original\n');
      assert.equal(h!.toolCards().length, 0, 'no tool card: the call never reached the dispatcher');
    });
  }

  it('a cut after a complete first tool call still runs nothing from that message', async () => {
    const r = await run([{ type: 'fault', fault: 'cut', calls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'complete' } }, writeCall], argChunkSize: 10, fraction: 0.8 }]);
    assert.equal(r.outcome, 'error');
    assert.equal(fs.existsSync(path.join(h!.ws, 'b.txt')), false);
    assert.equal(h!.read('a.txt'), 'original\n');
  });

  it('after an error the next message starts a fresh, consistent request', async () => {
    h = await harness({
      steps: [{ type: 'fault', fault: 'server_error' }, { type: 'text', text: 'second try ok' }],
    });
    assert.equal(await h.agent.send('first'), 'error');
    assert.equal(await h.agent.send('second'), 'done');
    // The agent keeps both messages; the task's context fitting sends them as one user message, in order.
    assert.deepEqual(h.agent.conversation.map((m) => `${m.role}:${m.content}`), ['user:first', 'user:second', 'assistant:second try ok']);
    const msgs = h.server.chatRequests()[1].messages.map((m: any) => `${m.role}:${m.content}`);
    assert.deepEqual(msgs.slice(1), ['user:first\n\nsecond']);
  });
});
