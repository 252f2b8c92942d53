/**
 * The plan as a contract in the real workbench (code-server + Chromium, scripted LLM server): a
 * plan whose steps show their scope (files, commands, check) → Execute with plan-scope approval
 * (the in-scope edit runs unasked) → an edit outside the step's scope raises an amendment card →
 * Add to the plan → plan v2 says what it widened and the run goes on in it → step 1 done on its
 * check → step 2's check fails and the step ends failed, with why. Screenshots: test-results/scope-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';

const PLAN = {
  format_version: '1.0',
  goal: 'Greet Tandem and note it',
  steps: [
    { step_number: 1, action: 'In greeting.txt replace "world" with "Tandem"', reason: 'the user asked for it', tools_needed: ['read_file', 'edit_file'], estimated_time: '1m', files: ['greeting.txt'], commands: [], check: 'grep -q Tandem greeting.txt' },
    { step_number: 2, action: 'Say goodbye in greeting.txt', reason: 'politeness', tools_needed: ['edit_file'], estimated_time: '1m', files: ['greeting.txt'], commands: ['grep'], check: 'grep -q goodbye greeting.txt' },
  ],
  estimated_total_time: '2m',
  risks: [],
  prerequisites: [],
};

describe('plan step scopes and amendments in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'scope',
    files: { 'greeting.txt': 'Hello, world\n', 'notes.txt': 'notes\n' },
    settings: {
      // Execute plan approves each step's in-scope edits and commands.
      'tandem.autoApprove.planScope': true,
      'tandem.limits.maxRetries': undefined,
    },
  });
  const { input } = ui;

  const planCard = (version: number): Locator => ui.chat.locator('[data-card-kind="plan"]', { hasText: `v${version}` }).last();

  it('plan with scopes → Execute (plan-scope approval) → amendment → Add to the plan (v2) → a failing check ends its step failed', async () => {
    ui.server.replace([
      calls(tc('propose_plan', PLAN)),
      // Step 1: the in-scope edit (no approval asked), then an edit of a file the step did not name.
      calls(tc('read_file', { path: 'greeting.txt' }), tc('read_file', { path: 'notes.txt' })),
      calls(tc('edit_file', { path: 'greeting.txt', edits: [{ old_text: 'world', new_text: 'Tandem' }] })),
      calls(tc('edit_file', { path: 'notes.txt', edits: [{ old_text: 'notes', new_text: 'greeted Tandem' }] })),
      text('Step 1 done.'),
      // Step 2: says it is done without doing it; its check tells the truth.
      text('Step 2 done.'),
    ]);
    await input().click();
    await input().fill('Greet Tandem and note it');
    await input().press('Enter');

    const v1 = planCard(1);
    await v1.waitFor({ state: 'visible', timeout: 30_000 });
    // The plan card shows each step's scope: what it may change, run and how it is checked.
    const scope = await v1.locator('[data-step-scope]').allInnerTexts();
    assert.ok(scope.some((t) => /may change:\s*greeting\.txt/.test(t)), scope.join(' | '));
    assert.ok(scope.some((t) => /may run:\s*\$ grep/.test(t)), scope.join(' | '));
    assert.ok(scope.some((t) => /check:\s*grep -q Tandem greeting\.txt/.test(t)), scope.join(' | '));
    await ui.wb.screenshot('scope-01-plan-with-scopes');

    await v1.getByRole('button', { name: 'Execute plan' }).click();
    const amendment = ui.chat.locator('[data-amendment="asked"]');
    await amendment.waitFor({ state: 'visible', timeout: 40_000 });
    assert.match(await amendment.innerText(), /Step 1 wants to edit notes\.txt, which the plan did not name/);
    // The in-scope edit ran without an Approve: plan-scope approval.
    assert.equal(fs.readFileSync(path.join(ui.ws, 'greeting.txt'), 'utf8'), 'Hello, Tandem\n');
    assert.equal(fs.readFileSync(path.join(ui.ws, 'notes.txt'), 'utf8'), 'notes\n', 'nothing written before the decision');
    await amendment.getByRole('button', { name: 'Allow once' }).waitFor({ state: 'visible' });
    await amendment.getByRole('button', { name: 'Reject' }).waitFor({ state: 'visible' });
    await ui.wb.screenshot('scope-02-amendment');

    await amendment.getByRole('button', { name: 'Add to the plan' }).click();
    await waitUntil(() => fs.readFileSync(path.join(ui.ws, 'notes.txt'), 'utf8') === 'greeted Tandem\n', 'the amended edit to be written', 20_000);
    const v2 = planCard(2);
    await v2.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await v2.locator('[data-plan-amended]').innerText(), /v2 adds to v1: step 1 files: \+ notes\.txt/);
    // The amendment card (just above v2) says it was added; the chat draws only the cards in view.
    await v2.locator('[data-plan-amended]').scrollIntoViewIfNeeded();
    await ui.chat.locator('[data-amendment="added"]').waitFor({ state: 'attached', timeout: 10_000 });

    // Step 1 done on its check; step 2 failed: its check exited 1.
    await v2.locator('[data-step-state="failed"]').waitFor({ state: 'visible', timeout: 40_000 });
    const states = await v2.locator('li.step').evaluateAll((els) => els.map((e) => e.getAttribute('data-step-state')));
    assert.deepEqual(states, ['done', 'failed']);
    // The failed step says its check's outcome on the check's own line (the run's summary quotes the exit code).
    assert.match(await v2.locator('[data-step-state="failed"] [data-step-check="failed"]').innerText(), /check: grep -q goodbye greeting\.txt failed/);
    await v2.locator('[data-plan-status="executed"]').waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await v2.locator('[data-plan-status="executed"]').innerText(), /failed/i);
    await v2.locator('[data-plan-amended]').scrollIntoViewIfNeeded();
    await ui.wb.screenshot('scope-03-v2-amended');
    await v2.locator('[data-step-state="failed"]').scrollIntoViewIfNeeded();
    await ui.wb.screenshot('scope-04-v2-done-and-failed');
  });
});
