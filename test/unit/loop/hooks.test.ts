import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { fakeRead } from '../../support/fakeTools';
import { TurnHalt } from '../../../src/core/context/turnHalt';

describe('loop hooks', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('fitContext sees the system prompt, the tool schemas and the answer reserve, and what it returns is what is sent', async () => {
    const seen: { model: string; tools: number; maxTokens?: number; first: string }[] = [];
    h = await harness({
      tools: [fakeRead],
      steps: [{ type: 'text', text: 'ok' }],
      // An unknown window (the harness sets one for its scripted models): the reserve is a quarter of the default.
      settings: (s) => ({ ...s, contextWindow: undefined }),
      hooks: {
        async fitContext(messages, model, opts) {
          seen.push({ model, tools: opts?.tools?.length ?? 0, maxTokens: opts?.maxTokens, first: (messages[0] as any).content });
          return [messages[0], { role: 'user', content: 'condensed' }];
        },
      },
    });
    await h.agent.send('a very long message');
    assert.equal(seen[0]!.model, 'actor-model');
    assert.ok(seen[0]!.tools >= 1);
    // The reserve is capped at a quarter of the 8,192-token window assumed for an unknown model, and is what the server gets.
    assert.equal(seen[0]!.maxTokens, 2048);
    assert.equal(h.server.chatRequests()[0].max_tokens, 2048);
    assert.match(seen[0]!.first, /Actor/);
    assert.deepEqual(h.server.chatRequests()[0].messages.slice(1), [{ role: 'user', content: 'condensed' }]);
  });

  it('a TurnHalt from the hook ends the turn with its outcome and sends nothing', async () => {
    h = await harness({ tools: [fakeRead], steps: [{ type: 'text', text: 'never' }], hooks: { fitContext: async () => { throw new TurnHalt('waiting', 'budget spent'); } } });
    assert.equal(await h.agent.send('x'), 'waiting');
    assert.equal(h.server.chatRequests().length, 0);
    assert.equal(h.cardsOf('error').length, 0);
  });

  it('any other hook failure ends the turn with an error card saying why', async () => {
    h = await harness({ tools: [fakeRead], steps: [{ type: 'text', text: 'never' }], hooks: { fitContext: async () => { throw new Error('The request cannot fit the model window'); } } });
    assert.equal(await h.agent.send('x'), 'error');
    assert.match(h.cardsOf('error')[0]!.message, /cannot fit the model window/);
    assert.equal(h.server.chatRequests().length, 0);
  });

  it('beforeChange is called with the real path and the call id before a write', async () => {
    const changes: [string, string][] = [];
    h = await harness({
      steps: [{ type: 'tool_calls', calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'n.txt', content: 'x' } }] }, { type: 'text', text: 'ok' }],
      settings: (s) => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: false, command: false } } }),
      hooks: { beforeChange: async (abs, callId) => void changes.push([abs, callId]) },
    });
    await h.agent.send('write');
    assert.equal(h.read('n.txt'), 'x');
    assert.equal(changes.length, 1);
    assert.ok(changes[0]![0].endsWith('/n.txt'));
    assert.equal(changes[0]![1], 'call_w');
  });
});
