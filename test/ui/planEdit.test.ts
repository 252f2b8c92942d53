/**
 * "Implement with changes" in the real workbench (code-server + Chromium, scripted LLM server): a
 * plan that has not run → Edit on a step turns it into a small form (focus in its first field,
 * Escape cancels) → an edit the host refuses (a file outside the workspace, an empty step) is said
 * under the form, which keeps what was typed → Save (or Ctrl+Enter) makes the next version with its
 * diff, no model asked → Execute: the Actor is given the edited step, and the file the user added is
 * inside the step's scope (written with no amendment). At 420 and 300 px. Screenshots:
 * test-results/planedit-*.png.
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';

const plan = (goal: string) => ({
  format_version: '1.0',
  goal,
  steps: [
    { step_number: 1, action: 'Create first.txt', reason: 'the first note', tools_needed: ['write_file'], estimated_time: '1m', files: ['first.txt'], commands: [], check: 'test -f first.txt' },
    { step_number: 2, action: 'Create second.txt', reason: 'the second note', tools_needed: ['write_file'], estimated_time: '1m', files: ['second.txt'], commands: [], check: 'test -f second.txt', depends_on: [1] },
  ],
  estimated_total_time: '2m',
  risks: [],
  prerequisites: [],
});

describe('Implement with changes: a plan step edited on its card (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'planedit',
    files: { 'README.md': '# notes\n' },
    // Execute plan approves each step's in-scope writes and commands: an added file proves it is in scope.
    settings: { 'tandem.autoApprove.planScope': true },
  });

  const planCard = (goal: string, version: number): Locator =>
    ui.chat.locator('[data-card-kind="plan"]', { hasText: goal }).filter({ has: ui.chat.locator('.card-title', { hasText: `Plan v${version}` }) });
  const isFocused = (l: Locator) => l.evaluate((el) => el === el.ownerDocument.activeElement);

  it('at 420 px: edit step 2\'s check and add a file → a refused edit keeps the typed text → Save → v2 with its diff → Execute runs the edited step', async () => {
    await setSidebarWidth(ui.wb.page, 420);
    const goal = 'Write two notes';
    ui.server.replace([
      calls(tc('propose_plan', plan(goal))),
      // Held a moment, so the card can be seen while the plan runs.
      { ...calls(tc('write_file', { path: 'first.txt', content: '1\n' })), firstChunkDelayMs: 3000 }, text('Step 1 done.'),
      calls(tc('write_file', { path: 'second.txt', content: 'edited\n' }), tc('write_file', { path: 'extra.txt', content: 'extra\n' })), text('Step 2 done.'),
    ]);
    await ui.send(goal);
    const v1 = planCard(goal, 1);
    await v1.waitFor({ state: 'visible', timeout: 30_000 });
    await ui.idle();
    const requests = ui.server.chatRequests().length;

    // Edit opens the step as a form, focus in its text; Escape closes it and changes nothing.
    await v1.getByRole('button', { name: 'Edit step 2' }).click();
    const form = v1.getByRole('form', { name: 'Edit step 2' });
    const stepText = form.getByRole('textbox', { name: 'Step 2' });
    await stepText.waitFor({ state: 'visible' });
    assert.ok(await isFocused(stepText), 'focus lands in the step\'s text');
    assert.equal(await stepText.inputValue(), 'Create second.txt');
    const files = form.getByRole('textbox', { name: 'May change' });
    const check = form.getByRole('textbox', { name: 'Check' });
    assert.equal(await files.inputValue(), 'second.txt');
    assert.equal(await check.inputValue(), 'test -f second.txt');
    assert.equal(await v1.getByRole('button', { name: /^Edit step/ }).count(), 0, 'one step at a time');
    assert.ok(await v1.getByRole('button', { name: 'Execute plan' }).isDisabled(), 'no Execute of the old version while an edit is open');
    await stepText.fill('Something else');
    await stepText.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.match(await v1.locator('.step-action').nth(1).innerText(), /Create second\.txt/);

    // Opened again: the step as it is (Cancel kept nothing). An edit outside the workspace is refused under the form.
    await v1.getByRole('button', { name: 'Edit step 2' }).click();
    assert.equal(await stepText.inputValue(), 'Create second.txt');
    await check.fill('grep -q edited second.txt');
    await files.fill('second.txt\n../outside.txt');
    await form.getByRole('button', { name: 'Save as v2' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await refusal.innerText(), /not applied: step 2: file '\.\.\/outside\.txt'.* outside the workspace/);
    assert.equal(await check.inputValue(), 'grep -q edited second.txt', 'the typed check is kept');
    assert.equal(await files.inputValue(), 'second.txt\n../outside.txt', 'the typed files are kept');
    assert.equal(await planCard(goal, 2).count(), 0, 'no version from a refused edit');
    await form.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-01-refused-420');

    // The file fixed: Save makes v2, with its diff, no model asked; v1 is superseded.
    await files.fill('second.txt\nextra.txt');
    await form.getByRole('button', { name: 'Save as v2' }).click();
    const v2 = planCard(goal, 2);
    await v2.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(ui.server.chatRequests().length, requests, 'the Planner was not asked');
    const changes = v2.locator('[data-plan-changes]');
    assert.match(await changes.locator('summary').innerText(), /Changes from v1: 1 edited · 1 unchanged/);
    const diff = await changes.innerText();
    assert.match(diff, /step 2/);
    assert.match(diff, /test -f second\.txt\s*→\s*grep -q edited second\.txt/);
    assert.match(diff, /extra\.txt/);
    assert.match(await v2.locator('[data-plan-amended]').innerText(), /Edited by you from v1/);
    assert.match(await v2.locator('[data-step-scope="files"]').nth(1).innerText(), /second\.txt\s*extra\.txt/);
    assert.match(await v2.locator('[data-step-scope="check"]').nth(1).innerText(), /grep -q edited second\.txt/);
    await changes.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-02-v2-420');

    // Execute v2: the Actor is told the edited step, and extra.txt is in its scope (written unasked, no amendment).
    await v2.getByRole('button', { name: 'Execute plan' }).click();
    await v2.locator('[data-step-state="running"]').waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await v2.getByRole('button', { name: /^Edit step/ }).count(), 0, 'no Edit while the plan runs');
    // Had extra.txt been outside the step, the run would wait on an amendment and never end.
    const summary = ui.chat.locator('[data-card-kind="summary"]').last();
    await summary.waitFor({ state: 'visible', timeout: 60_000 });
    await ui.idle();
    assert.match(await summary.innerText(), /2 of 2 done/);
    assert.match(await summary.innerText(), /Step 2 check grep -q edited second\.txt passed/);
    assert.equal(ui.read('extra.txt'), 'extra\n');
    assert.equal(ui.read('second.txt'), 'edited\n');
    await ui.wb.screenshot('planedit-03-run-420');
    const sent = ui.server.chatRequests().slice(requests).map((r) => JSON.stringify(r.messages));
    assert.ok(sent.some((m) => m.includes('Files: second.txt, extra.txt.') && m.includes('Check (run after the step; exit 0 = done): grep -q edited second.txt.')), 'the Actor was given the edited step');
    // v1 stays in the history only as the Planner's proposal; what the Actor is told to do is v2.
    const told = ui.server.chatRequests().slice(requests).flatMap((r) => r.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: unknown }) => JSON.stringify(m.content)));
    assert.ok(told.length > 0 && !told.some((m) => m.includes('test -f second.txt')), 'never told the old check');
    // The card: both steps done, and no Edit once the plan has run.
    await ui.reveal(v2);
    assert.deepEqual(await v2.locator('li.step').evaluateAll((els) => els.map((e) => e.getAttribute('data-step-state'))), ['done', 'done']);
    assert.equal(await v2.getByRole('button', { name: /^Edit step/ }).count(), 0, 'no Edit once it ran');
  });

  it('at 300 px: an empty step is refused, what was typed stays (also through hiding the view); Ctrl+Enter saves', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await ui.roleButton().and(ui.chat.locator('[data-role="planner"]')).waitFor({ state: 'visible', timeout: 15_000 });
    await setSidebarWidth(ui.wb.page, 300);
    const goal = 'Write two narrow notes';
    ui.server.replace([calls(tc('propose_plan', plan(goal)))]);
    await ui.send(goal);
    const v1 = planCard(goal, 1);
    await v1.waitFor({ state: 'visible', timeout: 30_000 });
    await ui.idle();
    const requests = ui.server.chatRequests().length;

    await v1.getByRole('button', { name: 'Edit step 1' }).click();
    const form = v1.getByRole('form', { name: 'Edit step 1' });
    const stepText = form.getByRole('textbox', { name: 'Step 1' });
    await stepText.waitFor({ state: 'visible' });
    assert.ok(await isFocused(stepText), 'focus lands in the step\'s text');
    await form.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-04-form-300');

    await stepText.fill('');
    await form.getByRole('textbox', { name: 'May run' }).fill('npm test');
    // The check typed and Ctrl+Enter pressed before the form draws again (a fast typist; it happened in a
    // full run): both in one task, so the save must take the typed check, not the last drawn one.
    await form.getByRole('textbox', { name: 'Check' }).evaluate((el) => {
      const input = el as HTMLInputElement;
      input.value = 'test -s first.txt';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
    });
    const refusal = form.getByRole('alert');
    await refusal.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await refusal.innerText(), /not applied: step 1: its text is empty/);
    assert.equal(await form.getByRole('textbox', { name: 'May run' }).inputValue(), 'npm test');
    assert.equal(await form.getByRole('textbox', { name: 'Check' }).inputValue(), 'test -s first.txt');
    await form.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-05-refused-300');

    // The user looks up a path in the Explorer: the Tandem view is hidden (VS Code lets its page go), then shown again.
    await ui.wb.page.keyboard.press('Control+Shift+E');
    await ui.wb.page.locator('.part.sidebar .composite.title', { hasText: /Explorer/i }).waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.openTandemView();
    await form.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await stepText.inputValue(), '', 'the form comes back as it was left');
    assert.equal(await form.getByRole('textbox', { name: 'May run' }).inputValue(), 'npm test');
    assert.equal(await form.getByRole('textbox', { name: 'Check' }).inputValue(), 'test -s first.txt');
    assert.match(await refusal.innerText(), /its text is empty/);
    await form.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-06-shown-again-300');

    await stepText.fill('Create first.txt with one line');
    await stepText.press('Control+Enter');
    const v2 = planCard(goal, 2);
    await v2.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(ui.server.chatRequests().length, requests, 'the Planner was not asked');
    assert.match(await v2.locator('[data-plan-changes] summary').innerText(), /Changes from v1: 1 edited/);
    assert.match(await v2.locator('[data-step-scope="commands"]').first().innerText(), /\$ npm test/);
    assert.match(await v2.locator('.step-action').first().innerText(), /Create first\.txt with one line/);
    await v2.locator('[data-plan-changes]').scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-07-v2-300');

    // Add a step: it needs a step the plan does not have → refused under its form; fixed → v3 with three steps.
    await v2.locator('[data-add-step]').click();
    const added = v2.getByRole('form', { name: 'New step' });
    const newText = added.getByRole('textbox', { name: 'New step' });
    await newText.waitFor({ state: 'visible' });
    assert.ok(await isFocused(newText), 'focus lands in the new step\'s text');
    await newText.fill('Create third.txt');
    await added.getByRole('textbox', { name: 'May change' }).fill('third.txt');
    const needs = added.getByRole('textbox', { name: /Needs steps first/ });
    await needs.fill('2, 9');
    await added.getByRole('button', { name: 'Add as v3' }).click();
    await added.getByRole('alert').waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await added.getByRole('alert').innerText(), /step 9, which the plan does not have/);
    assert.equal(await ui.chat.locator('[data-card-kind="error"]:not(.card-folded)').count(), 0, 'the refusal is said under the form, not again as a chat row');
    await needs.fill('2');
    await added.getByRole('button', { name: 'Add as v3' }).click();
    const v3 = planCard(goal, 3);
    await v3.waitFor({ state: 'visible', timeout: 15_000 });
    assert.deepEqual(await v3.locator('.step-action').allInnerTexts().then((t) => t.map((x) => x.replace(/^\d+\.\s*/, '').trim())), ['Create first.txt with one line', 'Create second.txt', 'Create third.txt']);

    // Step 2 made to need step 3, which needs step 2: a cycle, refused in place naming both steps.
    await v3.getByRole('button', { name: 'Edit step 2' }).click();
    const edit2 = v3.getByRole('form', { name: 'Edit step 2' });
    const needs2 = edit2.getByRole('textbox', { name: /Needs steps first/ });
    assert.equal(await needs2.inputValue(), '1', 'the steps it needs, as the plan says');
    await needs2.fill('3');
    await needs2.press('Control+Enter');
    await edit2.getByRole('alert').waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await edit2.getByRole('alert').innerText(), /steps 2, 3: depends_on forms a cycle/);
    await edit2.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-08-cycle-300');

    // Remove step 3 instead: v4 has two steps again, and the form's limits were on show.
    assert.match(await edit2.innerText(), /up to 50[\s\S]*up to 20/);
    await edit2.getByRole('button', { name: 'Cancel' }).click();
    await v3.getByRole('button', { name: 'Edit step 3' }).click();
    await v3.getByRole('form', { name: 'Edit step 3' }).getByRole('button', { name: 'Remove step 3' }).click();
    const v4 = planCard(goal, 4);
    await v4.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await v4.locator('li.step').count(), 2);
    assert.equal(ui.server.chatRequests().length, requests, 'no model was asked for any of it');
    await v4.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('planedit-09-removed-300');
  });
});
