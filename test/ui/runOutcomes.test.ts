/**
 * How a run's end is named. Stop is the user's own neutral end, never a failure: the stopped call,
 * the plan step, the plan's line, the summary and the header all say "stopped" without the error red.
 * Screenshots: test-results/outcomes-*.png (at 420 and 300 px).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';

const PLAN = (check?: string) => ({
  format_version: '1.0',
  goal: 'Add two notes',
  steps: [
    { step_number: 1, action: 'Create one.txt', reason: 'asked', tools_needed: ['write_file'], estimated_time: '1 min', files: ['one.txt'], ...(check ? { check } : {}) },
    { step_number: 2, action: 'Create two.txt', reason: 'asked', tools_needed: ['write_file'], estimated_time: '1 min', files: ['two.txt'] },
  ],
  estimated_total_time: '2 min',
  risks: [],
  prerequisites: [],
});

export async function setSidebarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar');
  const box = (await sidebar.boundingBox())!;
  if (Math.abs(box.width - width) < 20) return;
  await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await waitUntil(async () => Math.abs(((await sidebar.boundingBox())?.width ?? 0) - width) < 30, `the side bar to be ~${width} px wide`);
}

describe('Run outcomes named truly (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({ name: 'outcomes', files: { 'README.md': '# notes\n' } });

  it('Stop while a plan step waits for approval: the call, the step, the plan and the header say stopped, in neutral colours', async () => {
    await setSidebarWidth(ui.wb.page, 420);
    ui.server.replace([calls(tc('propose_plan', PLAN())), calls(tc('write_file', { path: 'one.txt', content: '1\n' }))]);
    await ui.send('Add two notes');
    const plan = ui.chat.locator('[data-card-kind="plan"]').last();
    await plan.getByRole('button', { name: 'Execute plan' }).click({ timeout: 20_000 });
    const write = ui.toolCard('one.txt').last();
    await write.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.getByRole('button', { name: 'Stop' }).first().click();
    await ui.idle();

    const chip = write.locator('.chip').first();
    await waitUntil(async () => (await chip.innerText()) === 'stopped', 'the call to say stopped', 15_000);
    assert.doesNotMatch(await chip.getAttribute('class') ?? '', /status-error/);
    await ui.reveal(plan);
    assert.equal(await plan.locator('[data-step-state]').first().getAttribute('data-step-state'), 'stopped');
    const status = plan.locator('[data-plan-status="executed"]');
    assert.match(await status.innerText(), /^Stopped \(0 of 2 steps done\)/);
    assert.doesNotMatch(await status.getAttribute('class') ?? '', /status-error/);
    assert.equal(await ui.chat.locator('[data-turn-outcome="error"]').count(), 0, 'the header does not call it an error');
    assert.equal(await plan.locator('.error-text').count(), 0, 'no red reason on the stopped step');
    await ui.wb.screenshot('outcomes-01-stopped-420');
    await setSidebarWidth(ui.wb.page, 300);
    await ui.wb.screenshot('outcomes-02-stopped-300');
  });
});
