/**
 * The header while a plan runs is one line (role, state, "n/N · action"), its details
 * (steps, model, context, usage) on demand in a drop-down over the chat, the "Switched to the Actor"
 * note faded out after a few seconds, and Revert task on the same row when the run's end states its reason;
 * a plain Actor turn's header is one line the same way (the model on the row, its details on demand).
 * Screenshots: test-results/quiet-header-*.png (at 300 and 420 px).
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';

const PLAN = {
  format_version: '1.0',
  goal: 'Add two notes',
  steps: [
    { step_number: 1, action: 'Create one.txt with the first note of the two', reason: 'asked', tools_needed: ['write_file'], estimated_time: '1 min', files: ['one.txt'], check: 'test -f missing.txt' },
    { step_number: 2, action: 'Create two.txt', reason: 'asked', tools_needed: ['write_file'], estimated_time: '1 min', files: ['two.txt'] },
  ],
  estimated_total_time: '2 min',
  risks: [],
  prerequisites: [],
};

describe('A quiet header while a plan runs (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({ name: 'quiet-header', files: { 'README.md': '# notes\n' } });

  async function box(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
    const b = await l.boundingBox();
    assert.ok(b, 'on screen');
    return b;
  }

  /** Revert task's place in the header: its top and its distance from the header's right edge. */
  async function revertPlace(): Promise<{ top: number; right: number }> {
    const h = await box(ui.chat.locator('header'));
    const r = await box(ui.chat.locator('header').getByRole('button', { name: 'Revert task' }));
    return { top: Math.round(r.y - h.y), right: Math.round(h.x + h.width - (r.x + r.width)) };
  }

  /** The header's height, and its share of the side bar's; asserts it is the role's one row. */
  async function oneLine(width: number): Promise<string> {
    const header = await box(ui.chat.locator('header'));
    const role = await box(ui.roleButton());
    const sidebar = await box(ui.wb.page.locator('.part.sidebar'));
    const share = `${width} px: header ${Math.round(header.height)} px of the side bar's ${Math.round(sidebar.height)} px (${((header.height / sidebar.height) * 100).toFixed(1)} %)`;
    console.log(`      ${share}`);
    assert.ok(header.height <= role.height + 16, `one line: ${share}, role button ${Math.round(role.height)} px`);
    return share;
  }

  it('while a plan runs the header is one line at 300 and 420 px, its note fades, its details open on demand, and Revert task keeps its row when the reason appears', async () => {
    await setSidebarWidth(ui.wb.page, 300);
    // Something to revert first, so Revert task is in the header before the run.
    await ui.pickRole('actor');
    ui.server.replace([calls(tc('write_file', { path: 'zero.txt', content: '0\n' })), text('Wrote zero.txt.')]);
    await ui.send('Write zero.txt');
    await ui.toolCard('zero.txt').last().getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await ui.idle();
    await ui.chat.locator('header').getByRole('button', { name: 'Revert task' }).waitFor({ state: 'visible', timeout: 15_000 });
    const before = await revertPlace();

    await ui.pickRole('planner');
    ui.server.replace([calls(tc('propose_plan', PLAN)), calls(tc('write_file', { path: 'one.txt', content: '1\n' })), text('Step 1 done.')]);
    await ui.send('Add two notes, checked');
    // The role's note lives a few seconds from the switch: the page itself notes its opacity every
    // frame from now on (polling from here can start after it has gone, on a loaded machine).
    await ui.chat.locator('body').evaluate(() => {
      const w = window as unknown as { __noteOpacities: number[]; __noteFrame: number };
      w.__noteOpacities = [];
      const tick = (): void => {
        for (const e of Array.from(document.querySelectorAll('header [role="status"]'))) {
          if (/Switched to the Actor/.test(e.textContent ?? '')) w.__noteOpacities.push(Number(getComputedStyle(e).opacity));
        }
        w.__noteFrame = requestAnimationFrame(tick);
      };
      tick();
    });
    await ui.chat.locator('[data-card-kind="plan"]').last().getByRole('button', { name: 'Execute plan' }).click({ timeout: 20_000 });
    const approve = ui.toolCard('one.txt').last().getByRole('button', { name: 'Approve' });
    await approve.waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.locator('[data-plan-progress]').waitFor({ state: 'visible' });

    // The role's note says why once, then fades out and goes: a few seconds, not the whole run.
    const note = ui.chat.locator('header').getByRole('status').filter({ hasText: 'Switched to the Actor' });
    const noted = (): Promise<number[]> => ui.chat.locator('body').evaluate(() => (window as unknown as { __noteOpacities: number[] }).__noteOpacities);
    await waitUntil(async () => (await noted()).length > 0 && (await note.count()) === 0, 'the "Switched to the Actor" note to show, fade and go', 20_000);
    await ui.chat.locator('body').evaluate(() => cancelAnimationFrame((window as unknown as { __noteFrame: number }).__noteFrame));
    const opacities = await noted();
    assert.ok(opacities.some((o) => o > 0.05 && o < 0.95), `the note fades out rather than vanishing (opacities seen: ${[...new Set(opacities.map((o) => o.toFixed(2)))].join(' ')})`);

    const at300 = await oneLine(300);
    await ui.wb.screenshot('quiet-header-01-running-300');
    await setSidebarWidth(ui.wb.page, 420);
    const at420 = await oneLine(420);
    await ui.wb.screenshot('quiet-header-02-running-420');

    // Details on demand: the steps, the model and the usage drop over the chat; the header keeps its line.
    const height = (await box(ui.chat.locator('header'))).height;
    const progress = ui.chat.locator('[data-plan-progress]');
    await progress.locator('summary').click();
    const more = progress.locator('.progress-more');
    await more.locator('[data-step-state="running"]').waitFor({ state: 'visible' });
    await more.getByRole('combobox', { name: 'Model for the Actor' }).waitFor({ state: 'visible' });
    assert.equal((await box(ui.chat.locator('header'))).height, height, 'opening the details does not push the chat down');
    await ui.wb.screenshot('quiet-header-03-details-420');
    await progress.locator('summary').click();

    await setSidebarWidth(ui.wb.page, 300);
    await approve.click();
    const reason = ui.chat.locator('header [data-turn-outcome="reason"]');
    // The step's check asks too: approve whatever asks until the run's end says why it stopped.
    await waitUntil(async () => {
      const ask = ui.chat.getByRole('button', { name: 'Approve', exact: true });
      if ((await ask.count()) > 0) await ask.first().click().catch(() => undefined);
      return (await reason.count()) > 0;
    }, 'the reason line', 60_000);
    assert.match(await reason.innerText(), /check failed/);
    const after = await revertPlace();
    await ui.wb.screenshot('quiet-header-04-reason-300');
    assert.deepEqual(after, before, 'Revert task keeps its row and offset when the reason line appears');
    console.log(`      ${at300}; ${at420}`);
  });

  it('while a plain Actor turn runs the header is one line at 300 and 420 px, the model on it and its details (usage too) on demand, also when the view is shown again; idle, the details are back under the row', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    // The new task starts in the Planner: pick the Actor once the chat shows it (not the old task's role).
    await ui.roleButton().and(ui.chat.locator('[data-role="planner"]')).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.pickRole('actor');
    // The user just picked it: no "Switched to the Actor" note (it arrives with the role, so it would show by now).
    assert.equal(await ui.chat.locator('header').getByRole('status').count(), 0, 'no note for the user\'s own switch');
    await setSidebarWidth(ui.wb.page, 300);
    ui.server.replace([calls(tc('run_command', { command: 'echo quiet-turn' })), text('Ran it.')]);
    await ui.send('Say quiet-turn');
    const approve = ui.toolCard('quiet-turn').last().getByRole('button', { name: 'Approve' });
    await approve.waitFor({ state: 'visible', timeout: 20_000 });
    const at300 = await oneLine(300);
    const turn = ui.chat.locator('header details[aria-label="Turn details"]');
    assert.equal(await turn.locator('summary').innerText(), 'scripted-model', 'the model on the row');
    await ui.wb.screenshot('quiet-header-05-plain-turn-300');
    await setSidebarWidth(ui.wb.page, 420);
    const at420 = await oneLine(420);
    await ui.wb.screenshot('quiet-header-06-plain-turn-420');

    // Details on demand, over the chat: the model picker, the context and the usage.
    const height = (await box(ui.chat.locator('header'))).height;
    await turn.locator('summary').click();
    await turn.getByRole('combobox', { name: 'Model for the Actor' }).waitFor({ state: 'visible' });
    await turn.getByLabel('Usage').waitFor({ state: 'visible' });
    assert.equal((await box(ui.chat.locator('header'))).height, height, 'opening the details does not push the chat down');
    await ui.wb.screenshot('quiet-header-07-plain-turn-details-420');
    await turn.locator('summary').click();

    // The view hidden and shown again while the approval waits: the chat is loaded afresh and still says so.
    await ui.wb.page.keyboard.press('Control+Shift+E');
    await ui.wb.page.locator('.part.sidebar .composite.title', { hasText: /Explorer/i }).waitFor({ state: 'visible' });
    await ui.wb.openTandemView();
    await approve.waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.locator('header [data-agent-state="waiting_on_user"]').waitFor({ state: 'visible', timeout: 10_000 });
    await oneLine(420);
    // …and its details still have the turn's and the task's usage (the snapshot carries the totals).
    await turn.locator('summary').click();
    await turn.getByLabel('Usage').waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await turn.getByLabel('Usage').innerText(), /Turn:[\s\S]*Task:/);
    await ui.wb.screenshot('quiet-header-07b-plain-turn-shown-again-420');
    await turn.locator('summary').click();

    await approve.click();
    await ui.textCard('Ran it.').waitFor({ state: 'visible', timeout: 20_000 });
    await ui.idle();
    // Idle, the model and usage are under the row again, where a model is picked before the next message.
    await ui.chat.locator('header > .model-row').getByRole('combobox', { name: 'Model for the Actor' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await turn.count(), 0);
    await ui.wb.screenshot('quiet-header-08-plain-turn-idle-420');
    console.log(`      plain turn: ${at300}; ${at420}`);
  });
});
