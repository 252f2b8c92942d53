/**
 * Never miss an approval: when a command waits for approval while the Tandem view is hidden, a
 * notification says so with Approve / Reject / Open, and the Tandem icon carries a badge; Approve
 * in the notification runs the command. Screenshot: test-results/attention-*.png.
 */
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';

describe('Approvals and finished runs reach a hidden view (UI)', function () {
  this.timeout(240_000);
  const ui = chatSuite({ name: 'attention', files: { 'a.txt': 'a\n' }, role: 'actor' });

  it('a command waiting while the view is hidden: a notification with Approve / Reject / Open; Approve there runs it', async () => {
    ui.server.replace([{ ...calls(tc('run_command', { command: 'echo approved-from-a-toast' })), firstChunkDelayMs: 4000 }, text('Done, from the toast.')]);
    await ui.send('Run the toast command');
    // The user moves on to the Explorer while the model thinks.
    await ui.wb.page.keyboard.press('Control+Shift+E');
    const toast = ui.wb.page.locator('.notification-list-item', { hasText: 'Tandem waits for your approval' }).first();
    // A toast, or (when the workbench kept it quiet) the same notification in the notification centre.
    if (!(await toast.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false))) {
      await ui.wb.runCommand('Notifications: Show Notifications');
      await toast.waitFor({ state: 'visible', timeout: 10_000 });
    }
    await ui.wb.screenshot('attention-01-toast-and-badge');
    await toast.getByRole('button', { name: 'Approve' }).click();
    await ui.wb.openTandemView();
    await ui.textCard('Done, from the toast.').waitFor({ state: 'visible', timeout: 30_000 });
    await ui.toolCard('approved-from-a-toast').locator('.chip', { hasText: 'success' }).waitFor({ state: 'visible' });
  });
});
