import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { rebuildMessages } from '../../../src/core/history/rebuildMessages';

const notes = (h: Harness) => h.cardsOf('text').filter((c) => c.author === 'system').map((c) => c.text);

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

describe('retries: waits are visible and Stop ends them at once', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('Stop during a 429 retry-after wait ends the turn stopped and sends nothing more', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'rate_limit', retryAfterSeconds: 600, repeat: true }], settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2 } }) });
    const turn = h.agent.send('hello');
    // The wait is said in the chat (capped: nobody watches a silent chat for 10 minutes).
    await until(() => notes(h!).length > 0);
    assert.match(notes(h)[0]!, /rate-limiting.*retrying in 60 s \(it asked for 600 s; waiting at most 60 s\)/);
    h.agent.stop();
    assert.equal(await turn, 'stopped');
    assert.equal(h.events.at(-1)!.type, 'turn_ended');
    // Let any timer that survived the stop fire into the server, then count.
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(h.server.chatRequests().length, 1);
    assert.equal(h.cardsOf('error').length, 0);
  });

  it('a hanging server is retried once after the idle timeout, then an error card names the timeout', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'hang', repeat: true }], settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2, requestIdleTimeoutMs: 200, firstOutputTimeoutMs: 200 } }) });
    assert.equal(await h.agent.send('hello'), 'error');
    assert.equal(h.server.chatRequests().length, 2);
    assert.deepEqual(notes(h), ['No response for 200 ms; retrying once.']);
    const errors = h.cardsOf('error');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /did not answer within 200 ms after 2 attempts/);
  });

  it('a stream that sends headers and then nothing is also retried once (nothing reached the chat yet)', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'stall', text: 'never shown', afterChunks: 0, repeat: true }], settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2, requestIdleTimeoutMs: 200, firstOutputTimeoutMs: 200 } }) });
    assert.equal(await h.agent.send('hello'), 'error');
    assert.equal(h.server.chatRequests().length, 2);
    assert.match(h.cardsOf('error')[0]!.message, /no first token within 200 ms after 2 attempts/);
  });

  it('a stream that stalls after text reached the chat is not retried (the text would show twice)', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'stall', text: 'partly shown answer', afterChunks: 2, chunkSize: 4, repeat: true }], settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2, requestIdleTimeoutMs: 200, firstOutputTimeoutMs: 10_000 } }) });
    assert.equal(await h.agent.send('hello'), 'error');
    assert.equal(h.server.chatRequests().length, 1);
    assert.deepEqual(notes(h), []);
  });

  it('a 503 is retried after a short back-off that the chat mentions, then succeeds', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'server_error', status: 503 }, { type: 'text', text: 'ok now' }], settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2 } }) });
    assert.equal(await h.agent.send('hello'), 'done');
    assert.equal(h.server.chatRequests().length, 2);
    assert.match(notes(h)[0]!, /HTTP 503; retrying in \d+ ms, retry 1 of 2/);
  });

  it('the final plan request shows its retry wait in the chat too', async () => {
    const plan = { format_version: '1.0', goal: 'Rename', steps: [{ step_number: 1, action: 'Rename hello to greet in a.txt', reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['a.txt'] }], estimated_total_time: '1 min', risks: [], prerequisites: [] };
    h = await harness({
      role: 'planner',
      files: { 'a.txt': 'hello\n' },
      steps: [{ type: 'text', text: 'I would rename it.' }, { type: 'fault', fault: 'server_error', status: 502 }, { type: 'json', value: plan }],
      settings: (s) => ({ ...s, structuredOutputs: 'on', limits: { ...s.limits, maxRetries: 1 } }),
    });
    assert.equal(await h.agent.send('plan the rename', { requirePlan: true }), 'done');
    assert.equal(h.cardsOf('plan')[0]!.plan?.goal, 'Rename');
    assert.match(notes(h).join('\n'), /HTTP 502; retrying in \d+ ms, retry 1 of 1/);
  });

  it('a retry note is chat-only: a resumed conversation rebuilt from the cards leaves it out', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'server_error', status: 503 }, { type: 'text', text: 'ok now' }], settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 1 } }) });
    assert.equal(await h.agent.send('hello'), 'done');
    assert.equal(notes(h).length, 1);
    assert.deepEqual(rebuildMessages(h.agent.cards()), [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'ok now' }]);
  });
});
