/**
 * User hooks in the real workbench (code-server + Chromium), as a user meets them: a repository with
 * a `.tandem/hooks.json` whose PreToolUse hook refuses edits to generated files. Nothing of it runs
 * until the user trusts it in a modal that names every command; once trusted, a write to a
 * generated file is refused and its card says "Blocked by hook: <the hook's reason>".
 * Screenshots: test-results/hooks-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatSuite } from './chatSuite';
import { calls, tc, text } from '../support/scriptSteps';
import { sleep } from '../support/wait';

const HOOK = [
  '#!/bin/bash',
  'input=$(cat)',
  'echo "$input" >> .tandem/seen.jsonl',
  'case "$input" in',
  '  *\'"file_path":"\'*/generated/*) echo "generated/ is built from templates/: edit the template instead" >&2; exit 2;;',
  'esac',
  'exit 0',
  '',
].join('\n');

describe("A repository's hooks in the real workbench (UI)", function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'hooks',
    role: 'actor',
    files: {
      '.tandem/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'bash .tandem/no-generated.sh' }] }] } }, null, 2),
      '.tandem/no-generated.sh': HOOK,
      'generated/api.ts': 'export const api = 1;\n',
    },
    settings: { 'tandem.autoApprove.edit': true, 'tandem.autoApprove.create': true },
  });

  it('asks in a modal naming every command before any hook runs; trusted, a blocked call says "Blocked by hook: <reason>"', async () => {
    ui.server.replace([calls(tc('write_file', { path: 'generated/api.ts', content: 'export const api = 2;\n' })), text('The file is generated; I will edit the template.')]);
    await ui.send('Bump the API version');
    const dialog = ui.wb.page.locator('.monaco-dialog-box', { hasText: '.tandem/hooks.json runs a command on your machine' });
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    const said = await dialog.innerText();
    assert.match(said, /PreToolUse \[Write\|Edit\]: bash \.tandem\/no-generated\.sh/);
    assert.match(said, /outside the command sandbox/);
    // The chat says what the turn waits on rather than looking idle.
    await ui.chat.getByText('Trust .tandem/hooks.json? (dialog)').waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('hooks-trust-prompt');
    await sleep(1000);
    assert.equal(fs.existsSync(path.join(ui.ws, '.tandem', 'seen.jsonl')), false, 'no hook ran while the question waits');
    assert.equal(ui.server.chatRequests().length, 0, 'and the turn did not start');
    await dialog.getByRole('button', { name: 'Trust and Run' }).click();

    const card = ui.toolCard('Blocked by hook: generated/ is built from templates/: edit the template instead');
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    await ui.idle();
    await (await ui.reveal(card)).scrollIntoViewIfNeeded();
    await ui.wb.screenshot('hooks-blocked-card');
    assert.equal(ui.read('generated/api.ts'), 'export const api = 1;\n', 'the blocked write changed nothing');
    const seen = JSON.parse(fs.readFileSync(path.join(ui.ws, '.tandem', 'seen.jsonl'), 'utf8').trim().split('\n')[0]!);
    assert.equal(seen.tool_name, 'Write');
    assert.equal(seen.tool_input.file_path, path.join(ui.ws, 'generated', 'api.ts'));
    assert.equal(seen.tandem_role, 'actor');
  });

  it('remembers the trust for the workspace, and Tandem: Hooks revokes it: the next turn asks again', async () => {
    const dialog = ui.wb.page.locator('.monaco-dialog-box', { hasText: '.tandem/hooks.json runs a command on your machine' });
    // Trusted: the next turn runs the hooks without asking.
    ui.server.replace([text('Nothing to change.')]);
    await ui.send('Anything else?');
    await ui.idle();
    assert.equal(await dialog.count(), 0, 'not asked again once trusted');
    // Revoke it from the hooks view.
    await ui.wb.runCommand('Tandem: Hooks');
    const row = ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: '.tandem/hooks.json' }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await row.innerText(), /trusted/);
    await ui.wb.screenshot('hooks-view');
    await row.click();
    const revoke = ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Revoke Trust' }).first();
    await revoke.waitFor({ state: 'visible', timeout: 10_000 });
    await revoke.click();
    await sleep(500);
    ui.server.replace([text('ok')]);
    await ui.send('One more thing');
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await ui.idle();
  });
});
