/**
 * The everyday chat in the real workbench (code-server + Chromium) against the scripted LLM server,
 * as a new user meets it: a message typed while an approval waits goes with Approve/Reject as
 * feedback, one typed while the agent runs is queued (shown, editable, removable) and delivered when
 * the turn ends; a command's card says how it exited; a question card shows the option picked; an
 * auth error card offers Set API key and Retry; proposals reuse one diff column and their diffs close
 * once decided; and a second window on the same folder finds the task in History.
 * Screenshots: test-results/everyday-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openWorkbench, RESULTS_DIR, type Workbench } from './harness';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';
import { toolResults, userMessages } from '../support/modelRequests';

// Runs in the page (the Node tsconfig has no DOM lib).
declare function getComputedStyle(el: unknown): { color: string };

describe('The everyday chat in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'everyday',
    files: { 'alpha.txt': 'alpha original\n', 'beta.txt': 'beta original\n', 'gamma.txt': 'gamma original\n' },
    role: 'actor',
  });
  const { input, toolCard, textCard, read, send, idle } = ui;

  const groups = (): Locator => ui.wb.page.locator('.editor-group-container');
  const tabs = (hasText: string | RegExp): Locator => ui.wb.page.locator('.editor-group-container .tab', { hasText });

  it('a message typed while an approval waits is kept, and goes with Reject as feedback to the model', async () => {
    ui.server.replace([
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha original', new_text: 'alpha CHANGED' }] })),
      text('Understood, I will leave alpha alone.'),
    ]);
    await send('Change alpha');
    const card = toolCard('alpha.txt');
    await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    const errorsBefore = await ui.chat.locator('[data-card-kind="error"]').count();

    await input().click();
    await input().fill('use beta.txt instead');
    await input().press('Enter');
    await sleep(800);
    // Nothing was lost: the text is still there, no "still working" error, and the composer says what it will do.
    assert.equal(await input().inputValue(), 'use beta.txt instead', 'the undelivered text stays in the composer');
    assert.equal(await ui.chat.locator('[data-card-kind="error"]').count(), errorsBefore, 'no error card');
    const decide = ui.chat.getByRole('group', { name: 'Send with your decision' });
    await decide.waitFor({ state: 'visible' });
    await ui.wb.screenshot('everyday-01-feedback-while-waiting');

    const before = ui.server.chatRequests().length;
    await decide.getByRole('button', { name: 'Reject with message' }).click();
    await card.locator('.chip.status-rejected').waitFor({ state: 'visible', timeout: 15_000 });
    await textCard('Understood, I will leave alpha alone.').waitFor({ state: 'visible', timeout: 20_000 });
    const next = ui.server.chatRequests()[before];
    assert.match(toolResults(next).join('\n'), /use beta\.txt instead/, 'the feedback reached the model with the rejection');
    assert.equal(await input().inputValue(), '', 'delivered text is cleared');
    assert.equal(read('alpha.txt'), 'alpha original\n');
    await idle();
  });

  it('Approve with message applies the change and gives the model the note', async () => {
    ui.server.replace([
      calls(tc('edit_file', { path: 'gamma.txt', edits: [{ old_text: 'gamma original', new_text: 'gamma CHANGED' }] })),
      text('Applied gamma.'),
    ]);
    await send('Change gamma');
    const card = toolCard('gamma.txt');
    await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    await input().fill('and add a test for it next');
    const before = ui.server.chatRequests().length;
    // The card's own Approve carries the composer's text too.
    await card.getByRole('button', { name: 'Approve with message' }).click();
    await textCard('Applied gamma.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('gamma.txt') === 'gamma CHANGED\n', 'gamma on disk');
    assert.match(toolResults(ui.server.chatRequests()[before]).join('\n'), /add a test for it next/);
    assert.equal(await input().inputValue(), '');
    await idle();
  });

  it('a message sent while the agent runs is queued — shown, editable, removable — and delivered when the turn ends', async () => {
    ui.server.replace([
      text(`A slow answer that takes a while to stream in full. ${'More words, slowly. '.repeat(8)}`, { chunkSize: 2, chunkDelayMs: 100 }),
      text('Got your follow-up.'),
    ]);
    assert.equal(await ui.chat.getByRole('button', { name: 'Stop' }).count(), 0, 'no Stop while nothing runs');
    await send('Tell me something slowly');
    await waitUntil(async () => /Tandem is working/.test((await input().getAttribute('placeholder')) ?? ''), 'the run to start');
    await ui.chat.getByRole('button', { name: 'Stop' }).waitFor({ state: 'visible' });
    assert.equal(await ui.chat.getByRole('button', { name: 'Send', exact: true }).count(), 0, 'Stop takes Send\'s place while running');
    await input().fill('a message I will remove');
    await input().press('Enter');
    const queue = ui.chat.getByRole('list', { name: 'Queued messages' });
    await queue.getByText('a message I will remove').waitFor({ state: 'visible' });
    assert.equal(await input().inputValue(), '', 'a queued message leaves the composer');
    await queue.getByRole('button', { name: 'Remove queued message' }).click();
    await queue.getByText('a message I will remove').waitFor({ state: 'detached' });

    await input().fill('follow-up typo');
    await input().press('Enter');
    await queue.getByText('follow-up typo').waitFor({ state: 'visible' });
    await ui.wb.screenshot('everyday-02-queued-while-running');
    // Edit takes it back into the composer (out of the queue) to change and queue again.
    await queue.getByRole('button', { name: 'Edit queued message' }).click();
    assert.equal(await input().inputValue(), 'follow-up typo');
    await input().fill('follow-up, corrected');
    await input().press('Enter');
    await queue.getByText('follow-up, corrected').waitFor({ state: 'visible' });

    await textCard('Got your follow-up.').waitFor({ state: 'visible', timeout: 30_000 });
    await textCard('follow-up, corrected').first().waitFor({ state: 'visible' });
    const last = ui.server.chatRequests().at(-1);
    assert.match(userMessages(last).join('\n'), /follow-up, corrected/);
    assert.doesNotMatch(JSON.stringify(ui.server.chatRequests()), /a message I will remove/, 'a removed message is never sent');
    assert.equal(await queue.count(), 0, 'the queue is gone once delivered');
    await idle();
  });

  it('a command card says how the command exited: success, or failed (exit 3) in the error colour', async () => {
    ui.server.replace([
      calls(tc('run_command', { command: 'echo all good' })),
      calls(tc('run_command', { command: 'echo broken; exit 3' })),
      text('One passed, one failed.'),
    ]);
    await send('Run the two commands');
    const ok = toolCard('echo all good');
    await ok.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    const bad = toolCard('exit 3');
    await bad.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('One passed, one failed.').waitFor({ state: 'visible', timeout: 20_000 });
    const okChip = ok.locator('[data-exit="success"]');
    await okChip.waitFor({ state: 'visible' });
    assert.match(await okChip.innerText(), /success/);
    const badChip = bad.locator('[data-exit="failed"]');
    await badChip.waitFor({ state: 'visible' });
    assert.match(await badChip.innerText(), /failed \(exit 3\)/);
    assert.equal(await bad.locator('.chip.status-done').count(), 0, 'no green "done" on a failed command');
    // The card leads with what happened, in words; how it ended is said once, by the chip.
    assert.match(await bad.locator('.tool-summary').innerText(), /^Ran\s+echo broken; exit 3$/);
    assert.match(await ok.locator('.tool-summary').innerText(), /^Ran\s+echo all good$/);
    const colours = await Promise.all([okChip, badChip].map((c) => c.evaluate((el) => getComputedStyle(el).color)));
    assert.notEqual(colours[0], colours[1], 'success and failure are coloured differently');
    await bad.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('everyday-03-command-exit-codes');
    await idle();
  });

  it('the question card shows the option picked as chosen, not the default', async () => {
    ui.server.replace([
      calls(tc('ask_question', {
        question: 'Which test runner?', severity: 'minor', allow_custom: false, default: 'mocha',
        options: [{ label: 'Mocha', value: 'mocha' }, { label: 'Vitest', value: 'vitest' }],
      })),
      text('Vitest it is.'),
    ]);
    await send('Ask me about the runner');
    const q = ui.chat.locator('[data-card-kind="question"]').last();
    await q.getByRole('button', { name: 'Vitest' }).click({ timeout: 20_000 });
    await textCard('Vitest it is.').waitFor({ state: 'visible', timeout: 20_000 });
    const vitest = q.getByRole('button', { name: 'Vitest' });
    const mocha = q.getByRole('button', { name: 'Mocha' });
    assert.equal(await vitest.getAttribute('aria-pressed'), 'true');
    assert.match((await vitest.getAttribute('class')) ?? '', /chosen/);
    assert.doesNotMatch((await mocha.getAttribute('class')) ?? '', /primary|chosen/, 'the default is no longer styled as picked');
    await q.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('everyday-04-question-chosen');
    await idle();
  });

  it('an auth error card offers Set API key (opening the setup card) and Retry', async () => {
    ui.server.replace([{ type: 'fault', fault: 'server_error', status: 401, message: 'Incorrect API key provided' }, text('Now it works.')]);
    await send('Hello with a bad key');
    const err = ui.chat.locator('[data-card-kind="error"]').last();
    await err.getByRole('button', { name: 'Set API key' }).waitFor({ state: 'visible', timeout: 20_000 });
    await err.getByRole('button', { name: 'Retry' }).waitFor({ state: 'visible' });
    await ui.wb.screenshot('everyday-05-auth-error-actions');
    await err.getByRole('button', { name: 'Set API key' }).click();
    const setup = ui.chat.getByRole('region', { name: 'Set up Tandem' });
    await setup.waitFor({ state: 'visible', timeout: 10_000 });
    await setup.getByRole('textbox', { name: 'API key' }).or(setup.locator('input[aria-label="API key"]')).first().waitFor({ state: 'visible' });
    await ui.wb.screenshot('everyday-06-set-api-key-from-error');
    await setup.getByRole('button', { name: 'Close setup' }).click();
    await err.getByRole('button', { name: 'Retry' }).click();
    await textCard('Now it works.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
  });

  it('proposals reuse one diff column and their diffs close once decided: no growing columns, no file twice', async () => {
    fs.writeFileSync(path.join(ui.ws, 'alpha.txt'), 'alpha original\n');
    fs.writeFileSync(path.join(ui.ws, 'beta.txt'), 'beta original\n');
    // The user works in alpha.txt.
    await ui.wb.runCommand('Go to File');
    await ui.wb.page.keyboard.type('alpha.txt');
    await ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'alpha.txt' }).first().waitFor({ state: 'visible' });
    await ui.wb.page.keyboard.press('Enter');
    await tabs('alpha.txt').first().waitFor({ state: 'visible' });

    ui.server.replace([
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha original', new_text: 'alpha ONE' }] })),
      calls(tc('edit_file', { path: 'beta.txt', edits: [{ old_text: 'beta original', new_text: 'beta TWO' }] })),
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha ONE', new_text: 'alpha THREE' }] })),
      text('Three proposals decided.'),
    ]);
    await send('Make three edits');
    for (const [i, f] of [[1, 'alpha.txt'], [2, 'beta.txt'], [3, 'alpha.txt']] as const) {
      const card = toolCard(f).last();
      await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
      const diffTab = tabs(/proposal/).first();
      await diffTab.waitFor({ state: 'visible', timeout: 10_000 });
      // Clicking into the diff (the user reads it there) must not move the next one further right.
      await diffTab.click();
      await sleep(300);
      assert.ok((await groups().count()) <= 2, `proposal ${i}: at most two editor columns (saw ${await groups().count()})`);
      await ui.wb.screenshot(`everyday-07-diff-column-proposal-${i}`);
      if (i === 2) await card.getByRole('button', { name: 'Reject' }).click();
      else await card.getByRole('button', { name: 'Approve' }).click();
      await waitUntil(async () => (await tabs(/proposal/).count()) === 0, `proposal ${i}'s diff to close once decided`);
    }
    await textCard('Three proposals decided.').waitFor({ state: 'visible', timeout: 20_000 });
    assert.ok((await groups().count()) <= 2, 'still at most two columns');
    assert.ok((await tabs('alpha.txt').count()) <= 1, 'alpha.txt open once, not twice');
    assert.equal(read('alpha.txt'), 'alpha THREE\n');
    assert.equal(read('beta.txt'), 'beta original\n');
    await ui.wb.screenshot('everyday-08-after-proposals');
    await idle();
  });

  it('an approved change keeps +N −M, Open diff (that change, before ↔ after) and Revert this change; the raw arguments stay folded', async () => {
    // The list is virtualised: scroll up until the gamma card is rendered.
    const card = toolCard('gamma.txt').first();
    await ui.chat.locator('[role="log"]').evaluate((el) => { (el as { scrollTop: number }).scrollTop = 0; });
    for (let i = 0; i < 60 && (await card.count()) === 0; i++) {
      await ui.chat.locator('[role="log"]').evaluate((el) => { (el as { scrollTop: number }).scrollTop += 250; });
      await sleep(100);
    }
    await card.scrollIntoViewIfNeeded();
    const line = card.locator('.change-line');
    await line.waitFor({ state: 'visible' });
    assert.match(await line.innerText(), /Edited\s+gamma\.txt\s+\+1 −1/);
    await card.getByRole('button', { name: 'Revert this change' }).waitFor({ state: 'visible' });
    assert.equal(await card.locator('details', { hasText: 'Arguments' }).getAttribute('open'), null, 'arguments behind a closed disclosure');
    await line.getByRole('button', { name: 'Open diff' }).click();
    await tabs(/gamma\.txt: before ↔ after/).first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.ok((await groups().count()) <= 2);
    await ui.wb.screenshot('everyday-11-approved-change-open-diff');
    // Revert task's confirmation names the files it would put back.
    await ui.chat.getByRole('button', { name: 'Revert task' }).click();
    const confirm = ui.chat.getByRole('group', { name: 'Revert the whole task' });
    const files = confirm.getByRole('list', { name: 'Files to revert' });
    await files.waitFor({ state: 'visible' });
    const listed = await files.innerText();
    for (const f of ['gamma.txt', 'alpha.txt']) assert.match(listed, new RegExp(f.replace('.', '\\.')));
    await ui.wb.screenshot('everyday-11b-revert-task-lists-files');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    // The path in the card's headline is a link to the file.
    assert.match(await card.locator('.tool-summary').innerText(), /^Edited\s+gamma\.txt/);
    await card.locator('.tool-summary a.path-link', { hasText: 'gamma.txt' }).click();
    await ui.wb.page.locator('.editor-group-container .tab.active', { hasText: /^gamma\.txt/ }).first().waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('while a plan runs the header shows the current step "n/N · action"; the run ends with a summary card (files, commands, steps) whose Revert… puts one file back', async () => {
    fs.writeFileSync(path.join(ui.ws, 'beta.txt'), 'beta original\n');
    await ui.pickRole('planner');
    const twoSteps = {
      format_version: '1.0', goal: 'Touch beta, then check', estimated_total_time: '2 min', risks: [], prerequisites: [],
      steps: [
        { step_number: 1, action: 'Rewrite beta.txt', reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['beta.txt'] },
        { step_number: 2, action: 'Check the result', reason: 'asked', tools_needed: ['run_command'], estimated_time: '1 min', files: [], commands: ['cat beta.txt'] },
      ],
    };
    ui.server.replace([
      calls(tc('propose_plan', { ...twoSteps, goal: 'A first draft' })),
      calls(tc('propose_plan', twoSteps)),
      calls(tc('edit_file', { path: 'beta.txt', edits: [{ old_text: 'beta original', new_text: 'beta PLANNED' }] })),
      text('Step 1 done.'),
      calls(tc('run_command', { command: 'cat beta.txt' })),
      text('Step 2 done.'),
    ]);
    await send('Plan the beta change');
    // Revise: the box takes focus when opened; Shift+Enter is a new line, Escape closes, Enter sends.
    const draft = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'A first draft' }).last();
    await draft.getByRole('button', { name: 'Revise' }).click({ timeout: 20_000 });
    const box = draft.getByRole('textbox', { name: 'What should change in the plan' });
    await waitUntil(async () => (await box.evaluate((el) => el === (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)), 'the Revise box to have focus', 5000);
    await ui.wb.page.keyboard.type('scratch');
    await ui.wb.page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    await idle();
    await draft.getByRole('button', { name: 'Revise' }).click();
    await waitUntil(async () => (await box.evaluate((el) => el === (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)), 'focus again', 5000);
    // What was typed before Escape is kept (never lose a draft); start over.
    assert.equal(await box.inputValue(), 'scratch');
    await ui.wb.page.keyboard.press('Control+A');
    await ui.wb.page.keyboard.press('Backspace');
    // The emptied box is rendered before the next keystroke: typed at once, the first letter was
    // sometimes lost to the render of the empty value (seen in about one run in three; a race in
    // the Revise box's controlled textarea, not yet understood — said in the closing note).
    await waitUntil(async () => (await box.inputValue()) === '', 'the Revise box to be empty', 5000);
    await sleep(250);
    await ui.wb.page.keyboard.type('Touch beta first');
    await ui.wb.page.keyboard.press('Shift+Enter');
    await ui.wb.page.keyboard.type('then check');
    assert.equal(await box.inputValue(), 'Touch beta first\nthen check');
    await ui.wb.screenshot('everyday-12a-revise-box-focused');
    await ui.wb.page.keyboard.press('Enter');
    const planCard = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'Touch beta, then check' }).last();
    await planCard.waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    await planCard.getByRole('button', { name: 'Execute plan' }).click({ timeout: 20_000 });
    // No tool card for propose_plan above the plan card it produced.
    assert.equal(await ui.chat.locator('[data-card-kind="tool_call"]', { hasText: 'propose_plan' }).filter({ visible: true }).count(), 0, 'no propose_plan tool card');
    const edit = toolCard('beta.txt').last();
    await edit.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    const cmd = toolCard('cat beta.txt');
    await cmd.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    const progress = ui.chat.getByRole('group', { name: 'Plan progress' }).or(ui.chat.locator('[data-plan-progress]')).first();
    await progress.waitFor({ state: 'visible' });
    assert.match(await progress.innerText(), /2\/2 · Check the result/);
    await progress.locator('summary').click();
    // The plan declares no checks, so an ended step has no evidence: it shows as unverified, never as done.
    await progress.locator('[data-step-state="unverified"]', { hasText: 'Rewrite beta.txt' }).waitFor({ state: 'visible' });
    await ui.wb.screenshot('everyday-12-sticky-progress');
    await cmd.getByRole('button', { name: 'Approve' }).click();
    await textCard('Step 2 done.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(async () => (await ui.chat.locator('[data-plan-progress]').count()) === 0, 'the progress to leave the header once the run ends');

    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    await summary.waitFor({ state: 'visible', timeout: 20_000 });
    const said = await summary.innerText();
    assert.match(said, /0 of 2 done, 2 not verified/);
    assert.match(said, /beta\.txt/);
    assert.match(said, /alpha\.txt/, 'files of the whole task');
    assert.match(said, /cat beta\.txt/);
    await summary.locator('[data-exit="success"]').waitFor({ state: 'visible' });
    await summary.getByRole('button', { name: 'New task' }).waitFor({ state: 'visible' });
    // Usage lines live in the header now, not between the cards.
    assert.equal(await ui.chat.locator('[data-card-kind="usage"]').filter({ visible: true }).count(), 0, 'no usage rows in the chat');
    await summary.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('everyday-13-run-summary');

    await summary.getByRole('button', { name: 'Diff of beta.txt since the task started' }).click();
    await tabs(/beta\.txt: since the task started/).first().waitFor({ state: 'visible', timeout: 15_000 });
    await summary.getByRole('button', { name: 'Revert beta.txt…' }).click();
    await summary.getByRole('group', { name: 'Revert beta.txt' }).getByRole('button', { name: 'Revert' }).click();
    await waitUntil(() => read('beta.txt') === 'beta original\n', 'beta.txt back as the task found it', 20_000);
    assert.equal(read('alpha.txt'), 'alpha THREE\n', 'the other files are left alone');
    await ui.wb.screenshot('everyday-14-revert-one-file');
  });

  it('keybindings: focus the chat and switch the role from anywhere in the workbench', async () => {
    // Focus in the editor first.
    await ui.wb.page.locator('.editor-group-container .monaco-editor').first().click();
    await ui.wb.page.keyboard.press('Control+Shift+Alt+T');
    await waitUntil(async () => input().evaluate((el) => el === (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement).catch(() => false), 'the chat input to have focus', 10_000);
    const before = await ui.wb.roleStatus().innerText();
    await ui.wb.page.keyboard.press('Control+Shift+Alt+R');
    await waitUntil(async () => (await ui.wb.roleStatus().innerText()) !== before, 'the role to switch', 10_000);
    await ui.wb.screenshot('everyday-15-keybindings');
  });

  it('New task (its key) leaves an empty chat listing recent tasks; one click resumes one', async () => {
    await ui.wb.page.locator('.editor-group-container .monaco-editor').first().click();
    await ui.wb.page.keyboard.press('Control+Shift+Alt+N');
    const recent = ui.chat.getByRole('navigation', { name: 'Recent tasks' });
    await recent.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await ui.chat.locator('[data-card-kind]').count(), 0, 'a new, empty task');
    await ui.wb.screenshot('everyday-16-empty-chat-recent-tasks');
    await recent.getByRole('button', { name: 'Change alpha' }).click();
    await recent.waitFor({ state: 'detached', timeout: 15_000 });
    // The resumed task's cards are back (the list shows its end: the last run's summary).
    await ui.chat.locator('[data-card-kind="summary"]').last().waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('a second window on the same folder finds this task in History', async () => {
    let other: Page | undefined;
    try {
      other = await ui.wb.openAnotherWindow();
      // Tandem's activity-bar entry appears once that window's extension host has scanned it.
      await other.locator('.part.activitybar .action-item a[aria-label^="Tandem"], .part.activitybar .action-item[aria-label^="Tandem"]').first().waitFor({ state: 'visible', timeout: 60_000 });
      await sleep(1000);
      await other.keyboard.press('F1');
      const q = other.locator('.quick-input-widget input.input');
      await q.waitFor({ state: 'visible' });
      await q.fill('>Tandem: Open History');
      await other.locator('.quick-input-widget .monaco-list-row', { hasText: 'Tandem: Open History' }).first().waitFor({ state: 'visible', timeout: 20_000 });
      await other.keyboard.press('Enter');
      await other.locator('.quick-input-widget .monaco-list-row', { hasText: 'Change alpha' }).first().waitFor({ state: 'visible', timeout: 20_000 }).catch(async (e: unknown) => {
        await other!.screenshot({ path: path.join(RESULTS_DIR, 'everyday-failed-second-window.png') });
        throw e;
      });
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      await other.screenshot({ path: path.join(RESULTS_DIR, 'everyday-09-history-in-second-window.png') });
    } finally {
      await other?.close();
    }
  });
});

describe('No API key for an endpoint that needs one (UI)', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;

  after(async () => {
    await wb?.close();
  });

  it('shows the setup card at once, instead of sending requests that fail with 401', async () => {
    // A hosted endpoint (never reached: the card comes before any request) and no stored key.
    wb = await openWorkbench({ settings: { 'tandem.baseUrl': 'https://llm.example.invalid/v1' } });
    const chat = await wb.openTandemView();
    const setup = chat.getByRole('region', { name: 'Set up Tandem' });
    await setup.waitFor({ state: 'visible', timeout: 30_000 });
    await setup.locator('input[aria-label="API key"]').waitFor({ state: 'visible' });
    await wb.screenshot('everyday-10-setup-card-no-key');
  });

  it('sends nothing until a model is connected: Send disabled, the text kept, the card one click away', async () => {
    const chat = wb!.chat();
    const input = chat.locator('textarea[aria-label="Message Tandem"]');
    const sendButton = chat.getByRole('button', { name: 'Send', exact: true });
    const setup = chat.getByRole('region', { name: 'Set up Tandem' });
    for (const width of [420, 300]) {
      await setSidebarWidth(wb!.page, width);
      await input.click();
      await input.fill('Add a --verbose flag');
      assert.equal(await sendButton.isDisabled(), true, `Send is disabled with no model connected (${width} px)`);
      await input.press('Enter');
      await sleep(1500);
      assert.equal(await chat.locator('[data-card-kind="text"], [data-card-kind="error"]').count(), 0, 'no message went out, so no 401 error either');
      assert.equal(await input.inputValue(), 'Add a --verbose flag', 'the text is kept');
      // The card sits above the transcript, the composer below: the card never covers what was typed.
      const cardBox = (await setup.boundingBox())!;
      const inputBox = (await input.boundingBox())!;
      assert.ok(cardBox.y + cardBox.height <= inputBox.y, 'the setup card ends above the composer');
      await wb!.screenshot(`everyday-11-no-model-send-disabled-${width}`);
    }
    await setup.getByRole('button', { name: 'Close setup' }).click();
    await setup.waitFor({ state: 'hidden' });
    assert.equal(await sendButton.isDisabled(), true, 'closing the card does not connect a model');
    await chat.getByText('No model is connected yet').waitFor({ state: 'visible' });
    await wb!.screenshot('everyday-12-no-model-card-closed-300');
    await chat.getByRole('button', { name: 'Connect a model' }).click();
    await setup.waitFor({ state: 'visible', timeout: 10_000 });
  });
});
