/**
 * Resume always does something. code-server keeps a reloaded or closed tab's
 * extension host running, and that host still holds the task's lock: resuming the task in the new
 * tab used to do nothing at all (the reason only in the log). Now the lock beats only while its
 * window answers, so a reloaded tab's lock goes stale and the task opens; while the holder is live
 * (a second tab) the user is told why, with Take over, and the other tab turns read-only.
 * Screenshots: test-results/resume-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { chatSuite, type ChatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { RESULTS_DIR } from './harness';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';
import { LOCK_BEAT_MS, LOCK_STALE_MS } from '../../src/core/history/taskLock';
import { waitForStoredOpenTask } from './storedOpenTask';

const chatOf = (page: Page): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');

async function openTandem(page: Page): Promise<FrameLocator> {
  const item = page.locator('.part.activitybar .action-item a[aria-label^="Tandem"], .part.activitybar .action-item[aria-label^="Tandem"]').first();
  await item.waitFor({ state: 'visible', timeout: 60_000 });
  const chat = chatOf(page);
  const input = chat.locator('textarea[aria-label="Message Tandem"]');
  // A reloaded window brings the side bar back by itself. Decide on the side bar's title, not on the
  // chat's input: on a loaded machine the webview can take longer than any guess, and a click on the
  // icon while Tandem's view is already showing would close the side bar.
  const title = page.locator('.part.sidebar .composite.title', { hasText: /Tandem/i });
  const shown = await title.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
  if (!shown) await item.click();
  await input.waitFor({ state: 'visible', timeout: 90_000 });
  return chat;
}

/** A finished task of its own in the first tab, so a test does not lean on what the one before it left. */
async function aTaskHere(ui: ChatSuite, word: string): Promise<string> {
  await ui.wb.runCommand('Tandem: New Task');
  await waitUntil(async () => (await ui.chat.locator('[data-card-kind]').count()) === 0, 'an empty chat');
  ui.server.replace([text(`Noted: ${word}.`)]);
  const prompt = `Remember the word ${word}`;
  await ui.send(prompt);
  await ui.textCard(`Noted: ${word}.`).waitFor({ state: 'visible', timeout: 20_000 });
  await ui.idle();
  return prompt;
}

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) });
}

describe('Resume after a reload and in a second tab (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({ name: 'resume', files: { 'note.txt': 'old\n' }, role: 'actor' });

  it('reload mid-task (an approval waiting) → the task opens again by itself: at once when its old window went quiet, else after Take over', async () => {
    await setSidebarWidth(ui.wb.page, 420);
    ui.server.replace([calls(tc('write_file', { path: 'fresh.txt', content: 'new\n' })), text('Wrote the note.'), text('Continuing after the reload.')]);
    await ui.send('Rewrite the note file');
    await ui.toolCard('fresh.txt').getByRole('button', { name: 'Approve' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await waitForStoredOpenTask(ui.wb.page, 'a task');

    await ui.wb.page.reload();
    await ui.wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    const chat = await openTandem(ui.wb.page);
    // Nothing to pick: the window opens the task it had open (reopenAfterReload.test.ts says more).
    const resumed = chat.locator('[data-card-kind="text"].author-user', { hasText: 'Rewrite the note file' });
    const told = chat.getByRole('alert', { name: 'Task not opened' });
    // Never nothing: the task opens, or the chat says why with the way out.
    await waitUntil(async () => (await resumed.count()) > 0 || (await told.count()) > 0, 'the task to open or the reason to show', 60_000);
    if ((await told.count()) > 0) {
      assert.match(await told.innerText(), /open in another window/);
      await shot(ui.wb.page, 'resume-01-reload-held-take-over');
      await told.getByRole('button', { name: 'Take over' }).click();
    }
    await resumed.first().waitFor({ state: 'visible', timeout: 30_000 });
    await shot(ui.wb.page, 'resume-02-reload-resumed');
    // It is this window's task now: a message goes to the model with the earlier turns.
    await chat.locator('textarea[aria-label="Message Tandem"]').fill('Go on');
    await chat.locator('textarea[aria-label="Message Tandem"]').press('Enter');
    await chat.locator('[data-card-kind="text"]', { hasText: /Wrote the note|Continuing after the reload/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(JSON.stringify(ui.server.chatRequests().at(-1)?.messages).includes('Rewrite the note file'), 'the earlier turn was sent');
    await ui.idle();
  });

  it('reload, and once the old window has stopped beating History → Resume opens the task without asking', async () => {
    await aTaskHere(ui, 'KIWI');
    // An empty chat when the window reloads: it opens no task by itself, and History → Resume is the way back.
    await ui.wb.runCommand('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind]').count()) === 0, 'an empty chat again');
    await waitForStoredOpenTask(ui.wb.page, 'none');

    await ui.wb.page.reload();
    await ui.wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    await openTandem(ui.wb.page);
    // The closed window's extension host is still running, but nobody answers it: its lock goes stale.
    await sleep(LOCK_STALE_MS + 2 * LOCK_BEAT_MS);
    await ui.wb.runCommand('Tandem: Open History');
    const row = (t: string) => ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: t }).first();
    await row('Remember the word KIWI').click({ timeout: 15_000 });
    await row('Resume').click();
    await ui.textCard('Noted: KIWI.').waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await ui.wb.page.locator('.monaco-dialog-box').count(), 0, 'no "open in another window" dialog');
    await shot(ui.wb.page, 'resume-03-history-after-reload');
  });

  it('a second tab: told the task is open here, Take over moves it; this tab turns read-only and says why (420 and 300 px)', async () => {
    const prompt = await aTaskHere(ui, 'PLUM');
    let other: Page | undefined;
    try {
      other = await ui.wb.openAnotherWindow();
      const chat2 = await openTandem(other);
      await setSidebarWidth(other, 300);
      await chat2.getByRole('navigation', { name: 'Recent tasks' }).getByRole('button', { name: prompt }).click({ timeout: 30_000 });
      const told = chat2.getByRole('alert', { name: 'Task not opened' });
      await told.waitFor({ state: 'visible', timeout: 15_000 });
      assert.match(await told.innerText(), /open in another window/);
      await shot(other, 'resume-04-second-tab-told-300');
      await told.getByRole('button', { name: 'Take over' }).click();
      await chat2.locator('[data-card-kind="text"]', { hasText: 'Noted: PLUM.' }).waitFor({ state: 'visible', timeout: 30_000 });
      await told.waitFor({ state: 'detached' });

      // The first tab: its cards stay, read-only, with the reason and what it can do.
      const readOnly = ui.chat.getByRole('status', { name: 'Read-only task' });
      await readOnly.waitFor({ state: 'visible', timeout: 15_000 });
      assert.match(await readOnly.innerText(), /opened in another window/);
      assert.equal(await ui.input().count(), 0, 'no composer in the read-only tab');
      await ui.textCard('Noted: PLUM.').waitFor({ state: 'visible' });
      await shot(ui.wb.page, 'resume-05-first-tab-read-only-420');

      // The palette is no way around it: Explain Selection in the read-only tab sends nothing and says why.
      const asked = ui.server.chatRequests().length;
      await ui.wb.runCommand('Go to File');
      const quick = ui.wb.page.locator('.quick-input-widget input.input');
      await quick.fill('note.txt');
      await ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'note.txt' }).first().click();
      const lines = ui.wb.page.locator('.editor-group-container .monaco-editor .view-lines').filter({ hasText: 'old' }).first();
      await lines.click();
      await ui.wb.page.keyboard.press('Control+A');
      await ui.wb.runCommand('Tandem: Explain Selection');
      const warning = ui.wb.page.locator('.notification-list-item', { hasText: 'opened in another window' }).first();
      // A toast, or (when the workbench kept it quiet) the same notification in the notification centre.
      if (!(await warning.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) {
        await ui.wb.runCommand('Notifications: Show Notifications');
        await warning.waitFor({ state: 'visible', timeout: 10_000 });
      }
      await shot(ui.wb.page, 'resume-05b-read-only-palette-refused');
      await sleep(1500);
      assert.equal(ui.server.chatRequests().length, asked, 'nothing reached the model from the read-only tab');
      assert.equal(await ui.chat.locator('[data-card-kind="text"].author-user', { hasText: 'note.txt' }).count(), 0, 'no prompt card in the read-only tab');

      // The second tab carries on with the task.
      ui.server.replace([text('The word was PLUM.')]);
      await chat2.locator('textarea[aria-label="Message Tandem"]').fill('Which word?');
      await chat2.locator('textarea[aria-label="Message Tandem"]').press('Enter');
      await chat2.locator('[data-card-kind="text"]', { hasText: 'The word was PLUM.' }).waitFor({ state: 'visible', timeout: 30_000 });
      await shot(other, 'resume-06-second-tab-continues-300');
    } finally {
      await other?.close();
    }
  });
});
