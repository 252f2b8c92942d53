/**
 * The answer reserve is at most a quarter of the window and is what the server receives as
 * max_tokens; under the 8,192-token window assumed for unknown models this leaves room for a
 * real conversation instead of condensing after the first file.
 */
import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { answerReserve, DEFAULT_WINDOW } from '../../../src/core/context/modelWindows';
import { countTextTokens } from '../../../src/core/context/tokenCounter';
import type { AgentSettings } from '../../../src/core/settings/settings';

describe('answer reserve: a quarter of the window at most, sent as max_tokens', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('caps the reserve at a quarter of the window and never raises it', () => {
    assert.equal(answerReserve(8192, 4096), 2048);
    assert.equal(answerReserve(128_000, 4096), 4096);
    assert.equal(answerReserve(6000, 300), 300);
    assert.equal(answerReserve(DEFAULT_WINDOW.window, 4096), 2048);
  });

  it('an unknown model gets max_tokens 2048 (not 4096); a known 128k model keeps 4096; a small setting is kept', async () => {
    // The harness sets a window for its scripted models; this test starts from an unknown one.
    let first: AgentSettings | undefined;
    h = await harness({ steps: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'text', text: 'c' }], settings: (s) => (first = { ...s, contextWindow: undefined }) });
    assert.equal(h.agent.role, 'actor');
    assert.equal(await h.agent.send('one'), 'done');
    const known = { ...first!, models: { planner: 'gpt-4o', actor: 'gpt-4o' } };
    h.agent.updateSettings(known);
    assert.equal(await h.agent.send('two'), 'done');
    h.agent.updateSettings({ ...known, contextWindow: 6000, maxTokens: 300 });
    assert.equal(await h.agent.send('three'), 'done');
    assert.deepEqual(h.server.chatRequests().map((b) => b.max_tokens), [2048, 4096, 300]);
  });

  it('under the unknown-model default, a file of ~1,300 tokens read in one turn is still whole in the next request', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => `line ${i}: const value${i} = compute(${i}, "alpha beta");`);
    lines.push('END-MARKER-7f3a');
    const file = lines.join('\n') + '\n';
    assert.ok(countTextTokens(file) > 1000 && countTextTokens(file) < 1800, `file is ${countTextTokens(file)} tokens`);
    const summaries: string[] = [];
    h = await harness({
      files: { 'big.ts': file },
      // The window is not known (the scripted server reports none): the task assumes the default.
      settings: (s) => ({ ...s, contextWindow: undefined, maxTokens: 4096 }),
      summarizer: { summarize: async (_m, model) => { summaries.push(model); return { text: 'summary', model, tokensIn: 0, tokensOut: 0, latencyMs: 0 }; } },
      steps: [
        { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'big.ts' } }] },
        { type: 'text', text: 'Read it.' },
        { type: 'text', text: 'Line 79 computes value79.' },
      ],
    });
    assert.equal(await h.agent.send('read big.ts'), 'done');
    assert.equal(await h.agent.send('what does the last line compute?'), 'done');
    const last = h.server.chatRequests().at(-1);
    const tool = (last.messages as any[]).find((m) => m.role === 'tool');
    const content = String(tool.content);
    assert.doesNotMatch(content, /cut to fit|elided/, 'the file was neither cut nor elided');
    for (const i of [0, 40, 79]) assert.match(content, new RegExp(`line ${i}: const value${i} =`));
    assert.match(content, /END-MARKER-7f3a/);
    assert.deepEqual(summaries, [], 'nothing was condensed');
    assert.match(h.cardsOf('text').map((c) => c.text).join('\n'), /The context window of actor-model is not known/);
  });
});
