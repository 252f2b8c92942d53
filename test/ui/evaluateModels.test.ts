/**
 * Tandem: Evaluate Models… in the real workbench (code-server + Chromium): the palette command
 * asks where the tasks come from and which of them, the model assignment, the flow and how many at
 * a time, runs the picked tasks of the built-in suite in a terminal named "Tandem eval" with its
 * progress, and opens the HTML report beside the editor when it ends. The endpoint is a scripted
 * model that makes each task's reference change (act flow), so every task passes. Screenshots:
 * test-results/evaluate-models-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, ROOT, type Workbench } from './harness';
import { scriptedSettings } from './chatSuite';
import { ScriptedServer } from '../support/scriptedServer';
import { referenceModel, referenceOf } from '../support/evalModels';
import { findTaskFolders } from '../../src/host/node/eval/evalTasks';
import { waitUntil } from '../support/wait';

describe('Tandem: Evaluate Models… (UI)', function () {
  this.timeout(400_000);
  let server: ScriptedServer | undefined;
  let wb: Workbench | undefined;
  let ws: string | undefined;
  const dirs = findTaskFolders(path.join(ROOT, 'eval-suite'));

  before(async () => {
    server = await ScriptedServer.start([], { models: ['scripted-model'], respond: referenceModel(dirs.map(referenceOf)) });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-evaluate-')));
    fs.writeFileSync(path.join(ws, 'README.md'), '# a project\n');
    // Screen-reader mode: the terminal keeps its rows as text in the page.
    wb = await openWorkbench({ workspace: ws, settings: { ...scriptedSettings(server), 'editor.accessibilitySupport': 'on' } });
  });
  after(async () => {
    if (wb) await wb.screenshot('evaluate-models-final').catch(() => undefined);
    await wb?.close();
    await server?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it('is in the palette right after the window opens; asks which tasks, models, flow and how many at a time, shows progress in a terminal, and opens the report', async () => {
    const page = wb!.page;
    // Right after the window opens, as a user would: the command is in Tandem's manifest, so the
    // palette offers it as soon as the window has read it, whether or not Tandem has started.
    await wb!.runCommand('Tandem: Evaluate Models');
    const input = page.locator('.quick-input-widget input.input');
    const pick = async (label: string) => {
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible' });
      await input.fill(label);
      await page.keyboard.press('Enter');
    };
    await pick('The built-in suite');
    // Which tasks: every task of the suite is offered, all picked; the user keeps the TypeScript ones.
    const widget = page.locator('.quick-input-widget');
    await widget.filter({ hasText: `which tasks? (${dirs.length})` }).waitFor({ state: 'visible' });
    const toggleAll = widget.getByRole('checkbox', { name: 'Toggle all checkboxes' });
    assert.equal(await toggleAll.isChecked(), true, 'all tasks are picked at first');
    await toggleAll.click();
    await input.fill('ts/');
    await waitUntil(async () => (await widget.locator('.monaco-list-row').allTextContents()).every((t) => /^ts\//.test(t.trim())), 'only the TypeScript tasks shown');
    await toggleAll.click();
    await wb!.screenshot('evaluate-models-tasks');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'model assignments' }).waitFor({ state: 'visible' });
    assert.equal(await input.inputValue(), 'planner=scripted-model,actor=scripted-model', 'the assignment in force is offered');
    await page.keyboard.press('Enter');
    await pick('act');
    // How many at a time: two.
    await page.locator('.quick-input-widget', { hasText: 'how many tasks at a time?' }).waitFor({ state: 'visible' });
    await input.fill('2');
    await page.keyboard.press('Enter');
    const ts = dirs.filter((d) => path.relative(path.join(ROOT, 'eval-suite'), d).startsWith('ts/')).length;

    const rows = page.locator('.terminal-wrapper .xterm-accessibility-tree, .terminal-wrapper .xterm-rows');
    const termText = async () => (await rows.allTextContents().catch(() => [])).join('\n');
    await page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab', { hasText: 'Tandem eval' }).first().waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
    await waitUntil(async () => new RegExp(`${ts} tasks × 1 assignment, flow act, 2 at a time`).test(await termText()), 'the picked tasks and jobs in the terminal', 60_000);
    await waitUntil(async () => new RegExp(`\\[#+-*\\] \\d+/${ts} .*ETA`).test(await termText()), 'progress with the time left in the terminal', 120_000);
    await wb!.screenshot('evaluate-models-progress');
    await waitUntil(async () => new RegExp(`${ts}/${ts} passed \\(100 %\\)`).test(await termText()), 'the summary in the terminal', 300_000);
    assert.match(await termText(), /Report: .*report\.html/);

    // The report opens in a webview beside the editor.
    await page.locator('.tab', { hasText: 'Tandem eval report' }).waitFor({ state: 'visible', timeout: 30_000 });
    let shown = '';
    await waitUntil(async () => {
      for (const f of page.frames()) {
        const t = await f.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        if (/Pass rate/.test(t)) shown = t;
      }
      return shown !== '';
    }, 'the report in its webview', 30_000);
    assert.match(shown, new RegExp(`100 % \\(${ts}/${ts}\\)`));
    assert.match(shown, /ts\/cookie-add-stringify-method-to-mirror-parse/);
    assert.doesNotMatch(shown, /js\/cookie-add-priority-option/, 'only the picked tasks ran');
    await wb!.screenshot('evaluate-models-report');
  });
});
