/**
 * Task-level controls in the real workbench (code-server + Chromium) against the scripted LLM
 * server: Revert task from the chat header puts every approved edit back on disk; Revise makes plan
 * v2 (v1 collapsed as superseded) and Execute runs v2, after which the card says it was executed and
 * offers no one-click re-run; tool names stay whole in a ~300 px side bar; Escape stops a run from
 * anywhere in the chat but only closes the Revise box; Retry after an error card runs the turn again
 * without a second user message; History lists a past task by its title, opens it read-only,
 * resumes it (the model gets the earlier turns) and exports it as Markdown.
 * Screenshots: test-results/tasks-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';
import { userMessages } from '../support/modelRequests';

// Runs in the page (the Node tsconfig has no DOM lib).
declare function getComputedStyle(el: unknown): { lineHeight: string };

const plan = (goal: string, file: string) => ({
  format_version: '1.0',
  goal,
  steps: [{ step_number: 1, action: `Rewrite ${file}`, reason: 'asked for', tools_needed: ['edit_file'], estimated_time: '1 min', files: [file] }],
  estimated_total_time: '1 min',
  risks: [],
  prerequisites: [],
});

describe('Tandem task controls in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'tasks',
    files: {
      'alpha.txt': 'alpha original\n',
      'beta.txt': 'beta original\n',
      'greeting.txt': 'Hello, world\n',
      'src/components/settings/advanced/connectionPreferencesPanel.tsx': 'export const x = 1;\n',
    },
  });
  const { input, textCard, read, send, idle } = ui;

  const toolCard = (tool: string, hasText?: string): Locator => ui.chat.locator('[data-card-kind="tool_call"]', { hasText: hasText ?? tool });
  const editorLines = (): Locator => ui.wb.page.locator('.editor-group-container .monaco-editor .view-lines');
  const quickRow = (t: string): Locator => ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: t }).first();

  /** Runs a palette command once the previous quick input has fully closed (a closing one is inert). */
  async function palette(title: string): Promise<void> {
    await ui.wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    await sleep(300);
    await ui.wb.runCommand(title);
  }

  it('Revert task in the chat header: two approved edits → both files back to their originals on disk', async () => {
    await ui.pickRole('actor');
    assert.equal(await ui.chat.getByRole('button', { name: 'Revert task' }).count(), 0, 'nothing to revert yet');
    ui.server.replace([
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha original', new_text: 'alpha CHANGED' }] })),
      calls(tc('edit_file', { path: 'beta.txt', edits: [{ old_text: 'beta original', new_text: 'beta CHANGED' }] })),
      text('Both files are edited.'),
    ]);
    await send('Edit alpha and beta');
    for (const f of ['alpha.txt', 'beta.txt']) {
      const card = toolCard('edit_file', f);
      await card.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
      await card.locator('.chip.status-done').waitFor({ state: 'visible', timeout: 20_000 });
    }
    await textCard('Both files are edited.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('alpha.txt') === 'alpha CHANGED\n' && read('beta.txt') === 'beta CHANGED\n', 'both edits on disk');

    const revert = ui.chat.getByRole('button', { name: 'Revert task' });
    await revert.waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('tasks-01-revert-task-offered');
    await revert.click();
    const confirm = ui.chat.getByRole('group', { name: 'Revert the whole task' });
    await confirm.waitFor({ state: 'visible' });
    assert.match(await confirm.innerText(), /all 2 changes/);
    await ui.wb.screenshot('tasks-02-revert-task-confirm');
    await confirm.getByRole('button', { name: 'Revert all' }).click();
    await waitUntil(() => read('alpha.txt') === 'alpha original\n' && read('beta.txt') === 'beta original\n', 'both files back to their originals', 20_000);
    // The result is said in the chat, the cards say reverted, and there is nothing left to revert.
    await ui.chat.locator('[data-card-kind="text"].author-system').last().waitFor({ state: 'visible', timeout: 10_000 });
    await toolCard('edit_file', 'alpha.txt').locator('.chip', { hasText: 'reverted' }).waitFor({ state: 'visible', timeout: 10_000 });
    await revert.waitFor({ state: 'detached', timeout: 10_000 });
    await ui.wb.screenshot('tasks-03-revert-task-done');
  });

  it('Revert task is refused, and says so in the chat, when a file was changed since the agent edited it; the file keeps the user\'s text', async () => {
    ui.server.replace([
      // The revert changed the file since the agent last read it: it reads it again first.
      calls(tc('read_file', { path: 'alpha.txt' })),
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha original', new_text: 'alpha AGAIN' }] })),
      text('Edited alpha again.'),
    ]);
    await send('Edit alpha once more');
    const card = toolCard('edit_file', 'alpha.txt').last();
    await card.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('Edited alpha again.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('alpha.txt') === 'alpha AGAIN\n', 'the edit on disk');
    // The user changes the file afterwards.
    fs.writeFileSync(path.join(ui.ws, 'alpha.txt'), 'alpha edited by the user\n');
    const errorsBefore = await ui.chat.locator('[data-card-kind="error"]').count();
    await ui.chat.getByRole('button', { name: 'Revert task' }).click({ timeout: 10_000 });
    await ui.chat.getByRole('group', { name: 'Revert the whole task' }).getByRole('button', { name: 'Revert all' }).click();
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind="error"]').count()) > errorsBefore, 'the refusal card', 15_000);
    const refusal = ui.chat.locator('[data-card-kind="error"]').last();
    assert.match(await refusal.innerText(), /alpha\.txt|changed|edited/i);
    await sleep(500);
    assert.equal(read('alpha.txt'), 'alpha edited by the user\n', 'the user\'s text is kept');
    await ui.wb.screenshot('tasks-03b-revert-task-refused');
  });

  it('Revise: plan v1 → feedback → plan v2 shown, v1 collapsed as superseded; Execute runs v2, then the card says it ran but was not verified (no check) and offers no one-click re-run', async () => {
    await ui.pickRole('planner');
    ui.server.replace([
      calls(tc('propose_plan', plan('Greet the moon (v1)', 'greeting.txt'))),
      calls(tc('propose_plan', plan('Greet Tandem (v2)', 'greeting.txt'))),
      calls(tc('edit_file', { path: 'greeting.txt', edits: [{ old_text: 'Hello, world', new_text: 'Hello, Tandem' }] })),
      text('Plan step done.'),
    ]);
    await send('Plan a new greeting');
    const v1 = ui.chat.locator('[data-card-kind="plan"][aria-label="Plan, version 1"]');
    await v1.waitFor({ state: 'visible', timeout: 20_000 });
    await v1.getByRole('button', { name: 'Revise' }).click();
    await v1.getByRole('textbox', { name: 'What should change in the plan' }).fill('Greet Tandem, not the moon');
    await ui.wb.screenshot('tasks-04-revise-box');
    const before = ui.server.chatRequests().length;
    await v1.getByRole('button', { name: 'Send revision' }).click();

    const v2 = ui.chat.locator('[data-card-kind="plan"][aria-label="Plan, version 2"]');
    await v2.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await v2.innerText(), /Greet Tandem \(v2\)/);
    assert.match(JSON.stringify(ui.server.chatRequests()[before]?.messages), /Greet Tandem, not the moon/, 'the feedback reached the Planner');
    // v1 is collapsed (a closed <details>) and marked superseded; it offers no Execute.
    const v1Details = v1.locator('details.superseded');
    assert.equal(await v1Details.getAttribute('open'), null, 'v1 collapsed');
    await v1.locator('.chip', { hasText: 'superseded' }).waitFor({ state: 'visible' });
    assert.equal(await v1.getByRole('button', { name: 'Execute plan' }).isVisible(), false);
    await idle();
    await ui.wb.screenshot('tasks-05-plan-v2-v1-superseded');

    await v2.getByRole('button', { name: 'Execute plan' }).click();
    const edit = toolCard('edit_file', 'greeting.txt');
    await edit.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    // While it executes, Execute stays disabled.
    assert.equal(await v2.getByRole('button', { name: 'Execute plan' }).isDisabled(), true, 'disabled while executing');
    await v2.locator('[data-plan-status="executing"]').waitFor({ state: 'visible' });
    await textCard('Executing plan v2').waitFor({ state: 'visible' });
    await ui.wb.screenshot('tasks-06-plan-executing');
    await edit.getByRole('button', { name: 'Approve' }).click();
    await textCard('Plan step done.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('greeting.txt') === 'Hello, Tandem\n', 'v2 applied on disk');
    assert.ok(!/Executing plan v1/.test(await ui.chat.locator('body').innerText()), 'v1 never executed');

    // The step declared no check: the run ended, but nothing shows it worked, so it is never "Executed ✓".
    await v2.locator('[data-plan-status="executed"]', { hasText: 'Executed, not verified (0 of 1 steps done' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.ok(!/Executed ✓/.test(await v2.innerText()), 'no ✓ without evidence');
    assert.equal(await v2.getByRole('button', { name: 'Execute plan' }).count(), 0, 'no one-click Execute on an executed plan');
    assert.equal(await v2.locator('[data-step-state="unverified"]').count(), 1, 'the step shows unverified');
    const requests = ui.server.chatRequests().length;
    await v2.getByRole('button', { name: 'Run again…' }).click();
    await v2.getByRole('group', { name: 'Run the plan again' }).waitFor({ state: 'visible' });
    await ui.wb.screenshot('tasks-07-plan-executed-run-again-confirm');
    await v2.getByRole('button', { name: 'Cancel' }).click();
    await sleep(500);
    assert.equal(ui.server.chatRequests().length, requests, 'Run again… without confirming runs nothing');
  });

  it('in a ~300 px side bar tool names stay whole on one line; the summary takes the ellipsis', async () => {
    await ui.pickRole('planner');
    const deepPath = 'src/components/settings/advanced/connectionPreferencesPanel.tsx';
    ui.server.replace([calls(tc('read_file', { path: deepPath }), tc('find_files', { pattern: '**/settings/advanced/*.tsx' })), text('Read it.')]);
    await send('Read the connection preferences panel');
    await textCard('Read it.').waitFor({ state: 'visible', timeout: 20_000 });
    // The read and the search are one line ("Read 1 file, searched 1 time"); opened, their cards show.
    await ui.chat.getByRole('button', { name: /Read 1 file, searched 1 time/ }).last().click();
    // The side bar opens ~300 px wide; if not, drag its edge there.
    const sidebar = ui.wb.page.locator('.part.sidebar');
    const box = (await sidebar.boundingBox())!;
    if (Math.abs(box.width - 300) >= 30) {
      const edgeX = box.x + box.width;
      await ui.wb.page.mouse.move(edgeX - 1, box.y + box.height / 2);
      await ui.wb.page.mouse.down();
      await ui.wb.page.mouse.move(box.x + 300, box.y + box.height / 2, { steps: 8 });
      await ui.wb.page.mouse.up();
    }
    await waitUntil(async () => Math.abs(((await sidebar.boundingBox())?.width ?? 0) - 300) < 30, 'the side bar to be ~300 px wide');
    await sleep(500);
    await ui.wb.screenshot('tasks-08-narrow-sidebar-tool-cards');
    // Folded placeholders (tool cards whose own card shows the result) carry the kind but no name: measure drawn cards only.
    const measured = await ui.chat.locator('.card[data-card-kind="tool_call"]').evaluateAll((els) => els.map((card) => {
      const name = card.querySelector('.tool-name') as unknown as { textContent: string; scrollWidth: number; clientWidth: number; getBoundingClientRect(): { height: number; right: number } };
      const summary = card.querySelector('.tool-summary') as unknown as { scrollWidth: number; clientWidth: number } | null;
      const lineHeight = parseFloat(getComputedStyle(name as never).lineHeight) || 20;
      return {
        tool: name.textContent, height: name.getBoundingClientRect().height, lineHeight,
        nameCut: name.scrollWidth > name.clientWidth + 1,
        nameRight: name.getBoundingClientRect().right, cardRight: (card as unknown as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right,
        // The title's parts each take their own ellipsis (a path's folder, a pattern): the cut is inside the summary.
        summaryEllipsis: summary ? [summary, ...Array.from((summary as unknown as { querySelectorAll(q: string): ArrayLike<{ scrollWidth: number; clientWidth: number }> }).querySelectorAll('*'))].some((e) => e.scrollWidth > e.clientWidth) : false,
        cardWidth: (card as unknown as { clientWidth: number }).clientWidth,
      };
    }));
    const ours = measured.filter((m) => m.tool === 'read_file' || m.tool === 'find_files');
    assert.ok(ours.length >= 2, `the two tool cards are on screen (${JSON.stringify(measured)})`);
    assert.ok(ours[0]!.cardWidth < 320, `the card is narrow (${ours[0]!.cardWidth}px)`);
    for (const m of ours) {
      assert.ok(m.height < m.lineHeight * 1.5, `${m.tool} on one line (${m.height}px vs line ${m.lineHeight}px)`);
      assert.ok(!m.nameCut && m.nameRight <= m.cardRight, `${m.tool} not cut`);
    }
    assert.ok(ours.some((m) => m.summaryEllipsis), 'the long summary is the part cut short');
  });

  it('Escape stops a run from anywhere in the chat; in the Revise box it only closes the box', async () => {
    ui.server.replace([calls(tc('propose_plan', plan('A plan to revise later', 'greeting.txt')))]);
    await send('Plan something small');
    const planCard = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'A plan to revise later' });
    await planCard.waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    const full = Array.from({ length: 300 }, (_, i) => `tok${i}`).join(' ');
    ui.server.replace([{ type: 'text', text: full, chunkSize: 5, chunkDelayMs: 120 }]);
    await send('Tell me a slow story');
    const streaming = textCard('tok1 ').last();
    await streaming.waitFor({ state: 'visible', timeout: 20_000 });

    // Escape while typing a revision closes that box and leaves the run alone.
    await planCard.getByRole('button', { name: 'Revise' }).click();
    const box = planCard.getByRole('textbox', { name: 'What should change in the plan' });
    await box.fill('half a thought');
    await box.press('Escape');
    await box.waitFor({ state: 'detached', timeout: 5_000 });
    const t1 = (await streaming.innerText()).length;
    await sleep(1200);
    assert.ok((await streaming.innerText()).length > t1, 'still streaming after Escape in the Revise box');
    await ui.wb.screenshot('tasks-09-escape-in-revise-box');

    // Focus on a card (not the composer): Escape stops the run.
    await streaming.click();
    await ui.wb.page.keyboard.press('Escape');
    await idle();
    const shown = await streaming.innerText();
    await sleep(1000);
    assert.equal(await streaming.innerText(), shown, 'nothing streams in after Escape');
    assert.ok(!shown.includes('tok299'), 'the stream was cut short');
    await ui.chat.locator('[data-turn-outcome="stopped"]').waitFor({ state: 'visible', timeout: 5_000 });
    await ui.wb.screenshot('tasks-10-escape-stopped');
  });

  it('Retry on an error card runs the turn again: one user card, one user message to the model, and the turn succeeds', async () => {
    ui.server.replace([{ type: 'fault', fault: 'server_error', status: 500, message: 'scripted outage' }, text('Recovered after the retry.')]);
    const ask = 'Answer me despite an outage';
    await send(ask);
    const error = ui.chat.locator('[data-card-kind="error"]').last();
    await error.getByRole('button', { name: 'Retry' }).waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    await ui.wb.screenshot('tasks-11-error-card');
    await error.getByRole('button', { name: 'Retry' }).click();
    await textCard('Recovered after the retry.').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await ui.chat.locator('[data-card-kind="text"].author-user', { hasText: ask }).count(), 1, 'one user card');
    assert.equal(await error.getByRole('button', { name: 'Retry' }).count(), 0, 'the error card no longer offers Retry once the turn succeeded');
    const last = ui.server.chatRequests().at(-1);
    assert.equal(userMessages(last).filter((m) => m.includes(ask)).length, 1, 'the model got the message once');
    await ui.wb.screenshot('tasks-12-retried');
  });

  it('History: a past task listed by its title, opened read-only, resumed (the model gets the earlier turns) and exported as Markdown', async () => {
    await palette('Tandem: New Task');
    await input().waitFor({ state: 'visible' });
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind="text"]').count()) === 0, 'an empty chat');
    const title = 'History probe: remember the word ZEBRA';
    ui.server.replace([text('Noted: the word is ZEBRA.')]);
    await send(title);
    await textCard('Noted: the word is ZEBRA.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    await palette('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind="text"]').count()) === 0, 'the new task to start empty');

    // Listed by title; Open (read-only) shows it as a Markdown document.
    await palette('Tandem: Open History');
    await quickRow(title).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.wb.screenshot('tasks-13-history-list');
    await quickRow(title).click();
    await quickRow('Open (read-only)').click();
    await editorLines().filter({ hasText: 'Noted: the word is ZEBRA.' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await editorLines().filter({ hasText: `# ${title}` }).first().waitFor({ state: 'visible' });
    // Read-only: a tab named after the task (not an Untitled buffer), and typing changes nothing.
    const tab = ui.wb.page.locator('.tab.active');
    assert.match(await tab.innerText(), /History probe/);
    assert.doesNotMatch(await tab.innerText(), /Untitled/);
    await editorLines().filter({ hasText: 'Noted: the word is ZEBRA.' }).first().click();
    await ui.wb.page.keyboard.type('TYPED');
    await sleep(500);
    assert.equal(await editorLines().filter({ hasText: 'TYPED' }).count(), 0, 'the history document cannot be edited');
    assert.equal(await ui.wb.page.locator('.tab.active.dirty').count(), 0, 'nothing to save');
    await ui.wb.screenshot('tasks-14-history-read-only');

    // Resume → the chat shows it again → the next request carries the earlier turns.
    await palette('Tandem: Open History');
    await quickRow(title).click();
    await quickRow('Resume').click();
    await textCard('Noted: the word is ZEBRA.').waitFor({ state: 'visible', timeout: 15_000 });
    ui.server.replace([text('The word was ZEBRA.')]);
    await send('Which word did I ask you to remember?');
    await textCard('The word was ZEBRA.').waitFor({ state: 'visible', timeout: 20_000 });
    const body = JSON.stringify(ui.server.chatRequests().at(-1)?.messages);
    assert.ok(body.includes(title), 'the earlier user turn was sent');
    assert.ok(body.includes('Noted: the word is ZEBRA.'), 'the earlier answer was sent');
    await ui.wb.screenshot('tasks-15-history-resumed');
    await idle();

    // Export as Markdown… → the save dialog (VS Code's simple dialog in the browser) → a file with the conversation.
    const target = path.join(ui.ws, 'exported-task.md');
    await palette('Tandem: Open History');
    await quickRow(title).click();
    await quickRow('Export as Markdown').click();
    const pathBox = ui.wb.page.locator('.quick-input-widget input.input');
    await pathBox.waitFor({ state: 'visible' });
    await sleep(300);
    await pathBox.fill(target);
    await ui.wb.screenshot('tasks-16-export-dialog');
    await ui.wb.page.keyboard.press('Enter');
    await waitUntil(() => fs.existsSync(target), 'the exported file', 15_000);
    await waitUntil(() => fs.readFileSync(target, 'utf8').includes('The word was ZEBRA.'), 'the whole conversation in the export');
    const md = fs.readFileSync(target, 'utf8');
    assert.match(md, new RegExp(`^# ${title}`));
    assert.ok(md.includes('Noted: the word is ZEBRA.') && md.includes('Which word did I ask you to remember?'));
  });
});
