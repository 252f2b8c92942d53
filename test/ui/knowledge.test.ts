/**
 * Project knowledge and MCP in the real workbench (code-server + Chromium), as a user meets them:
 * a workspace with an AGENTS.md, a CLAUDE.md and a `.vscode/mcp.json` defining the reference
 * server-everything. The server does not start until the user approves it in the notification that
 * names it and its command line; once approved, its tool is called through an approval card that
 * shows the server and the arguments; the chat shows one collapsed "Using instructions from
 * AGENTS.md (+1)" line that opens to the files and the text sent.
 * Screenshots: test-results/knowledge-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { openWorkbench, type Workbench } from './harness';
import { ScriptedServer } from '../support/scriptedServer';
import { EVERYTHING, pidOf, uniqueTag } from '../support/mcpReferenceServers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('Project instructions and MCP trust in the real workbench (UI)', function () {
  this.timeout(300_000);
  let server: ScriptedServer;
  let wb: Workbench;
  let chat: FrameLocator;
  let ws: string;
  const tag = uniqueTag();
  const argv = [process.execPath, EVERYTHING, 'stdio', tag];
  const input = (): Locator => chat.locator('textarea[aria-label="Message Tandem"]');

  before(async () => {
    server = await ScriptedServer.start([], { models: ['scripted-model'] });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-knowledge-ui-')));
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), '# Conventions\nUse tabs. Run `npm test` before you finish.\n');
    fs.writeFileSync(path.join(ws, 'CLAUDE.md'), 'Prefer small functions.\n');
    fs.mkdirSync(path.join(ws, '.vscode'));
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({
      // VS Code's own format, comments allowed in the real file; this one is plain JSON.
      servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio', tag] } },
    }, null, 2));
    wb = await openWorkbench({
      workspace: ws,
      settings: {
        'tandem.baseUrl': server.url,
        'tandem.model.planner': 'scripted-model',
        'tandem.model.actor': 'scripted-model',
        'tandem.limits.maxRetries': 0,
        'tandem.contextWindow': 128_000,
      },
    });
    chat = await wb.openTandemView();
    await input().waitFor({ state: 'visible' });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) {
      await wb.screenshot(`knowledge-failed-${this.currentTest.title.slice(0, 30)}`).catch(() => undefined);
      // The servers view says each server's state (and an error's message).
      await wb.runCommand('Tandem: MCP Servers').catch(() => undefined);
      await sleep(1000);
      await wb.screenshot(`knowledge-failed-servers-${this.currentTest.title.slice(0, 30)}`).catch(() => undefined);
      await wb.page.keyboard.press('Escape').catch(() => undefined);
    }
  });

  after(async () => {
    await wb?.close();
    await server?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it("asks before starting the workspace's MCP server, naming it and its command line; nothing runs until approved", async () => {
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: 'This workspace defines the MCP server "everything"' });
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await dialog.innerText(), new RegExp(`It runs: .*${path.basename(EVERYTHING)} stdio ${tag}`));
    await wb.screenshot('knowledge-mcp-trust-prompt');
    await sleep(1500);
    assert.equal(pidOf(argv), undefined, 'the server is not started while the question waits');
    await dialog.getByRole('button', { name: 'Allow and Start' }).click();
    await waitUntil(() => pidOf(argv) !== undefined, 'the approved server to start');
    const pid = pidOf(argv)!;
    assert.equal(fs.realpathSync(`/proc/${pid}/cwd`), ws, 'it runs in the workspace folder');
  });

  it('shows one collapsed instructions line, and an MCP call waits on an approval that names the server and the arguments', async () => {
    if (!(await chat.getByRole('button', { name: 'Role' }).innerText()).includes('Actor')) await chat.getByRole('button', { name: 'Role' }).click();
    server.replace([
      { type: 'tool_calls', calls: [{ id: 'call_echo_1', name: 'everything__echo', arguments: { message: 'hello from the workbench' } }] },
      { type: 'text', text: 'The server echoed it back.' },
    ]);
    await input().click();
    await input().fill('Echo a greeting through the MCP server');
    await input().press('Enter');
    const line = chat.locator('[data-card-kind="instructions"]');
    await line.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await line.locator('summary').innerText()).trim(), 'Using instructions from AGENTS.md (+1)');
    const card = chat.locator('[data-card-kind="tool_call"]', { hasText: 'everything' });
    await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 30_000 });
    const approval = await card.innerText();
    assert.match(approval, /MCP tool\s+everything__echo\s+from the server everything/);
    assert.match(approval, /"message": "hello from the workbench"/);
    await wb.screenshot('knowledge-mcp-approval');
    await card.getByRole('button', { name: 'Approve' }).click();
    await chat.locator('[data-card-kind="text"]', { hasText: 'The server echoed it back.' }).waitFor({ state: 'visible', timeout: 30_000 });
    const toolMsgs = server.chatRequests().at(-1).messages.filter((m: { role: string }) => m.role === 'tool');
    assert.equal(toolMsgs[0].content, 'Echo: hello from the workbench');
    // The system prompt had both files, once.
    const system = server.chatRequests()[0].messages[0].content as string;
    assert.match(system, /### AGENTS\.md\n# Conventions[\s\S]*### CLAUDE\.md\nPrefer small functions\./);
    await line.locator('summary').click();
    await line.locator('.instructions-text').waitFor({ state: 'visible' });
    assert.match(await line.innerText(), /AGENTS\.md · \d+ tokens[\s\S]*CLAUDE\.md · \d+ tokens[\s\S]*Use tabs\./);
    await wb.screenshot('knowledge-instructions-open');
  });
});
