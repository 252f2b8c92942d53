/**
 * How a run's end is named. Stop is the user's own neutral end, never a failure: the stopped call,
 * the plan step, the plan's line, the summary and the header all say "stopped" without the error red.
 * Screenshots: test-results/outcomes-*.png (at 420 and 300 px).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import type { ScriptStep } from '../support/scriptedServer';
import { waitUntil } from '../support/wait';
import { chatRows, timesSaid } from './chatRows';

// Runs in the page (the Node tsconfig has no DOM lib).
declare function getComputedStyle(el: unknown): { backgroundColor: string; lineHeight: string };

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

describe('Run outcomes named truly (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'outcomes',
    files: {
      'README.md': '# notes\n',
      // A test runner's failure: progress, the assertion, then a summary that only repeats the count.
      'check.sh': 'echo "TAP version 13"; echo "# Subtest: adds"; echo "not ok 1 - adds"; echo "AssertionError [ERR_ASSERTION]: 190 !== 180"; echo "1..1"; echo "# pass 0"; echo "# fail 1"; exit 1\n',
    },
  });

  // Each test's plan writes one.txt and two.txt afresh: a file an earlier test left makes write_file
  // refuse, and the step would then fail for a reason the test is not about.
  beforeEach(() => {
    for (const f of ['one.txt', 'two.txt']) fs.rmSync(path.join(ui.ws, f), { force: true });
  });

  async function runPlan(plan: Record<string, unknown>, ask: string, steps: ScriptStep[]): Promise<void> {
    await ui.pickRole('planner');
    ui.server.replace([calls(tc('propose_plan', plan)), ...steps]);
    await ui.send(ask);
    await ui.chat.locator('[data-card-kind="plan"]').last().getByRole('button', { name: 'Execute plan' }).click({ timeout: 20_000 });
  }

  /** Approves whatever the run asks, until its summary card shows (each test starts a new task). */
  async function approveUntilSummary(): Promise<void> {
    await waitUntil(async () => {
      const approve = ui.chat.getByRole('button', { name: 'Approve', exact: true });
      if ((await approve.count()) > 0) await approve.first().click().catch(() => undefined);
      return (await ui.chat.locator('[data-card-kind="summary"]').count()) > 0;
    }, 'the run to end with its summary', 60_000);
  }

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

  it('a failing step check: the check says failed, the end of the run says why with Replan / Retry step / Review / Open output, the summary lists the checks, the header names no error', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await setSidebarWidth(ui.wb.page, 420);
    await runPlan(PLAN('test -f missing.txt'), 'Add two notes, checked', [calls(tc('write_file', { path: 'one.txt', content: '1\n' })), text('Step 1 done.')]);
    await approveUntilSummary();
    // The check is said on its step's lane (the command and that it failed), not as a card of its own.
    const check = ui.chat.locator('[data-lane-step="1"] [data-lane-check]');
    await ui.reveal(check);
    assert.equal(await check.getAttribute('data-lane-check'), 'failed');
    assert.match(await check.innerText(), /check test -f missing\.txt failed/);
    assert.equal(await ui.toolCard('missing.txt').count(), 0, 'no card of its own repeating the command');
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    const reason = summary.getByRole('status', { name: 'Why the run stopped' });
    await reason.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await reason.innerText(), /Step 1's check failed: `test -f missing\.txt` exited 1/);
    for (const name of ['Replan', 'Retry step 1', 'Review', 'Open output']) await reason.getByRole('button', { name }).waitFor({ state: 'visible' });
    assert.equal(await summary.locator('.card-title').innerText(), '∑ Run stopped: a check failed', 'a failed check is not "ended with an error"');
    assert.equal(await ui.chat.locator('[data-turn-outcome="error"]').count(), 0, 'no "Last turn ended with an error"');
    assert.match(await ui.chat.locator('[data-turn-outcome="reason"]').innerText(), /Step 1's check failed/);
    await reason.getByRole('button', { name: 'Open output' }).click();
    await reason.locator('pre').waitFor({ state: 'visible' });
    await summary.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('outcomes-03-check-failed-420');
    await setSidebarWidth(ui.wb.page, 300);
    await summary.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('outcomes-04-check-failed-300');
  });

  it('a small Actor turn (one command) ends with a one-line summary, not the whole card', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    // The new task starts in the Planner: pick the Actor once the chat shows it (not the old task's role).
    await ui.roleButton().and(ui.chat.locator('[data-role="planner"]')).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.pickRole('actor');
    ui.server.replace([calls(tc('write_file', { path: 'small.txt', content: 's\n' })), text('Wrote small.txt.')]);
    await ui.send('Write small.txt');
    await approveUntilSummary();
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    await summary.locator('[data-summary-compact]').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await summary.getByRole('button', { name: 'New task' }).count(), 0, 'one line, no card of buttons');
    await ui.wb.screenshot('outcomes-05-compact-summary-300');
  });

  it('a check that fails with an assertion: the reason quotes that line once, the failed step is red wherever it shows', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await setSidebarWidth(ui.wb.page, 420);
    await runPlan(PLAN('sh check.sh'), 'Add two notes, tested', [calls(tc('write_file', { path: 'one.txt', content: '1\n' })), text('Step 1 done.')]);
    await approveUntilSummary();
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    const reason = summary.getByRole('status', { name: 'Why the run stopped' });
    await reason.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await reason.innerText(), /Step 1's check failed: `sh check\.sh` exited 1: AssertionError \[ERR_ASSERTION\]: 190 !== 180/);
    assert.match(await ui.chat.locator('[data-turn-outcome="reason"]').innerText(), /190 !== 180/, 'the header\'s failure line says why too');
    const plan = ui.chat.locator('[data-card-kind="plan"]').last();
    await ui.reveal(plan);
    const step = plan.locator('[data-step-state="failed"]').first();
    const stepText = await step.innerText();
    // The step names its check once, with its result; the exit code and the failure line are the summary's to say.
    assert.equal(stepText.split('sh check.sh').length - 1, 1, `the plan card names the check once for the step: ${stepText}`);
    assert.match(stepText, /check: sh check\.sh failed/);
    // The lane's chip is the plan's red, not the default badge.
    const laneChip = ui.chat.locator('[data-lane-step="1"] .chip');
    if (await laneChip.count()) {
      const [laneBg, errBg] = await Promise.all([
        laneChip.first().evaluate((el) => getComputedStyle(el).backgroundColor),
        plan.locator('[data-plan-status="executed"]').evaluate((el) => getComputedStyle(el).backgroundColor),
      ]);
      assert.equal(laneBg, errBg, 'the failed step\'s chip has the plan\'s failure colour');
    }
    await ui.wb.screenshot('outcomes-06-assertion-plan-420');
    await ui.reveal(summary);
    await ui.wb.screenshot('outcomes-06-assertion-420');
    await setSidebarWidth(ui.wb.page, 300);
    await ui.reveal(summary);
    await ui.wb.screenshot('outcomes-07-assertion-300');
    // Idle after the failed check, the header is its row plus one failure line (the summary card has the whole reason).
    const line = ui.chat.locator('[data-turn-outcome="reason"]');
    const lines = await line.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || '0')));
    assert.equal(lines, 1, `the header's failure line takes ${lines} lines at 300 px`);
    assert.match((await line.getAttribute('title')) ?? '', /190 !== 180/, 'the whole reason on hover');

    // At 300 px the chat says why once (the header's one line aside, outside the chat): the run's
    // summary quotes the failure; the plan's step and the step's lane say that the check failed, the
    // check is no card of its own, and its output is one click away on the lane.
    const rows = await chatRows(ui.chat);
    const listed = rows.map((r) => `  · ${r.what}`).join('\n');
    assert.equal(timesSaid(rows, '190 !== 180'), 1, `the failure line is said once in the chat:\n${listed}`);
    assert.equal(timesSaid(rows, /\bexit(ed)? 1\b/), 1, `the exit code is said once in the chat:\n${listed}`);
    assert.equal(timesSaid(rows, /\bsh check\.sh\b[^.]*\b(failed|exited)\b/), 3, `the check's failure is named by the plan's step, its lane and the summary, nowhere else:\n${listed}`);
    assert.equal(rows.filter((r) => r.what.startsWith('tool_call') && r.text.includes('sh check.sh')).length, 0, `the check is not a card of its own:\n${listed}`);
    const laneCheck = ui.chat.locator('[data-lane-step="1"] [data-lane-check="failed"]');
    await ui.reveal(laneCheck);
    await laneCheck.getByRole('button', { name: 'Output' }).click();
    assert.match(await laneCheck.locator('pre').innerText(), /not ok 1 - adds[\s\S]*190 !== 180/, 'the output is a click away');
    await ui.wb.screenshot('outcomes-07b-lane-output-300');
  });

  it('a one-command Actor turn whose test failed does not say "Run finished"', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await ui.roleButton().and(ui.chat.locator('[data-role="planner"]')).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.pickRole('actor');
    await setSidebarWidth(ui.wb.page, 300);
    ui.server.replace([calls(tc('run_command', { command: 'sh check.sh' })), text('The test fails: 190 is not 180.')]);
    await ui.send('Run the test');
    await approveUntilSummary();
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    const line = summary.locator('[data-summary-compact]');
    await line.waitFor({ state: 'visible', timeout: 20_000 });
    const shown = await line.innerText();
    assert.doesNotMatch(shown, /Run finished/);
    assert.match(shown, /Run ended · sh check\.sh failed \(exit 1\)/);
    await ui.wb.screenshot('outcomes-08-one-command-failed-300');
    await setSidebarWidth(ui.wb.page, 420);
    await ui.wb.screenshot('outcomes-09-one-command-failed-420');
  });
});
