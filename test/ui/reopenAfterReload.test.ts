/**
 * After a reload the chat opens the task that was open, with its cards and its header, without
 * picking it from Recent tasks. code-server keeps the reloaded tab's extension host running for a
 * while, holding the task: the new tab then says the task is open in another window (never a
 * process), with Take over, and opens it by itself once that old host stops answering.
 * Screenshots: test-results/reopen-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { RESULTS_DIR } from './harness';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';
import { waitForStoredOpenTask } from './storedOpenTask';

describe('After a reload the chat opens the task that was open (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({ name: 'reopen', files: { 'note.txt': 'old\n' }, role: 'actor' });

  async function shot(name: string): Promise<void> {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    await ui.wb.page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) });
  }

  /** Each test starts from an empty chat of its own (New Task, which starts in the Planner), whatever the test before left open. */
  async function freshTask(width: number, role?: 'actor'): Promise<void> {
    await ui.wb.runCommand('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind]').count()) === 0, 'an empty chat');
    await setSidebarWidth(ui.wb.page, width);
    if (role) await ui.pickRole(role);
  }

  /**
   * Reloads the window and waits until `shown` is back in the chat. While the old tab's editor still
   * holds the task, the notice must say so in window words; `takeOver` clicks its Take over, else
   * the task must open by itself. Returns whether the notice showed.
   */
  async function reloadUntil(shown: Locator, o: { width: number; takeOver: boolean; noticeShot: string }): Promise<boolean> {
    await waitForStoredOpenTask(ui.wb.page, 'a task');
    await ui.wb.page.reload();
    await ui.wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    // A reloaded window brings the Tandem view back by itself.
    await ui.input().waitFor({ state: 'visible', timeout: 60_000 });
    await setSidebarWidth(ui.wb.page, o.width);
    const told = ui.chat.getByRole('alert', { name: 'Task not opened' });
    await waitUntil(async () => (await shown.count()) > 0 || (await told.count()) > 0, 'the task to open or the notice to say why', 60_000);
    const noticed = (await shown.count()) === 0 && (await told.count()) > 0;
    if (noticed) {
      const says = await told.innerText();
      assert.match(says, /open in another window/);
      assert.doesNotMatch(says, /process|\bpid\b|\d{3,}/i, 'a window, never a process id');
      await shot(o.noticeShot);
      if (o.takeOver) await told.getByRole('button', { name: 'Take over' }).click();
    }
    // The old tab's editor stops beating once nobody answers it: then the task opens here by itself.
    await shown.first().waitFor({ state: 'visible', timeout: 60_000 });
    await told.waitFor({ state: 'detached', timeout: 15_000 });
    return noticed;
  }

  it('a finished task comes back with its cards and the header\'s Context, Turn and Task, without asking the model (420 px)', async () => {
    await freshTask(420);
    ui.server.replace([text('Noted: the word is PLUM.')]);
    await ui.send('Remember the word PLUM');
    await ui.textCard('Noted: the word is PLUM.').waitFor({ state: 'visible', timeout: 30_000 });
    await ui.idle();
    const asked = ui.server.chatRequests().length;

    const noticed = await reloadUntil(ui.userCard('Remember the word PLUM'), { width: 420, takeOver: false, noticeShot: 'reopen-01-held-by-old-tab-420' });
    process.stdout.write(`      (the reloaded tab's old editor held the task at first: ${noticed})\n`);
    await ui.textCard('Noted: the word is PLUM.').waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await ui.chat.getByRole('navigation', { name: 'Recent tasks' }).count(), 0, 'not the empty chat\'s Recent tasks');
    // The header as before the reload: the context meter (from the conversation, before any request), Turn and Task.
    const meter = ui.chat.getByRole('meter', { name: 'Context window used' });
    await meter.waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(Number(await meter.getAttribute('data-context-used')) > 0, 'the conversation\'s size');
    assert.equal(await meter.getAttribute('data-context-window'), '128000');
    const usage = ui.chat.getByLabel('Usage');
    await usage.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await usage.innerText(), /Turn:[\s\S]*Task:/);
    assert.equal(ui.server.chatRequests().length, asked, 'the model was not asked for any of it');
    await shot('reopen-02-finished-task-back-420');
  });

  it('a task that was running (an approval waiting) comes back stopped with its cards, and goes on with the next message (300 px)', async () => {
    await freshTask(300, 'actor');
    ui.server.replace([calls(tc('write_file', { path: 'fresh.txt', content: 'new\n' })), text('Carrying on after the reload.')]);
    await ui.send('Write the fresh file');
    await ui.toolCard('fresh.txt').getByRole('button', { name: 'Approve' }).first().waitFor({ state: 'visible', timeout: 30_000 });

    await reloadUntil(ui.userCard('Write the fresh file'), { width: 300, takeOver: true, noticeShot: 'reopen-03-held-take-over-300' });
    const call = ui.toolCard('fresh.txt').first();
    await call.waitFor({ state: 'visible', timeout: 15_000 });
    // Stopped by the reload: nothing waits for an Approve any more, and nothing was written.
    await waitUntil(async () => (await call.getByRole('button', { name: 'Approve' }).count()) === 0, 'the approval to show as ended', 15_000);
    assert.match(await call.innerText(), /Interrupted: the task was closed/);
    // Stopped is neutral, as after Stop: said in a line, not as an "Error".
    assert.equal(await call.locator('details.result-error').count(), 0, 'no "Error" section');
    assert.doesNotMatch(await call.innerText(), /▼?\s*Error\b/);
    assert.equal(fs.existsSync(path.join(ui.ws, 'fresh.txt')), false, 'the unapproved file was not written');
    await shot('reopen-04-running-task-back-stopped-300');

    await ui.send('Go on');
    await ui.textCard('Carrying on after the reload.').waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(JSON.stringify(ui.server.chatRequests().at(-1)?.messages).includes('Write the fresh file'), 'the earlier turn went with the next request');
    await ui.idle();
    await shot('reopen-05-goes-on-300');
  });

  it('New Task, then a reload: the empty chat with Recent tasks, as in a new window (300 px)', async () => {
    await freshTask(300);
    ui.server.replace([text('Noted: FIG.')]);
    await ui.send('Remember FIG');
    await ui.textCard('Noted: FIG.').waitFor({ state: 'visible', timeout: 30_000 });
    await ui.idle();
    // The reader sees the task stored as open first (so the wait below cannot pass for want of it).
    await waitForStoredOpenTask(ui.wb.page, 'a task');
    const t0 = Date.now();
    await freshTask(300);
    await waitForStoredOpenTask(ui.wb.page, 'none');
    process.stdout.write(`      (the workbench had stored "no task open" ${Date.now() - t0} ms after New Task was asked for)\n`);

    await ui.wb.page.reload();
    await ui.wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    await ui.input().waitFor({ state: 'visible', timeout: 60_000 });
    const recent = ui.chat.getByRole('navigation', { name: 'Recent tasks' });
    await recent.getByRole('button', { name: 'Remember FIG' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await ui.chat.locator('[data-card-kind]').count(), 0, 'no task opened');
    assert.equal(await ui.chat.getByRole('alert', { name: 'Task not opened' }).count(), 0, 'nothing to tell');
    await setSidebarWidth(ui.wb.page, 300);
    await shot('reopen-06-new-task-reload-empty-300');
  });
});
