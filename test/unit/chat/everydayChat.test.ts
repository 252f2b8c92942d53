/**
 * The core half of the everyday chat: a command's card says how it exited, what the user typed with
 * Approve reaches the model, an LLM auth failure is marked on its error card, and which endpoints
 * want a key before the first request.
 */
import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import type { AgentSettings } from '../../../src/core/settings/settings';
import { commandExit } from '../../../src/core/tools/runCommand';
import { endpointNeedsKey } from '../../../src/protocol/endpointNeedsKey';
import { calls, tc, text } from '../../support/scriptSteps';

const noRetries = (s: AgentSettings): AgentSettings => ({ ...s, limits: { ...s.limits, maxRetries: 0 } });

describe('everyday chat: what the cards say', () => {
  let h: Harness | undefined;
  afterEach(async () => { await h?.close(); h = undefined; });

  it('a command card carries how the command exited: success, or failed with its exit code', async () => {
    h = await harness({
      role: 'actor',
      approver: { request: async () => ({ approved: true }) },
      steps: [calls(tc('run_command', { command: 'echo fine' })), calls(tc('run_command', { command: 'echo bad; exit 3' })), text('ran both')],
    });
    assert.equal(await h.agent.send('run them'), 'done');
    const [ok, bad] = h.toolCards();
    assert.deepEqual(ok!.exit, { outcome: 'success', code: 0 });
    assert.deepEqual(bad!.exit, { outcome: 'failed', code: 3 });
  });

  it('killed and timed-out commands are neither success nor failure', () => {
    assert.deepEqual(commandExit({ exitCode: null, output: '', timedOut: true, cancelled: false }), { outcome: 'timed_out', code: null });
    assert.deepEqual(commandExit({ exitCode: null, output: '', timedOut: false, cancelled: true }), { outcome: 'killed', code: null });
    assert.deepEqual(commandExit({ exitCode: null, output: '', timedOut: false, cancelled: false }), { outcome: 'killed', code: null });
    assert.deepEqual(commandExit({ exitCode: 1, output: '', timedOut: false, cancelled: false }), { outcome: 'failed', code: 1 });
  });

  it('what the user typed with Approve goes to the model with the result; the card shows the result alone', async () => {
    h = await harness({
      role: 'actor',
      files: { 'a.txt': 'old\n' },
      approver: { request: async () => ({ approved: true, note: 'then add a test' }) },
      steps: [calls(tc('read_file', { path: 'a.txt' })), calls(tc('write_file', { path: 'a.txt', content: 'new\n' })), text('done')],
    });
    assert.equal(await h.agent.send('rewrite a'), 'done');
    assert.equal(h.read('a.txt'), 'new\n');
    const last = h.server.chatRequests().at(-1) as { messages: Array<{ role: string; content: string }> };
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.match(results.at(-1)!, /approved this with a note: then add a test/);
    assert.doesNotMatch(h.toolCards()[1]!.result ?? '', /then add a test/);
  });

  it('a request refused for its key ends in an error card marked as an auth failure', async () => {
    h = await harness({ role: 'actor', settings: noRetries, steps: [{ type: 'fault', fault: 'server_error', status: 401, message: 'bad key' }] });
    assert.equal(await h.agent.send('hi'), 'error');
    const err = h.agent.cards().find((c) => c.kind === 'error');
    assert.ok(err && err.kind === 'error');
    assert.equal(err.failure, 'auth');
  });
});

describe('which endpoints need an API key before the first request', () => {
  it('hosted endpoints do', () => {
    for (const u of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'https://llm.example.com/v1', 'http://8.8.8.8:8000/v1']) assert.equal(endpointNeedsKey(u), true, u);
  });
  it('servers on this machine or the local network do not', () => {
    for (const u of ['http://localhost:11434/v1', 'http://127.0.0.1:8080/v1', 'http://[::1]:1234/v1', 'http://192.168.1.20:8000/v1', 'http://10.0.0.5/v1', 'http://172.20.1.1/v1', 'http://gpu-box:8000/v1', 'http://box.local/v1', 'not a url']) {
      assert.equal(endpointNeedsKey(u), false, u);
    }
  });
});
