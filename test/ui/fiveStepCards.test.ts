/**
 * How long a five-step plan task reads in the real workbench: the Planner looks at two files and
 * proposes five steps; Execute; each step reads its file, edits it, runs a command and its check,
 * every action approved by the user as the defaults ask; the run ends with its summary. The cards
 * are counted as a user sees them — the chat's rows top to bottom, a folded group of calls or a
 * step's lane header counted once, the folded routine lines not at all — printed with what they
 * are, and held to at most 40 (the figure a user tried found bearable: the same task once took 65).
 * What must never fold away is asserted on its own row: the plan, each step's edit, each check with its
 * result, the summary (the approvals are clicked on their cards as they come).
 * Screenshots: test-results/five-step-*.png (at 420 and 300 px).
 */
import assert from 'node:assert/strict';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import type { ScriptStep } from '../support/scriptedServer';
import { sleep, waitUntil } from '../support/wait';

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

interface Row { id: string; what: string }

describe('The five-step task stays short (UI)', function () {
  this.timeout(480_000);
  const ui = chatSuite({ name: 'five-step', files: Object.fromEntries(NOTES.map((n, i) => [file(i), `${n}: draft\n`])) });

  /**
   * Every row the chat shows, top to bottom, by scrolling the (virtualised) list through: a row is a
   * card, a group line or a lane header; a folded card (its row draws nothing) is not counted.
   */
  async function visibleRows(): Promise<Row[]> {
    const list = ui.chat.locator('.list[role="log"]');
    const seen = new Map<string, Row>();
    await list.evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 0; });
    for (let i = 0; i < 200; i++) {
      await sleep(200);
      const rows = await ui.chat.locator('.row').evaluateAll((els) => els.map((r) => {
        const first = r.firstElementChild as HTMLElement | null;
        const drawn = !!first && !first.classList.contains('card-folded') && (r as HTMLElement).offsetHeight > 0;
        const kind = first?.getAttribute('data-lane-step') ? `lane ${first.getAttribute('data-lane-step')}`
          : first?.classList.contains('tool-group') ? `group: ${first.innerText.split('\n')[0]}`
          : `${first?.getAttribute('data-card-kind') ?? '?'}${first?.classList.contains('author-user') ? ' (user)' : ''}: ${(first?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 80)}`;
        return { id: r.getAttribute('data-row-id') ?? '', drawn, what: kind, top: new DOMMatrix(getComputedStyle(r).transform).m42 };
      }));
      for (const r of rows.sort((a, b) => a.top - b.top)) if (r.drawn && !seen.has(r.id)) seen.set(r.id, { id: r.id, what: r.what });
      const done = await list.evaluate((el) => {
        const e = el as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
        if (e.scrollTop + e.clientHeight >= e.scrollHeight - 2) return true;
        e.scrollTop += e.clientHeight / 2;
        return false;
      });
      if (done) break;
    }
    return [...seen.values()];
  }

  it('plan → approve → five steps with edits, commands and checks → summary: at most 40 cards, with the plan, every edit, every check and the summary on screen', async () => {
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
      if ((await approve.count()) > 0 && await approve.first().click({ timeout: 2_000 }).then(() => true, () => false)) {
        approvals++;
        await sleep(300);
      }
      return (await ui.chat.locator('[data-card-kind="summary"]').count()) > 0;
    }, 'the run to end with its summary', 300_000);
    await ui.idle();
    for (let i = 0; i < NOTES.length; i++) assert.equal(ui.read(file(i)), `${NOTES[i]}: reviewed\n`);

    const rows = await visibleRows();
    const figure = `five-step task: ${rows.length} cards as the user sees them (${approvals} approvals clicked)`;
    console.log(`      ${figure}`);
    for (const r of rows) console.log(`        · ${r.what}`);
    // Nothing that matters is folded away: the plan, the summary, each step's edit and its check are rows of their own.
    assert.equal(rows.filter((r) => r.what.startsWith('plan')).length, 1, 'the plan card');
    assert.equal(rows.filter((r) => r.what.startsWith('summary')).length, 1, 'the summary card');
    assert.equal(rows.filter((r) => /^tool_call: ⚙ Edited notes\//.test(r.what)).length, 5, 'each step\'s edit');
    assert.equal(rows.filter((r) => /^tool_call: .*grep -q reviewed .*check passed/.test(r.what)).length, 5, 'each step\'s check, with its result');
    assert.equal(rows.filter((r) => /^tool_call: ⚙ Ran wc -l .*success/.test(r.what)).length, 5, 'each step\'s command, with its result');
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    // The summary lists each check once, with its result, under the steps; the commands run are the steps' own five.
    assert.deepEqual(await summary.locator('[data-check-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check'))), ['passed', 'passed', 'passed', 'passed', 'passed']);
    assert.deepEqual(await summary.locator('ul[aria-label="Commands run"] code').allInnerTexts(), NOTES.map((n, i) => `wc -l ${file(i)}`));
    await summary.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('five-step-01-summary-420');
    await setSidebarWidth(ui.wb.page, 300);
    await ui.wb.screenshot('five-step-02-summary-300');
    assert.ok(rows.length <= 40, figure);
  });
});
