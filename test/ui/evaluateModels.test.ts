/**
 * Tandem: Evaluate Models… in the real workbench (code-server + Chromium): the palette command
 * asks which tasks, the model assignment and the flow, runs the built-in suite in a terminal named
 * "Tandem eval" with its progress, and opens the HTML report beside the editor when it ends. The
 * endpoint is a scripted model that makes each task's reference change (act flow), so every task
 * passes. Screenshots: test-results/evaluate-models-*.png.
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

  it('asks which tasks, models and flow, shows progress in a terminal, and opens the report', async () => {
    const page = wb!.page;
    // Once Tandem is loaded (its status-bar item shows): before that the palette knows none of its commands.
    await wb!.roleStatus().waitFor({ state: 'visible', timeout: 60_000 });
    await wb!.runCommand('Tandem: Evaluate Models');
    const input = page.locator('.quick-input-widget input.input');
    const pick = async (label: string) => {
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible' });
      await input.fill(label);
      await page.keyboard.press('Enter');
    };
    await pick('The built-in suite');
    await page.locator('.quick-input-widget', { hasText: 'model assignments' }).waitFor({ state: 'visible' });
    assert.equal(await input.inputValue(), 'planner=scripted-model,actor=scripted-model', 'the assignment in force is offered');
    await page.keyboard.press('Enter');
    await pick('act');

    const rows = page.locator('.terminal-wrapper .xterm-accessibility-tree, .terminal-wrapper .xterm-rows');
    const termText = async () => (await rows.allTextContents().catch(() => [])).join('\n');
    await page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab', { hasText: 'Tandem eval' }).first().waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
    await waitUntil(async () => /\[#+-*\] \d+\/21 .*ETA/.test(await termText()), 'progress with the time left in the terminal', 120_000);
    await wb!.screenshot('evaluate-models-progress');
    await waitUntil(async () => /21\/21 passed \(100 %\)/.test(await termText()), 'the summary in the terminal', 300_000);
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
    assert.match(shown, /100 % \(21\/21\)/);
    assert.match(shown, /js\/cookie-add-priority-option/);
    await wb!.screenshot('evaluate-models-report');
  });
});
