import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { messagesTokens, toolsTokens } from '../../../src/core/context/messageTokens';
import { modelWindow } from '../../../src/core/context/modelWindows';

const plan = (goal: string) => ({
  format_version: '1.0',
  goal,
  steps: [{ step_number: 1, action: 'Replace hello with greet in a.txt', reason: 'the new name', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['a.txt'] }],
  estimated_total_time: '1 min',
  risks: [],
  prerequisites: [],
});

describe('the plan request after a Revise without a plan is fitted to the window', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('with a tiny contextWindow, the plan request the server receives fits the window', async () => {
    const window = 6000;
    const maxTokens = 400;
    const long = (i: number) => `Thoughts ${i} on renaming: ` + 'the function hello is used in several places and the rename must be careful. '.repeat(120);
    h = await harness({
      role: 'planner',
      files: { 'a.txt': 'say hello\n' },
      settings: (s) => ({ ...s, contextWindow: window, maxTokens, structuredOutputs: 'on' }),
      // Condensing asks this summarizer, not the scripted server (whose answers are the turns').
      summarizer: { summarize: async (_m, model) => ({ text: 'Earlier: thoughts on renaming hello.', model, tokensIn: 10, tokensOut: 10, latencyMs: 1 }) },
      steps: [
        { type: 'text', text: long(1) },
        { type: 'text', text: long(2) },
        { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan('Rename hello to greet') }] },
        // Revise: the model talks instead of calling propose_plan, so the agent asks for the plan as JSON.
        { type: 'text', text: long(3) },
        { type: 'json', value: plan('Rename hello to greet, carefully') },
      ],
    });
    assert.equal(await h.agent.send('Think about renaming hello'), 'done');
    assert.equal(await h.agent.send('More thoughts?'), 'done');
    assert.equal(await h.agent.send('Now plan it'), 'done');
    const v1 = h.cardsOf('plan')[0]!;
    assert.equal(await h.agent.act({ type: 'revise_plan', card_id: v1.id, feedback: 'be careful' }), 'done');
    assert.equal(h.cardsOf('plan').at(-1)!.plan?.goal, 'Rename hello to greet, carefully');

    const reqs = h.server.chatRequests();
    const planReq = reqs.at(-1);
    assert.ok(planReq.response_format, 'the last request is the structured plan request');
    const w = modelWindow(planReq.model, window);
    for (const b of reqs) {
      // Our count scaled the way the fitter scales an unknown model's tokenizer, plus the answer reserve.
      const n = Math.ceil((messagesTokens(b.messages) + toolsTokens(b.tools) + toolsTokens(b.response_format ? [b.response_format] : undefined)) * w.tokenFactor);
      assert.ok(n + maxTokens <= window, `request ${reqs.indexOf(b)} of ~${n} tokens + ${maxTokens} reserve fits ${window}`);
    }
  });
});
