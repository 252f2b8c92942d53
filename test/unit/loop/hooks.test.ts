import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { fakeRead } from '../../support/fakeTools';
import { TurnHalt } from '../../../src/core/context/turnHalt';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { wireAgent } from '../../../src/core/runtime/wireAgent';
import { defaultSettings } from '../../../src/core/settings/settings';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { ToolRegistry, fixedProvider } from '../../../src/core/tools/toolRegistry';
import { LOOP_TOOLS } from '../../../src/core/tools';
import type { AgentHooks } from '../../../src/core/turn/turnHooks';

describe('loop hooks', () => {
  let h: Harness | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const c of cleanups.splice(0)) await c();
  });

  /**
   * An agent with the test's `fitContext` in its own hook port (AgentOptions.hooks), without the
   * runtime's parts around it: the loop's contract with whatever fits its requests.
   */
  async function agentWith(steps: ScriptStep[], fitContext: NonNullable<AgentHooks['fitContext']>) {
    const server = await ScriptedServer.start(steps);
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-hooks-')));
    cleanups.push(() => server.close(), () => fs.rmSync(ws, { recursive: true, force: true }));
    const settings = defaultSettings({ baseURL: server.url, apiKey: 'k', models: { planner: 'planner-model', actor: 'actor-model' } });
    settings.limits = { ...settings.limits, maxRetries: 0 };
    settings.knowledge = { ...settings.knowledge!, userSkillsDir: path.join(ws, '.no-user-skills') };
    const agent = wireAgent({
      host: createNodeHost({ roots: [ws] }),
      settings,
      role: 'actor',
      emit: () => {},
      tools: new ToolRegistry([fixedProvider('test', [fakeRead]), LOOP_TOOLS]),
      hooks: { fitContext },
    });
    return { agent, server };
  }

  it('fitContext sees the system prompt, the tool schemas and the answer reserve, and what it returns is what is sent', async () => {
    const seen: { model: string; tools: number; maxTokens?: number; first: string }[] = [];
    const a = await agentWith([{ type: 'text', text: 'ok' }], async (messages, model, opts) => {
      seen.push({ model, tools: opts?.tools?.length ?? 0, maxTokens: opts?.maxTokens, first: (messages[0] as any).content });
      return [messages[0]!, { role: 'user', content: 'condensed' }];
    });
    await a.agent.send('a very long message');
    assert.equal(seen[0]!.model, 'actor-model');
    assert.ok(seen[0]!.tools >= 1);
    // The reserve is capped at a quarter of the 8,192-token window assumed for an unknown model, and is what the server gets.
    assert.equal(seen[0]!.maxTokens, 2048);
    assert.equal(a.server.chatRequests()[0].max_tokens, 2048);
    assert.match(seen[0]!.first, /Actor/);
    assert.deepEqual(a.server.chatRequests()[0].messages.slice(1), [{ role: 'user', content: 'condensed' }]);
  });

  it('a TurnHalt from the hook ends the turn with its outcome and sends nothing', async () => {
    const a = await agentWith([{ type: 'text', text: 'never' }], async () => { throw new TurnHalt('waiting', 'budget spent'); });
    assert.equal(await a.agent.send('x'), 'waiting');
    assert.equal(a.server.chatRequests().length, 0);
    assert.equal(a.agent.cards().filter((c) => c.kind === 'error').length, 0);
  });

  it('any other hook failure ends the turn with an error card saying why', async () => {
    const a = await agentWith([{ type: 'text', text: 'never' }], async () => { throw new Error('The request cannot fit the model window'); });
    assert.equal(await a.agent.send('x'), 'error');
    assert.match((a.agent.cards().find((c) => c.kind === 'error') as { message: string }).message, /cannot fit the model window/);
    assert.equal(a.server.chatRequests().length, 0);
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
