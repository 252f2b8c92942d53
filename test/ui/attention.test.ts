/**
 * Never miss an approval or a finished run: when a command waits for approval while the Tandem view
 * is hidden, a notification says so with Approve / Reject / Open; Approve in the notification runs
 * the command. A run that ends while the view is hidden puts a badge on the Tandem icon in the
 * activity bar (as the workbench draws it) and a notification, showing the view clears both (the
 * notification leaves the notification centre: it is news once the run is read), and
 * `tandem.notify.badge: false` leaves the icon bare. Screenshots: test-results/attention-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';

describe('Approvals and finished runs reach a hidden view (UI)', function () {
  this.timeout(240_000);
  const ui = chatSuite({ name: 'attention', files: { 'a.txt': 'a\n' }, role: 'actor' });

  /** The number on the Tandem icon's badge in the activity bar, as drawn ('' when it shows none). */
  async function badge(): Promise<string> {
    return ui.wb.page.locator('.part.activitybar .action-item').evaluateAll((items) => {
      const ours = items.find((i) => /^Tandem/.test(i.getAttribute('aria-label') ?? i.querySelector('a')?.getAttribute('aria-label') ?? ''));
      const b = ours?.querySelector<HTMLElement>('.badge');
      return b && getComputedStyle(b).display !== 'none' && b.offsetParent !== null ? (b.innerText ?? '').trim() : '';
    });
  }

  /** The notification `text`, as a toast or (when the workbench kept it quiet) in the notification centre. */
  async function notification(hasText: string) {
    const toast = ui.wb.page.locator('.notification-list-item', { hasText }).first();
    if (!(await toast.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false))) {
      await ui.wb.runCommand('Notifications: Show Notifications');
      await toast.waitFor({ state: 'visible', timeout: 10_000 });
    }
    return toast;
  }

  it('a command waiting while the view is hidden: a notification with Approve / Reject / Open; Approve there runs it', async () => {
    ui.server.replace([{ ...calls(tc('run_command', { command: 'echo approved-from-a-toast' })), firstChunkDelayMs: 4000 }, text('Done, from the toast.')]);
    await ui.send('Run the toast command');
    // The user moves on to the Explorer while the model thinks.
    await ui.wb.page.keyboard.press('Control+Shift+E');
    const toast = await notification('Tandem waits for your approval');
    // The side bar stays where the user went: the notification and the badge say Tandem waits.
    await waitUntil(async () => (await badge()) === '1', 'a badge "1" on the Tandem icon', 10_000);
    await sleep(1000);
    assert.equal(await ui.wb.page.locator('.part.sidebar .title-label', { hasText: /^Explorer/i }).count(), 1, 'the Explorer is still shown: the approval did not pull the side bar back to Tandem');
    await ui.wb.screenshot('attention-01-toast');
    await toast.getByRole('button', { name: 'Approve' }).click();
    await ui.wb.openTandemView();
    await ui.textCard('Done, from the toast.').waitFor({ state: 'visible', timeout: 30_000 });
    await ui.toolCard('approved-from-a-toast').locator('.chip', { hasText: 'success' }).waitFor({ state: 'visible' });
  });

  it('a run that ends while the view is hidden badges the icon and notifies; showing the view clears the badge and takes the notification out of the notification centre; the badge setting off leaves the icon bare', async () => {
    await ui.wb.runCommand('Notifications: Clear All Notifications');
    ui.server.replace([{ ...text('Finished while you were away.'), firstChunkDelayMs: 4000 }]);
    await ui.send('Finish while I look elsewhere');
    await ui.wb.page.keyboard.press('Control+Shift+E');
    await notification('Tandem finished the run');
    await waitUntil(async () => (await badge()) === '1', 'a badge "1" on the Tandem icon', 10_000);
    await ui.wb.screenshot('attention-02-run-finished-badge');
    await ui.wb.openTandemView();
    await ui.textCard('Finished while you were away.').waitFor({ state: 'visible', timeout: 15_000 });
    await waitUntil(async () => (await badge()) === '', 'the badge to clear once the view is shown', 10_000);
    // The news is read: the notification leaves the notification centre too (it stayed there before).
    await ui.wb.runCommand('Notifications: Show Notifications');
    await ui.wb.page.locator('.notifications-center').waitFor({ state: 'visible', timeout: 10_000 });
    const finished = ui.wb.page.locator('.notifications-center .notification-list-item', { hasText: 'Tandem finished the run' });
    await waitUntil(async () => (await finished.count()) === 0, 'the finished-run notification to leave the notification centre once the view is seen', 10_000);
    await ui.wb.screenshot('attention-03-badge-cleared');
    await ui.wb.runCommand('Notifications: Hide Notifications');

    // The setting off (here in the workspace's settings, as a user would): the notification still comes, no badge.
    fs.mkdirSync(path.join(ui.ws, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(ui.ws, '.vscode', 'settings.json'), JSON.stringify({ 'tandem.notify.badge': false }));
    await sleep(3000);
    await ui.wb.runCommand('Notifications: Clear All Notifications');
    ui.server.replace([{ ...text('Finished again, quietly.'), firstChunkDelayMs: 4000 }]);
    await ui.send('Finish again');
    await ui.wb.page.keyboard.press('Control+Shift+E');
    await notification('Tandem finished the run');
    await sleep(1000);
    assert.equal(await badge(), '', 'no badge with tandem.notify.badge off');
    await ui.wb.screenshot('attention-04-badge-off');
    await ui.wb.openTandemView();
    await ui.textCard('Finished again, quietly.').waitFor({ state: 'visible', timeout: 15_000 });
  });
});
