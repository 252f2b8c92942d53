/**
 * The agent's terminal shows what the user asked to run, not the sandbox's machinery: a sandboxed
 * command is typed as `sandboxed 'CMD'` in a terminal named "Tandem (sandboxed)", and running it
 * does not take the focus from where the user is. Screenshot: test-results/terminal-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setSidebarWidth } from './sidebarWidth';
import { toolResults } from '../support/modelRequests';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';

describe('The agent terminal (UI)', function () {
  this.timeout(240_000);
  // Screen-reader mode: the terminal keeps its rows as text in the page (its canvas has none).
  const ui = chatSuite({ name: 'terminal', files: { 'a.txt': 'a\n' }, role: 'actor', settings: { 'editor.accessibilitySupport': 'on' } });

  it('a sandboxed command shows as the user\'s command in a "sandboxed" terminal, without stealing focus', async () => {
    ui.server.replace([calls(tc('run_command', { command: 'echo hello-from-the-sandbox && ls' })), text('Ran it.')]);
    await ui.send('Say hello from the sandbox');
    await ui.toolCard('hello-from-the-sandbox').getByRole('button', { name: 'Approve' }).first().click({ timeout: 20_000 });
    await ui.textCard('Ran it.').waitFor({ state: 'visible', timeout: 30_000 });
    const rows = ui.wb.page.locator('.terminal-wrapper .xterm-accessibility-tree, .terminal-wrapper .xterm-rows');
    const termText = async () => (await rows.allTextContents().catch(() => [])).join('\n');
    await waitUntil(async () => /sandboxed 'echo hello-from-the-sandbox/.test(await termText()), 'the command in the terminal', 20_000);
    const shown = await termText();
    assert.match(shown, /sandboxed 'echo hello-from-the-sandbox && ls'/);
    assert.doesNotMatch(shown, /bwrap|--unshare|--ro-bind/, 'no sandbox machinery in the terminal');
    await ui.wb.page.locator('.panel', { hasText: 'Tandem (sandboxed)' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    const focusInTerminal = await ui.wb.page.evaluate(() => Boolean((document.activeElement as { closest?(s: string): unknown } | null)?.closest?.('.terminal-wrapper, .xterm')));
    assert.equal(focusInTerminal, false, 'the terminal did not take the focus');
    await ui.wb.screenshot('terminal-01-sandboxed-command');
  });
});

describe("The agent's commands see the user's terminal environment (UI)", function () {
  this.timeout(240_000);
  // The user's own `node` comes from terminal.integrated.env.linux (as a version manager's folder
  // would); the agent's command and its check must find that one, not the system's.
  const ui = chatSuite({
    name: 'termenv',
    files: { 'tools/bin/node': '#!/bin/sh\necho "node from the user\'s terminal setting"\n' },
    prepare: (ws) => fs.chmodSync(path.join(ws, 'tools', 'bin', 'node'), 0o755),
    role: 'actor',
    settings: { 'terminal.integrated.env.linux': { PATH: '${workspaceFolder}/tools/bin:${env:PATH}' } },
  });

  for (const width of [420, 300]) {
    it(`node --version run by the agent is the user's node (${width} px)`, async () => {
      await setSidebarWidth(ui.wb.page, width);
      ui.server.replace([calls(tc('run_command', { command: 'node --version' })), text(`Checked at ${width}.`)]);
      await ui.send(`Which node do you get? (${width})`);
      const card = ui.toolCard('node --version').last();
      await card.getByRole('button', { name: 'Approve' }).first().click({ timeout: 20_000 });
      await ui.textCard(`Checked at ${width}.`).waitFor({ state: 'visible', timeout: 30_000 });
      const result = toolResults(ui.server.chatRequests().at(-1)).at(-1) ?? '';
      assert.match(result, /node from the user's terminal setting/, `the command's output went to the model: ${result.slice(0, 300)}`);
      await card.scrollIntoViewIfNeeded();
      await card.getByText('Result', { exact: true }).click();
      await waitUntil(async () => /node from the user's terminal setting/.test(await card.innerText()), 'the output on the card');
      await ui.wb.screenshot(`terminal-02-user-path-${width}`);
    });
  }
});

describe('The fallback terminal says when a command is sandboxed (UI)', function () {
  this.timeout(240_000);
  // No shell integration: the runner gives up waiting and runs each command as a child process,
  // echoing it into a Tandem terminal of its own. Screen-reader mode keeps the rows as text.
  const ui = chatSuite({
    name: 'termfallback',
    files: { 'a.txt': 'a\n' },
    role: 'actor',
    settings: { 'editor.accessibilitySupport': 'on', 'terminal.integrated.shellIntegration.enabled': false },
  });

  it('a sandboxed command run by the fallback shows as `sandboxed \'CMD\'`, as in the integrated terminal', async () => {
    ui.server.replace([calls(tc('run_command', { command: 'echo from-the-fallback' })), text('Ran it in the fallback.')]);
    await ui.send('Say hello from the fallback');
    const card = ui.toolCard('from-the-fallback').last();
    await card.getByRole('button', { name: 'Approve' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await card.getByRole('button', { name: 'Approve' }).first().click();
    await ui.textCard('Ran it in the fallback.').waitFor({ state: 'visible', timeout: 60_000 });
    const rows = ui.wb.page.locator('.terminal-wrapper .xterm-accessibility-tree, .terminal-wrapper .xterm-rows');
    const termText = async () => (await rows.allTextContents().catch(() => [])).join('\n');
    await waitUntil(async () => /from-the-fallback/.test(await termText()), 'the command in the fallback terminal', 20_000);
    await ui.wb.screenshot('terminal-03-fallback-sandboxed');
    assert.match(await termText(), /\$ sandboxed 'echo from-the-fallback'/, 'the echoed line says it ran sandboxed');
    // Named as the integrated terminal is: a loaded machine falls back here when shell integration is slow.
    await ui.wb.page.locator('.panel', { hasText: 'Tandem (sandboxed)' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  });
});
