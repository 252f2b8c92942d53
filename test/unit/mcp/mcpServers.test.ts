import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { everythingHttp, everythingStdio, hubFor, pidOf } from '../../support/mcpReferenceServers';
import type { McpHub } from '../../../src/core/mcp/mcpHub';
import { fixedProvider } from '../../../src/core/tools/toolRegistry';
import { readFileTool } from '../../../src/core/tools/readFile';
import type { Approver } from '../../../src/core/ports/ports';
import { call, text } from '../../support/scriptSteps';

const approveAll: Approver = { request: async () => ({ approved: true }) };
const toolMessage = (h: Harness, n: number, i = 0): string => h.server.chatRequests()[n].messages.filter((m: any) => m.role === 'tool')[i].content;

describe('MCP client against the reference servers (real processes)', function () {
  this.timeout(60_000);
  let hub: McpHub | undefined;
  let h: Harness | undefined;
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await hub?.dispose();
    hub = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  async function started(defs = [everythingStdio()], opts: Parameters<typeof hubFor>[1] = {}): Promise<McpHub> {
    hub = hubFor(ws, opts);
    hub.configure(defs, []);
    await hub.startAll();
    return hub;
  }

  it('starts a stdio server in the workspace and lists its tools as server__tool rows, with their annotations deciding nothing by themselves', async () => {
    const def = everythingStdio();
    await started([def]);
    const [view] = hub!.views();
    assert.deepEqual(view!.status, { state: 'ready' });
    const names = hub!.tools().map((t) => t.name);
    for (const n of ['everything__echo', 'everything__get-sum', 'everything__get-tiny-image', 'everything__trigger-long-running-operation', 'everything__resources']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    const echo = hub!.tools().find((t) => t.name === 'everything__echo')!;
    // readOnlyHint: true, but the user has not trusted the server for reading: unknown effects.
    assert.deepEqual(echo.permissions, ['write', 'execute']);
    assert.equal(echo.readOnly, false);
    assert.match(echo.description, /^\[MCP server everything\] /);
    const pid = pidOf([process.execPath, ...(def.config as { args: string[] }).args]);
    assert.ok(pid, 'the server process runs');
    assert.equal(fs.realpathSync(`/proc/${pid}/cwd`), fs.realpathSync(ws), 'started in the workspace');
    await hub!.dispose();
    assert.equal(pidOf([process.execPath, ...(def.config as { args: string[] }).args]), undefined, 'disposing the hub ends the process');
  });

  it('a call goes through the agent loop with approval; the result reaches the model; images are summarised', async () => {
    await started();
    h = await harness({
      steps: [call('everything__echo', { message: 'hello mcp' }), call('everything__get-tiny-image', {}), text('done')],
      providers: [hub!], approver: approveAll,
    });
    assert.equal(await h.agent.send('echo it'), 'done');
    assert.ok(h.server.toolsOffered()[0]!.includes('everything__echo'), 'offered to the Actor');
    assert.equal(h.approvals.length, 2, 'each MCP call was asked');
    assert.equal(h.approvals[0]!.info.kind, 'mcp');
    assert.equal(h.approvals[0]!.info.server, 'everything');
    assert.equal(h.approvals[0]!.info.tool_name, 'everything__echo');
    assert.match(h.approvals[0]!.info.arguments ?? '', /"message": "hello mcp"/);
    assert.equal(toolMessage(h, 1), 'Echo: hello mcp');
    assert.match(toolMessage(h, 2, 1), /\[image: image\/png, [\d,]+ bytes, not shown\]/);
    assert.doesNotMatch(toolMessage(h, 2, 1), /iVBOR/, 'no base64 goes to the model');
    assert.deepEqual(h.toolCards().map((c) => c.status), ['done', 'done']);
  });

  it('blanket approval never covers an MCP tool; naming the tool does', async () => {
    await started();
    h = await harness({
      steps: [call('everything__echo', { message: 'one' }), call('everything__get-sum', { a: 1, b: 2 }), text('done')],
      providers: [hub!],
      // Everything auto-approved and nobody to ask: only the named tool may run.
      settings: (s) => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: true } }, mcpAllowedTools: ['everything__get-sum'] }),
    });
    await h.agent.send('go');
    const [echo, sum] = h.toolCards();
    assert.equal(echo!.status, 'rejected');
    assert.match(toolMessage(h, 1), /^Not approved: MCP tools need approval unless you allow the tool by name \(everything__echo\).*nobody was asked\. Nothing was called\.$/);
    assert.equal(sum!.status, 'done');
    assert.match(toolMessage(h, 2, 1), /3/);
  });

  it('the Planner is offered a read-only tool only when the user trusts the server for reading, and never one without readOnlyHint', async () => {
    await started();
    h = await harness({ steps: [text('no mcp for me')], providers: [hub!, fixedProvider('ws', [readFileTool])], role: 'planner' });
    await h.agent.send('look');
    assert.ok(!h.server.toolsOffered()[0]!.some((n) => n.startsWith('everything__')), 'untrusted: none');
    await h.close();
    await hub!.dispose();
    await started([everythingStdio()], { trustedForReading: (s) => s === 'everything' });
    h = await harness({ steps: [call('everything__get-sum', { a: 2, b: 3 }), text('5')], providers: [hub!, fixedProvider('ws', [readFileTool])], role: 'planner', approver: approveAll });
    await h.agent.send('add');
    const offered = h.server.toolsOffered()[0]!;
    assert.ok(offered.includes('everything__echo') && offered.includes('everything__get-sum'), 'readOnlyHint tools of a trusted server');
    assert.ok(!offered.includes('everything__toggle-simulated-logging'), 'readOnlyHint: false stays out');
    assert.ok(!offered.includes('everything__gzip-file-as-resource'));
    assert.equal(h.toolCards()[0]!.status, 'done');
    assert.equal(h.approvals.length, 1, 'a trusted read-only tool still asks unless allowed');
  });

  it('a server that exits mid-call gives a clear tool error and an error status; the turn goes on without its tools', async () => {
    const def = everythingStdio();
    await started([def]);
    const argv = [process.execPath, ...(def.config as { args: string[] }).args];
    const killer: Approver = {
      request: async () => {
        // Approved, and the server dies while the call runs.
        setTimeout(() => process.kill(pidOf(argv)!, 'SIGKILL'), 300);
        return { approved: true };
      },
    };
    h = await harness({ steps: [call('everything__trigger-long-running-operation', { duration: 10, steps: 10 }), text('the server is gone')], providers: [hub!], approver: killer });
    assert.equal(await h.agent.send('run it'), 'done');
    const card = h.toolCards()[0]!;
    assert.equal(card.status, 'error');
    assert.match(card.error ?? '', /The MCP server everything failed during trigger-long-running-operation: .*(closed|exit)/i);
    const status = hub!.views()[0]!.status;
    assert.equal(status.state, 'error');
    assert.ok(!h.server.toolsOffered()[1]!.some((n) => n.startsWith('everything__')), 'the next request no longer offers its tools');
  });

  it('a hanging call is cut by the timeout with a clear error, and the server stays usable', async () => {
    await started([everythingStdio()], { timeoutMs: () => 1500 });
    h = await harness({
      steps: [call('everything__trigger-long-running-operation', { duration: 30, steps: 3 }), call('everything__echo', { message: 'still here' }), text('ok')],
      providers: [hub!], approver: approveAll,
    });
    assert.equal(await h.agent.send('go'), 'done');
    const [slow, echo] = h.toolCards();
    assert.equal(slow!.status, 'error');
    assert.match(slow!.error ?? '', /did not answer trigger-long-running-operation within 2 s; the call was abandoned/);
    assert.equal(echo!.status, 'done');
    assert.equal(hub!.views()[0]!.status.state, 'ready');
  });

  it("a repository's server never starts without the user's approval by name and command line; approved, it starts", async () => {
    const def = everythingStdio('repo-server', 'workspace');
    const argv = [process.execPath, ...(def.config as { args: string[] }).args];
    const asked: string[] = [];
    await started([def], { trust: { isApproved: () => false, ask: async (d, line) => { asked.push(`${d.name}: ${line}`); return false; } } });
    assert.deepEqual(hub!.views()[0]!.status, { state: 'not_approved' });
    assert.equal(asked.length, 1);
    assert.equal(asked[0], `repo-server: ${argv.join(' ')}`);
    assert.equal(pidOf(argv), undefined, 'no process was started');
    assert.deepEqual(hub!.tools(), []);
    await hub!.dispose();
    const remembered = new Set<string>();
    await started([def], { trust: { isApproved: (d, line) => remembered.has(`${d.name}\n${line}`), ask: async (d, line) => { remembered.add(`${d.name}\n${line}`); return true; } } });
    assert.deepEqual(hub!.views()[0]!.status, { state: 'ready' });
    assert.ok(pidOf(argv));
  });

  it('does not pass the user\'s API key or other environment on to a stdio server', async () => {
    process.env.TANDEM_API_KEY_FOR_MCP_TEST = 'sk-must-not-leak-77';
    try {
      await started();
      h = await harness({ steps: [call('everything__get-env', {}), text('ok')], providers: [hub!], approver: approveAll });
      await h.agent.send('env');
      const env = toolMessage(h, 1);
      assert.match(env, /PATH/);
      assert.doesNotMatch(env, /sk-must-not-leak-77|sk-harness-key/);
    } finally {
      delete process.env.TANDEM_API_KEY_FOR_MCP_TEST;
    }
  });

  it('speaks streamable HTTP to server-everything, and falls back to SSE for a server that only speaks that', async () => {
    const http = await everythingHttp('streamableHttp');
    const sse = await everythingHttp('sse');
    try {
      await started([
        { name: 'web', origin: 'user', config: { transport: 'http', url: http.url } },
        { name: 'old', origin: 'user', config: { transport: 'http', url: sse.url } },
      ]);
      assert.deepEqual(hub!.views().map((v) => [v.name, v.status.state]), [['web', 'ready'], ['old', 'ready']]);
      h = await harness({ steps: [call('web__echo', { message: 'over http' }), call('old__echo', { message: 'over sse' }), text('ok')], providers: [hub!], approver: approveAll });
      await h.agent.send('go');
      assert.equal(toolMessage(h, 1), 'Echo: over http');
      assert.equal(toolMessage(h, 2, 1), 'Echo: over sse');
    } finally {
      http.close();
      sse.close();
    }
  });

  it('reads resources through the server__resources tool', async () => {
    await started();
    h = await harness({ steps: [call('everything__resources', {}), text('ok')], providers: [hub!], approver: approveAll });
    await h.agent.send('list');
    assert.match(toolMessage(h, 1), /^Resources of everything:\n- \S+/);
  });
});
