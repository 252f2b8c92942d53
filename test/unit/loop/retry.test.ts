import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { userMessages } from '../../support/modelRequests';

describe('retry re-runs the last failed or stopped turn', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('after a persistent 500, retry sends the user message once and shows one user card', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'server_error', times: 1 }] });
    assert.equal(await h.agent.send('fix the bug please'), 'error');
    assert.equal(h.cardsOf('error').length, 1);
    // The server answers now.
    h.server.push({ type: 'text', text: 'done fixing' });
    assert.equal(await h.agent.act({ type: 'retry' }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 2);
    assert.deepEqual(userMessages(reqs[1]), ['fix the bug please']);
    const userCards = h.cardsOf('text').filter((c) => c.author === 'user');
    assert.equal(userCards.length, 1);
    assert.equal(h.cardsOf('text').at(-1)!.text, 'done fixing');
    // The conversation kept for the next turn and history has the message once, then the answer.
    assert.deepEqual(h.agent.conversation.map((m) => m.role), ['user', 'assistant']);
  });

  it('after a stop, retry resumes the same message', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'hang' }] });
    const running = h.agent.send('explain a.txt');
    while (h.server.chatRequests().length === 0) await new Promise((r) => setImmediate(r));
    h.agent.stop();
    assert.equal(await running, 'stopped');
    h.server.push({ type: 'text', text: 'here it is' });
    assert.equal(await h.agent.act({ type: 'retry' }), 'done');
    assert.deepEqual(userMessages(h.server.chatRequests().at(-1)), ['explain a.txt']);
    assert.equal(h.cardsOf('text').filter((c) => c.author === 'user').length, 1);
  });

  it('with nothing to retry, an error card says so and no request is made', async () => {
    h = await harness({ steps: [{ type: 'text', text: 'hello' }] });
    assert.equal(await h.agent.act({ type: 'retry' }), 'error');
    assert.match(h.cardsOf('error').at(-1)!.message, /Nothing to retry/);
    assert.equal(await h.agent.send('hi'), 'done');
    assert.equal(await h.agent.act({ type: 'retry' }), 'error');
    assert.match(h.cardsOf('error').at(-1)!.message, /Nothing to retry/);
    assert.equal(h.server.chatRequests().length, 1);
  });

  it('a Revise whose plan request failed: retry asks only for the plan, with the feedback once', async () => {
    const plan = (goal: string) => ({ format_version: '1.0', goal, steps: [{ step_number: 1, action: 'Rename hello to greet in a.txt', reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['a.txt'] }], estimated_total_time: '1 min', risks: [], prerequisites: [] });
    h = await harness({
      role: 'planner',
      files: { 'a.txt': 'hello\n' },
      settings: (s) => ({ ...s, structuredOutputs: 'on' }),
      steps: [
        { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan('Rename') }] },
        { type: 'text', text: 'I will be more careful.' },
        { type: 'fault', fault: 'server_error' },
        { type: 'json', value: plan('Rename carefully') },
      ],
    });
    assert.equal(await h.agent.send('plan the rename'), 'done');
    const v1 = h.cardsOf('plan')[0]!;
    assert.equal(await h.agent.act({ type: 'revise_plan', card_id: v1.id, feedback: 'be careful' }), 'error');
    assert.equal(await h.agent.act({ type: 'retry' }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 4);
    const last = reqs[3];
    assert.ok(last.response_format, 'the retry went straight to the plan request');
    assert.equal(userMessages(last).filter((t) => t.includes('be careful')).length, 1);
    assert.equal(last.messages.filter((m: any) => m.role === 'assistant' && m.content === 'I will be more careful.').length, 1);
    assert.equal(h.cardsOf('plan').at(-1)!.plan?.goal, 'Rename carefully');
    assert.equal(h.cardsOf('text').filter((c) => c.author === 'user').length, 2);
  });
});
