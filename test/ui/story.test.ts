/**
 * The whole story in the real workbench (code-server + Chromium), against the scripted LLM server
 * pointed at by `tandem.baseUrl`: a task → the Planner reads a file (tool card) → the plan card →
 * Execute → the Actor proposes an edit → the diff opens → Approve → the file on disk and in the
 * editor changed, and Undo restores it. Then: Reject leaves the file byte for byte unchanged; a
 * question answered by clicking; Stop during streaming; Stop kills a running command; a malformed
 * message posted into the webview does not break it; the panel survives being hidden and shown.
 * Screenshots: test-results/story-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { openWorkbench, type Workbench } from './harness';
import { processRunning } from '../support/processByCommandLine';
import { ScriptedServer } from '../support/scriptedServer';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';


const PLAN = {
  format_version: '1.0',
  goal: 'Greet Tandem instead of the world',
  steps: [{ step_number: 1, action: 'In greeting.txt replace "world" with "Tandem"', reason: 'the user asked for it', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['greeting.txt'] }],
  estimated_total_time: '1 min',
  risks: ['none worth mentioning'],
  prerequisites: [],
};

describe('Tandem whole story in the real workbench (UI)', function () {
  this.timeout(300_000);
  let file: string;
  const ui = chatSuite({
    name: 'story',
    files: { 'greeting.txt': 'Hello, world\n', 'README.md': '# Story workspace\n' },
    models: ['scripted-model', 'scripted-model-large'],
    // The product's retries, as a user has them.
    settings: { 'tandem.limits.maxRetries': undefined },
  });
  const { input, toolCard, send } = ui;
  before(() => { file = path.join(ui.ws, 'greeting.txt'); });

  const editorLines = (): Locator => ui.wb.page.locator('.editor-group-container .monaco-editor:not(.original-in-monaco-diff-editor) .view-lines');

  async function waitTurnEnded(previousRequests: number, expectRequests: number): Promise<void> {
    await waitUntil(() => ui.server.chatRequests().length >= previousRequests + expectRequests, `${expectRequests} model request(s)`, 30_000);
  }

  it('task → Planner reads a file → plan → Execute → diff → Approve → file changed on disk and in the editor → Undo restores it', async () => {
    ui.server.replace([
      calls(tc('read_file', { path: 'greeting.txt' })),
      calls(tc('propose_plan', PLAN)),
      calls(tc('edit_file', { path: 'greeting.txt', edits: [{ old_text: 'Hello, world', new_text: 'Hello, Tandem' }] })),
      text('Step 1 done: the greeting now says **Tandem**.'),
    ]);
    // The file is open in an editor, as a user would have it.
    await ui.wb.runCommand('Go to File');
    await ui.wb.page.keyboard.type('greeting.txt');
    await ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'greeting.txt' }).first().waitFor({ state: 'visible' });
    await ui.wb.page.keyboard.press('Enter');
    await editorLines().filter({ hasText: 'Hello, world' }).first().waitFor({ state: 'visible' });

    await send('Make the greeting say Tandem');
    await ui.wb.screenshot('story-01-task-sent');

    const read = toolCard('read_file');
    await read.locator('.chip.status-done').waitFor({ state: 'visible', timeout: 20_000 });
    const plan = ui.chat.locator('[data-card-kind="plan"]');
    await plan.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await plan.innerText(), /Greet Tandem instead of the world/);
    await ui.wb.screenshot('story-02-planner-read-and-plan');

    await plan.getByRole('button', { name: 'Execute plan' }).click();
    const edit = toolCard('edit_file');
    await edit.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    // The real diff is open in the editor area (proposal on the right).
    await ui.wb.page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    await ui.wb.page.locator('.tab', { hasText: "Tandem's proposal" }).first().waitFor({ state: 'visible' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'Hello, world\n', 'nothing is written before approval');
    await ui.wb.screenshot('story-03-diff-open');

    await edit.getByRole('button', { name: 'Approve' }).click();
    await edit.locator('.chip.status-done').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => fs.readFileSync(file, 'utf8') === 'Hello, Tandem\n', 'the file on disk to change');
    await editorLines().filter({ hasText: 'Hello, Tandem' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Step 1 done' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.page.locator('.monaco-diff-editor').first().waitFor({ state: 'hidden', timeout: 10_000 });
    await ui.wb.screenshot('story-04-approved');

    // Undo in the editor restores the previous text; saving puts it back on disk.
    await editorLines().filter({ hasText: 'Hello, Tandem' }).first().click();
    await ui.wb.page.keyboard.press('Control+Z');
    await editorLines().filter({ hasText: 'Hello, world' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.page.keyboard.press('Control+S');
    await waitUntil(() => fs.readFileSync(file, 'utf8') === 'Hello, world\n', 'the undone text to be saved');
    await ui.wb.screenshot('story-05-undo');
  });

  it('Reject leaves the file byte for byte unchanged', async () => {
    const before = fs.readFileSync(file);
    ui.server.replace([
      calls(tc('read_file', { path: 'greeting.txt' })),
      calls(tc('edit_file', { path: 'greeting.txt', edits: [{ old_text: 'world', new_text: 'there' }] })),
      text('Understood, I will leave it as it is.'),
    ]);
    await send('Change it to "Hello, there"');
    const edit = toolCard('edit_file').last();
    await edit.getByRole('button', { name: 'Reject' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    // This time from the diff editor's title bar (the card's Reject does the same). VS Code shows
    // title-bar actions on the active group only, and the diff opened without taking focus: click its tab.
    await ui.wb.page.locator('.tab', { hasText: "Tandem's proposal" }).first().click();
    const rejectInTitle = ui.wb.page.locator('.editor-actions .action-label[aria-label^="Reject Change"]').first();
    await rejectInTitle.waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.page.locator('.editor-actions .action-label[aria-label^="Approve Change"]').first().waitFor({ state: 'visible' });
    await ui.wb.screenshot('story-06a-diff-title-bar');
    await rejectInTitle.click();
    await edit.locator('.chip.status-rejected').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'leave it as it is' }).waitFor({ state: 'visible', timeout: 20_000 });
    assert.deepEqual(fs.readFileSync(file), before, 'byte for byte unchanged');
    await ui.wb.page.locator('.monaco-diff-editor').first().waitFor({ state: 'hidden', timeout: 10_000 });
    await ui.wb.screenshot('story-06b-rejected');
  });

  it('a question card is answered by clicking an option', async () => {
    ui.server.replace([
      calls(tc('ask_question', {
        question: 'Which greeting style do you want?',
        context: 'Both are fine for a README.',
        severity: 'minor',
        options: [{ label: 'Formal', value: 'formal', description: 'Good day' }, { label: 'Casual', value: 'casual', description: 'Hi' }],
        default: 'casual',
        allow_custom: false,
      })),
      text('Going with the casual greeting.'),
    ]);
    await send('Ask me which greeting style to use');
    const q = ui.chat.locator('[data-card-kind="question"]').last();
    await q.getByRole('button', { name: 'Formal' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.screenshot('story-07-question');
    const requests = ui.server.chatRequests().length;
    await q.getByRole('button', { name: 'Formal' }).click();
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'casual greeting' }).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(ui.server.chatRequests().length, requests + 1);
    assert.match(JSON.stringify(ui.server.chatRequests().at(-1)?.messages), /formal/, 'the answer went back to the model');
    assert.equal(await q.getByRole('button', { name: 'Formal' }).getAttribute('aria-pressed'), 'true');
    await ui.wb.screenshot('story-08-question-answered');
  });

  it('Stop during streaming ends the turn; the panel takes the next message', async () => {
    const full = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    ui.server.replace([{ type: 'text', text: full, chunkSize: 6, chunkDelayMs: 60 }]);
    await send('Tell me a long story');
    const streaming = ui.chat.locator('[data-card-kind="text"]', { hasText: 'word1 ' }).last();
    await streaming.waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.getByRole('button', { name: 'Stop' }).click();
    await sleep(1500);
    const shown = await streaming.innerText();
    await sleep(1000);
    assert.equal(await streaming.innerText(), shown, 'nothing more streams in after Stop');
    assert.ok(!shown.includes('word399'), 'the stream was cut short');
    await ui.wb.screenshot('story-09-stopped-streaming');

    ui.server.replace([text('Ready for the next one.')]);
    await send('Are you still there?');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Ready for the next one.' }).waitFor({ state: 'visible', timeout: 20_000 });
  });

  it('Stop while a command runs ends the turn and kills the command', async () => {
    const pidFile = path.join(ui.ws, 'cmd.pid');
    // The command may run in the sandbox's own PID namespace, where `$$` means nothing outside: it is
    // found from here by its unique command line instead.
    const command = `echo started > ${pidFile}; sleep 120.4242`;
    const running = () => processRunning(['sleep', '120.4242']);
    ui.server.replace([calls(tc('run_command', { command })), text('never reached')]);
    await send('Run the long command');
    const card = toolCard('run_command').last();
    await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await card.innerText(), /sleep 120/, 'the card shows the exact command');
    await card.getByRole('button', { name: 'Approve' }).click();
    await waitUntil(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '' && running(), 'the command to start', 30_000);
    // The visible terminal named Tandem runs it (xterm draws on a canvas: see the screenshot).
    await ui.wb.page.locator('.terminal-tabs-entry, .single-terminal-tab, .panel .title', { hasText: 'Tandem' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('story-10-command-running');
    await ui.chat.getByRole('button', { name: 'Stop' }).click();
    await waitUntil(() => !running(), 'the command to be killed', 15_000);
    assert.ok(!(await ui.chat.locator('[data-card-kind="text"]', { hasText: 'never reached' }).count()), 'the turn ended at Stop');
    // The user must see the run end: the card leaves "running" and the composer is ready again.
    await waitUntil(async () => !/\brunning\b/.test(await card.innerText()), 'the command card to leave "running"', 15_000);
    await waitUntil(async () => !/Tandem is working/.test((await input().getAttribute('placeholder')) ?? ''), 'the composer to be ready again', 15_000);
    await ui.wb.screenshot('story-11-command-stopped');
  });

  it('a malformed message posted into the webview does not break the panel', async () => {
    const lastBefore = ui.chat.locator('[data-card-kind="text"]', { hasText: 'Ready for the next one.' });
    await ui.chat.locator('body').evaluate(() => {
      const w = globalThis as unknown as { postMessage(m: unknown, o: string): void };
      w.postMessage({ type: 'card_added', seq: 'not-a-number', card: { kind: 'nope' } }, '*');
      w.postMessage({ type: 'card_patched', seq: 999_999, id: 'no-such-card', patch: { status: 'done' } }, '*');
      w.postMessage('just a string', '*');
      w.postMessage([null, 42, { type: 'text_appended' }], '*');
      w.postMessage({ type: '__proto__', constructor: { prototype: { polluted: true } } }, '*');
    });
    await sleep(500);
    assert.ok(await input().isVisible(), 'the input is still there');
    assert.ok(await lastBefore.isVisible(), 'the conversation is still shown');
    ui.server.replace([text('Still working after the garbage.')]);
    await send('Still alive?');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Still working after the garbage.' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.screenshot('story-12-after-malformed');
  });

  it('the panel survives being hidden and shown, with its cards', async () => {
    const last = 'Still working after the garbage.';
    await ui.chat.locator('[data-card-kind="text"]', { hasText: last }).waitFor({ state: 'visible' });
    // Close the side bar (hides the view), then bring the Tandem view back.
    await ui.wb.runCommand('View: Close Primary Side Bar');
    await ui.wb.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
    await ui.wb.screenshot('story-13-hidden');
    // The chat locator is a query, so it finds the view's new frame.
    await ui.wb.openTandemView();
    await input().waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.locator('[data-card-kind="text"]', { hasText: last }).waitFor({ state: 'visible', timeout: 20_000 });
    ui.server.replace([text('Back again.')]);
    await send('Hello after hide/show');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Back again.' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.screenshot('story-14-shown-again');
  });
  it('Plan from Selection (palette) sends the selection with its file and lines, to the Planner', async () => {
    ui.server.replace([text('I would make the greeting louder.')]);
    await editorLines().filter({ hasText: 'Hello, world' }).first().click();
    await ui.wb.page.keyboard.press('Control+A');
    await ui.wb.runCommand('Tandem: Plan from Selection');
    const box = ui.wb.page.locator('.quick-input-widget input.input');
    await box.waitFor({ state: 'visible' });
    await box.fill('Make it shout');
    await ui.wb.page.keyboard.press('Enter');
    const card = ui.chat.locator('[data-card-kind="text"]', { hasText: 'Make it shout' }).last();
    await card.waitFor({ state: 'visible', timeout: 20_000 });
    const sent = await card.innerText();
    assert.match(sent, /greeting\.txt/);
    assert.match(sent, /line 1\b/);
    assert.match(sent, /Hello, world/);
    await ui.wb.page.locator('.part.statusbar .statusbar-item', { hasText: 'Tandem: Planner' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'make the greeting louder' }).waitFor({ state: 'visible', timeout: 20_000 });
    const body = ui.server.chatRequests().at(-1);
    assert.match(JSON.stringify(body?.messages), /greeting\.txt/, 'the model got the file name');
    await ui.wb.screenshot('story-15-plan-from-selection');
  });

  it('Select Model (palette) lists the endpoint\'s models, and the next request uses the pick without a reload', async () => {
    await ui.wb.runCommand('Tandem: Select Model');
    await ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'All roles' }).first().waitFor({ state: 'visible' });
    await ui.wb.page.keyboard.press('Enter');
    const large = ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'scripted-model-large' }).first();
    await large.waitFor({ state: 'visible', timeout: 15_000 });
    await ui.wb.screenshot('story-16-select-model');
    await large.click();
    await sleep(1000);
    ui.server.replace([text('Answered by the large model.')]);
    await send('Which model is this?');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Answered by the large model.' }).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(ui.server.chatRequests().at(-1)?.model, 'scripted-model-large');
  });
});

describe('Tandem first run in the real workbench (UI)', function () {
  this.timeout(240_000);
  const KEY = 'sk-test-firstrun-0123456789abcdef';
  let server: ScriptedServer;
  let wb: Workbench;
  let ws: string;

  before(async () => {
    server = await ScriptedServer.start([], { models: ['scripted-model', 'scripted-model-large'] });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-firstrun-')));
    fs.writeFileSync(path.join(ws, 'README.md'), '# First run\n');
    // No tandem.* settings and no key: a fresh install.
    wb = await openWorkbench({ workspace: ws });
  });

  after(async () => {
    if (wb) await wb.screenshot('firstrun-final').catch(() => undefined);
    await wb?.close();
    await server?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it('shows the setup card; Test connection shows the endpoint\'s own error, then its models; Save puts the key in SecretStorage and the URL/models in settings', async () => {
    const chat = await wb.openTandemView();
    const setup = chat.locator('[data-card-kind="setup"]');
    await setup.waitFor({ state: 'visible', timeout: 20_000 });
    await wb.screenshot('firstrun-01-setup-card');

    await setup.getByRole('radio', { name: 'Custom URL' }).click();
    const url = setup.locator('input[aria-label="Base URL"]');
    await url.fill('http://127.0.0.1:9/v1');
    await setup.getByRole('button', { name: 'Test connection' }).click();
    const alert = setup.locator('[role="alert"]');
    await alert.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await alert.innerText(), /127\.0\.0\.1:9|ECONNREFUSED|connect/i);
    await wb.screenshot('firstrun-02-connection-error');

    await url.fill(server.url);
    await setup.locator('input[aria-label="API key"]').fill(KEY);
    await setup.getByRole('button', { name: 'Test connection' }).click();
    await setup.locator('.ok-text', { hasText: '2 models' }).waitFor({ state: 'visible', timeout: 20_000 });
    await setup.locator('select[aria-label="Planner model"]').selectOption('scripted-model-large');
    await wb.screenshot('firstrun-03-connected');
    assert.equal(server.requests.filter((r) => r.path.endsWith('/models')).at(-1)?.headers.authorization, `Bearer ${KEY}`, 'the typed key was used to list models');

    await setup.getByRole('button', { name: 'Save' }).click();
    await setup.waitFor({ state: 'hidden', timeout: 15_000 });

    server.replace([text('Connected and answering.')]);
    const input = chat.locator('textarea[aria-label="Message Tandem"]');
    await input.fill('Hello after setup');
    await input.press('Enter');
    await chat.locator('[data-card-kind="text"]', { hasText: 'Connected and answering.' }).waitFor({ state: 'visible', timeout: 20_000 });
    const req = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
    assert.equal(req?.body.model, 'scripted-model-large', 'the Planner uses the model picked in setup');
    assert.equal(req?.headers.authorization, `Bearer ${KEY}`, 'the saved key is used');
    await wb.screenshot('firstrun-04-first-answer');

    // The URL and models are settings; the key is not (it lives in SecretStorage).
    const settingsFile = path.join((wb.server as unknown as { userDataDir: string }).userDataDir, 'User', 'settings.json');
    const settings = fs.readFileSync(settingsFile, 'utf8');
    assert.ok(settings.includes(server.url), 'tandem.baseUrl saved');
    assert.ok(settings.includes('scripted-model-large'), 'tandem.model.planner saved');
    assert.ok(!settings.includes(KEY), 'the key is not in settings.json');
  });
});
