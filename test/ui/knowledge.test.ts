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
import * as path from 'node:path';
import { EVERYTHING, pidOf, uniqueTag } from '../support/mcpReferenceServers';
import { chatSuite } from './chatSuite';
import { calls, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';

describe('Project instructions and MCP trust in the real workbench (UI)', function () {
  this.timeout(300_000);
  const tag = uniqueTag();
  const argv = [process.execPath, EVERYTHING, 'stdio', tag];
  const ui = chatSuite({
    name: 'knowledge',
    files: {
      'AGENTS.md': '# Conventions\nUse tabs. Run `npm test` before you finish.\n',
      'CLAUDE.md': 'Prefer small functions.\n',
      '.vscode/mcp.json': JSON.stringify({
        // VS Code's own format, comments allowed in the real file; this one is plain JSON.
        servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio', tag] } },
      }, null, 2),
    },
    settings: { 'tandem.limits.requestIdleTimeoutMs': undefined },
    async onFailure(title) {
      // The servers view says each server's state (and an error's message).
      await ui.wb.runCommand('Tandem: MCP Servers');
      await sleep(1000);
      await ui.wb.screenshot(`knowledge-failed-servers-${title.slice(0, 30)}`);
      await ui.wb.page.keyboard.press('Escape');
    },
  });
  const { input } = ui;

  it("asks before starting the workspace's MCP server, naming it and its command line; nothing runs until approved", async () => {
    const dialog = ui.wb.page.locator('.monaco-dialog-box', { hasText: 'This workspace defines the MCP server "everything"' });
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await dialog.innerText(), new RegExp(`It runs: .*${path.basename(EVERYTHING)} stdio ${tag}`));
    await ui.wb.screenshot('knowledge-mcp-trust-prompt');
    await sleep(1500);
    assert.equal(pidOf(argv), undefined, 'the server is not started while the question waits');
    await dialog.getByRole('button', { name: 'Allow and Start' }).click();
    await waitUntil(() => pidOf(argv) !== undefined, 'the approved server to start', { timeoutMs: 20_000, everyMs: 200 });
    const pid = pidOf(argv)!;
    assert.equal(fs.realpathSync(`/proc/${pid}/cwd`), ui.ws, 'it runs in the workspace folder');
  });

  it('shows one collapsed instructions line, and an MCP call waits on an approval that names the server and the arguments', async () => {
    await ui.pickRole('actor');
    ui.server.replace([
      { type: 'tool_calls', calls: [{ id: 'call_echo_1', name: 'everything__echo', arguments: { message: 'hello from the workbench' } }] },
      { type: 'text', text: 'The server echoed it back.' },
    ]);
    await input().click();
    await input().fill('Echo a greeting through the MCP server');
    await input().press('Enter');
    const line = ui.chat.locator('[data-card-kind="instructions"]');
    await line.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await line.locator('summary').innerText()).trim(), 'Using instructions from AGENTS.md (+1)');
    const card = ui.chat.locator('[data-card-kind="tool_call"]', { hasText: 'everything' });
    await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 30_000 });
    const approval = await card.innerText();
    assert.match(approval, /MCP tool\s+everything__echo\s+from the server everything/);
    assert.match(approval, /"message": "hello from the workbench"/);
    await ui.wb.screenshot('knowledge-mcp-approval');
    await card.getByRole('button', { name: 'Approve' }).click();
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'The server echoed it back.' }).waitFor({ state: 'visible', timeout: 30_000 });
    const toolMsgs = ui.server.chatRequests().at(-1).messages.filter((m: { role: string }) => m.role === 'tool');
    assert.equal(toolMsgs[0].content, 'Echo: hello from the workbench');
    // The system prompt had both files, once.
    const system = ui.server.chatRequests()[0].messages[0].content as string;
    assert.match(system, /### AGENTS\.md\n# Conventions[\s\S]*### CLAUDE\.md\nPrefer small functions\./);
    await line.locator('summary').click();
    await line.locator('.instructions-text').waitFor({ state: 'visible' });
    assert.match(await line.innerText(), /AGENTS\.md · \d+ tokens[\s\S]*CLAUDE\.md · \d+ tokens[\s\S]*Use tabs\./);
    await ui.wb.screenshot('knowledge-instructions-open');
  });
});
