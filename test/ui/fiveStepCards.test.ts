/**
 * How long a five-step plan task reads in the real workbench: the Planner looks at two files and
 * proposes five steps; Execute; each step reads its file, edits it, runs a command and its check,
 * every action approved by the user as the defaults ask; the run ends with its summary. The cards
 * are counted as a user sees them — the chat's rows top to bottom, a folded group of calls or a
 * step's lane header counted once, the folded routine lines not at all — printed with what they
 * are, and held to at most 30 (40 was the figure a user tried found bearable; the same task once took
 * 65, then 35 while each check was a card of its own repeating its command). What must never fold
 * away is asserted on its own row: the plan, each step's edit and command, each check with its result
 * — on its step's lane, once — and the summary (the approvals are clicked on their cards as they come).
 * Screenshots: test-results/five-step-*.png (at 420 and 300 px).
 */
import assert from 'node:assert/strict';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import type { ScriptStep } from '../support/scriptedServer';
import { waitUntil } from '../support/wait';
import { chatRows } from './chatRows';

const NOTES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const file = (i: number): string => `notes/${NOTES[i]}.txt`;

const PLAN = {
  format_version: '1.0',
  goal: 'Mark each of the five notes as reviewed',
  steps: NOTES.map((n, i) => ({
    step_number: i + 1,
    action: `Mark ${file(i)} as reviewed`,
    reason: 'the user asked for every note',
    tools_needed: ['read_file', 'edit_file', 'run_command'],
    estimated_time: '1 min',
    files: [file(i)],
    commands: [`wc -l ${file(i)}`],
    check: `grep -q reviewed ${file(i)}`,
  })),
  estimated_total_time: '5 min',
  risks: ['none'],
  prerequisites: [],
};

/** What the scripted model does: the Planner's two reads and plan, then per step a read, an edit, a command and a word. */
function script(): ScriptStep[] {
  const steps: ScriptStep[] = [
    calls(tc('list_files', { path: 'notes' })),
    calls(tc('read_file', { path: file(0) })),
    calls(tc('propose_plan', PLAN)),
  ];
  NOTES.forEach((n, i) => steps.push(
    calls(tc('read_file', { path: file(i) })),
    calls(tc('edit_file', { path: file(i), edits: [{ old_text: `${n}: draft`, new_text: `${n}: reviewed` }] })),
    calls(tc('run_command', { command: `wc -l ${file(i)}` })),
    text(`Step ${i + 1} done: ${file(i)} is marked reviewed.`),
  ));
  return steps;
}

describe('The five-step task stays short (UI)', function () {
  this.timeout(480_000);
  const ui = chatSuite({ name: 'five-step', files: Object.fromEntries(NOTES.map((n, i) => [file(i), `${n}: draft\n`])) });

  it('plan → approve → five steps with edits, commands and checks → summary: at most 30 cards, with the plan, every edit, each check once on its step\'s lane, and the summary on screen', async () => {
    await setSidebarWidth(ui.wb.page, 420);
    ui.server.replace(script());
    await ui.send('Mark every note in notes/ as reviewed');
    const plan = ui.chat.locator('[data-card-kind="plan"]').last();
    await plan.getByRole('button', { name: 'Execute plan' }).click({ timeout: 30_000 });

    // Each approval is a card the user sees and clicks (15 of them: an edit, a command and a check per
    // step; the clicks are counted for the figure only, a click whose card moved under it may count 0).
    let approvals = 0;
    await waitUntil(async () => {
      const approve = ui.chat.getByRole('button', { name: 'Approve', exact: true });
      const asking = (await approve.count()) > 0 ? await approve.first().evaluate((el) => el.closest('[data-card-id]')?.getAttribute('data-card-id')).catch(() => undefined) : undefined;
      const button = ui.chat.locator(`[data-card-id="${asking}"]`).getByRole('button', { name: 'Approve', exact: true });
      if (asking && await button.click({ timeout: 2_000 }).then(() => true, () => false)) {
        approvals++;
        // The card stops asking (the host took the decision) before the next one is looked for.
        await waitUntil(async () => (await button.count()) === 0, 'the approved card to stop asking', 30_000);
      }
      return (await ui.chat.locator('[data-card-kind="summary"]').count()) > 0;
    }, 'the run to end with its summary', 300_000);
    await ui.idle();
    for (let i = 0; i < NOTES.length; i++) assert.equal(ui.read(file(i)), `${NOTES[i]}: reviewed\n`);

    const rows = await chatRows(ui.chat);
    const figure = `five-step task: ${rows.length} cards as the user sees them (${approvals} approvals clicked)`;
    console.log(`      ${figure}`);
    for (const r of rows) console.log(`        · ${r.what}`);
    // Nothing that matters is folded away: the plan, the summary and each step's edit are rows of their own.
    assert.equal(rows.filter((r) => r.what.startsWith('plan')).length, 1, 'the plan card');
    assert.equal(rows.filter((r) => r.what.startsWith('summary')).length, 1, 'the summary card');
    assert.equal(rows.filter((r) => /^tool_call: (⚙ )?Edited notes\/ ?\w+\.txt/.test(r.what)).length, 5, 'each step\'s edit');
    // Each check is said once, with its result, on its own step's lane; no card of its own repeats the command.
    for (let i = 0; i < NOTES.length; i++) {
      const lane = rows.filter((r) => r.what.startsWith(`lane ${i + 1}:`));
      assert.equal(lane.length, 1, `step ${i + 1}'s lane`);
      assert.equal(lane[0]!.text.split(`grep -q reviewed ${file(i)}`).length - 1, 1, `step ${i + 1}'s lane names its check once: ${lane[0]!.text}`);
      assert.match(lane[0]!.text, new RegExp(`check grep -q reviewed ${file(i).replace('.', '\\.')} passed`), `step ${i + 1}'s lane: its check passed`);
    }
    assert.equal(rows.filter((r) => r.what.startsWith('tool_call') && r.text.includes('grep -q reviewed')).length, 0, 'no check is a card of its own');
    // The plan card says each check's outcome once: not "check: X" and "check X exited 0" both.
    const planText = rows.find((r) => r.what.startsWith('plan'))!.text;
    for (let i = 0; i < NOTES.length; i++) assert.equal(planText.split(`grep -q reviewed ${file(i)}`).length - 1, 1, `the plan names step ${i + 1}'s check once: ${planText}`);
    assert.doesNotMatch(planText, /exited 0/);
    assert.equal(rows.filter((r) => /^tool_call: (⚙ )?Ran wc -l .*success/.test(r.what)).length, 5, 'each step\'s command, with its result');
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    // The summary lists each check once, with its result, under the steps; the commands run are the steps' own five.
    assert.deepEqual(await summary.locator('[data-check-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check'))), ['passed', 'passed', 'passed', 'passed', 'passed']);
    assert.deepEqual(await summary.locator('ul[aria-label="Commands run"] code').allInnerTexts(), NOTES.map((n, i) => `wc -l ${file(i)}`));
    await summary.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('five-step-01-summary-420');
    await setSidebarWidth(ui.wb.page, 300);
    await ui.wb.screenshot('five-step-02-summary-300');
    // Step 1's lane at 300 px: the check on it; grep -q prints nothing, and the lane says so instead of offering a click that opens nothing.
    const lane1 = ui.chat.locator('[data-lane-step="1"]');
    await ui.reveal(lane1);
    assert.match(await lane1.locator('[data-lane-check="passed"]').innerText(), /passed · no output$/);
    assert.equal(await lane1.getByRole('button', { name: 'Output' }).count(), 0);
    await ui.wb.screenshot('five-step-03-lane-300');
    const plan300 = ui.chat.locator('[data-card-kind="plan"]');
    await ui.reveal(plan300);
    await plan300.locator('[data-step-check]').first().scrollIntoViewIfNeeded();
    await ui.wb.screenshot('five-step-04-plan-300');
    assert.ok(rows.length <= 30, figure);
  });
});
