import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { McpHub } from '../../../src/core/mcp/mcpHub';
import type { McpConnection, McpConnectionEvents, McpLauncher } from '../../../src/core/mcp/mcpConnection';
import { parseMcpConfig } from '../../../src/core/mcp/mcpConfig';
import { nullLogger } from '../../../src/core/ports/ports';
import { call, text } from '../../support/scriptSteps';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: name, inputSchema: { type: 'object', properties: {} }, ...extra });

/** A connection whose tool list and answers the test controls: what a server does at the protocol's edge. */
function scriptedLauncher(state: { tools: unknown[]; answer: unknown; events?: McpConnectionEvents }): McpLauncher {
  return {
    async connect(_def, _cwd, events): Promise<McpConnection> {
      state.events = events;
      return {
        tools: () => state.tools,
        hasResources: false,
        callTool: async () => state.answer,
        listResources: async () => ({ resources: [] }),
        readResource: async () => ({ contents: [] }),
        close: async () => undefined,
      };
    },
  };
}

function hub(launcher: McpLauncher): McpHub {
  const h = new McpHub({ launcher, trust: { isApproved: () => true }, cwd: '/', userHome: '/', env: {}, timeoutMs: () => 5000, trustedForReading: () => false, logger: nullLogger });
  h.configure(parseMcpConfig({ servers: { srv: { command: 'unused' } } }, 'user').servers, []);
  return h;
}

describe('MCP hub: tool lists that change, results that are malformed', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a tools/list_changed notification changes what the next request offers', async () => {
    const state: { tools: unknown[]; answer: unknown; events?: McpConnectionEvents } = { tools: [tool('alpha')], answer: { content: [{ type: 'text', text: 'a' }] } };
    const mcp = hub(scriptedLauncher(state));
    await mcp.startAll();
    h = await harness({ steps: [text('one'), text('two')], providers: [mcp] });
    await h.agent.send('first');
    state.tools = [tool('beta')];
    state.events!.onToolsChanged();
    await h.agent.send('second');
    const [first, second] = h.server.toolsOffered();
    assert.ok(first!.includes('srv__alpha') && !first!.includes('srv__beta'));
    assert.ok(second!.includes('srv__beta') && !second!.includes('srv__alpha'));
  });

  it('a malformed result is a clear tool error and the turn goes on; a malformed tool definition is skipped, the rest offered', async () => {
    const state = { tools: [tool('good'), { name: 'bad', inputSchema: { type: 'string' } }, { nameless: true }], answer: { content: 'not an array' } as unknown };
    const mcp = hub(scriptedLauncher(state));
    await mcp.startAll();
    assert.deepEqual(mcp.tools().map((t) => t.name), ['srv__good']);
    h = await harness({ steps: [call('srv__good', {}), text('went on')], providers: [mcp], approver: { request: async () => ({ approved: true }) } });
    assert.equal(await h.agent.send('go'), 'done');
    const card = h.toolCards()[0]!;
    assert.equal(card.status, 'error');
    assert.match(card.error ?? '', /^The MCP server srv answered good with the server sent a malformed result/);
  });

  it('a server that closes on its own is said as an error state, and its tools leave the registry', async () => {
    const state: { tools: unknown[]; answer: unknown; events?: McpConnectionEvents } = { tools: [tool('alpha')], answer: {} };
    const mcp = hub(scriptedLauncher(state));
    let changes = 0;
    mcp.onDidChange(() => changes++);
    await mcp.startAll();
    state.events!.onClosed('the server process exited');
    assert.deepEqual(mcp.views()[0]!.status, { state: 'error', message: 'the server process exited' });
    assert.deepEqual(mcp.tools(), []);
    assert.ok(changes > 0);
  });
});
