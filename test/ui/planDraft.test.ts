/**
 * A plan that appears as it is written, in the real workbench (code-server + Chromium, scripted LLM
 * server streaming the propose_plan call slowly): the draft card shows step 1 while the rest is still
 * arriving, marked as a draft, Execute disabled; a step that breaks a rule shows with its reason; when
 * the whole call validates, the plan card takes the draft's place and Execute is enabled. At 420 and
 * 300 px. Screenshots: test-results/plandraft-*.png.
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { numberedTc as tc } from '../support/scriptSteps';
import type { ScriptStep } from '../support/scriptedServer';

const step = (n: number, action: string, file: string, over: Record<string, unknown> = {}) => ({
  step_number: n, action, reason: `so that ${file} is there`, tools_needed: ['write_file'], estimated_time: '1 min', files: [file], commands: [], check: `test -f ${file}`, ...over,
});
const plan = (goal: string, steps: unknown[]) => ({ format_version: '1.0', goal, steps, estimated_total_time: '3 min', risks: [], prerequisites: [] });
/** The call streamed as a slow model writes it: a few characters at a time. */
const slowly = (args: Record<string, unknown>): ScriptStep => ({ type: 'tool_calls', calls: [tc('propose_plan', args)], argChunkSize: 6, chunkDelayMs: 45 });

describe('a plan shown while the Planner writes it (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({ name: 'plandraft', files: { 'README.md': '# notes\n' } });

  const draftCard = (): Locator => ui.chat.locator('.card[data-card-kind="plan_draft"]');
  const planCard = (goal: string): Locator => ui.chat.locator('.card[data-card-kind="plan"]', { hasText: goal });

  it('at 420 px: step 1 shows as a draft while the plan streams, Execute disabled; the validated plan replaces it with Execute enabled', async () => {
    await setSidebarWidth(ui.wb.page, 420);
    const goal = 'Write three notes';
    ui.server.replace([slowly(plan(goal, [step(1, 'Create first.txt', 'first.txt'), step(2, 'Create second.txt', 'second.txt'), step(3, 'Create third.txt', 'third.txt')]))]);
    await ui.send(goal);

    const draft = draftCard();
    await draft.locator('[data-draft-step="1"]').waitFor({ state: 'visible', timeout: 30_000 });
    // Step 1 is there while the call is still streaming: the last step has not arrived and no plan card exists.
    assert.equal(await draft.locator('[data-draft-step="3"]').count(), 0, 'the plan is not complete yet');
    assert.equal(await planCard(goal).count(), 0);
    assert.match(await draft.locator('.step-action').first().innerText(), /1\.\s+Create first\.txt/);
    assert.match(await draft.locator('[data-step-scope="check"]').first().innerText(), /test -f first\.txt/);
    assert.equal(await draft.locator('[data-plan-draft]').innerText(), 'draft');
    assert.match(await draft.locator('.plan-goal').innerText(), /Write three notes/);
    assert.match(await draft.locator('[data-draft-status]').innerText(), /The Planner is writing this plan: \d steps? so far/);
    const execDraft = draft.getByRole('button', { name: 'Execute plan' });
    assert.ok(await execDraft.isDisabled(), 'no Execute while the plan is being written');
    await ui.wb.screenshot('plandraft-420-writing');

    const card = planCard(goal);
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    await ui.idle();
    assert.equal(await card.locator('.step-action').count(), 3);
    const exec = card.getByRole('button', { name: 'Execute plan' });
    assert.ok(await exec.isEnabled(), 'the validated plan can be executed');
    assert.equal(await draftCard().count(), 0, 'the draft is no longer shown');
    await ui.wb.screenshot('plandraft-420-done');
  });

  it('at 300 px: a step that breaks a rule shows with its reason; the plan is sent back, repaired in the same draft, then executable', async () => {
    await setSidebarWidth(ui.wb.page, 300);
    const goal = 'Write two reports';
    const bad = plan(goal, [step(1, 'Create a.txt', 'a.txt'), step(2, 'Rewrite b.txt with sed', 'b.txt', { tools_needed: ['sed'] }), step(3, 'Create c.txt', 'c.txt')]);
    const good = plan(goal, [step(1, 'Create a.txt', 'a.txt'), step(2, 'Create b.txt', 'b.txt'), step(3, 'Create c.txt', 'c.txt')]);
    // The repair is held a moment so the draft's "sent back" state can be seen.
    ui.server.replace([slowly(bad), { ...slowly(good), firstChunkDelayMs: 2500 }]);
    await ui.send(goal);

    const draft = draftCard();
    const invalid = draft.locator('[data-draft-step="2"][data-draft-invalid]');
    await invalid.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await invalid.innerText(), /Rewrite b\.txt with sed[\s\S]*tools_needed names unknown tool 'sed'/);
    assert.ok(await draft.getByRole('button', { name: 'Execute plan' }).isDisabled());
    await ui.wb.screenshot('plandraft-300-invalid-step');

    await draft.locator('[data-draft-state="repairing"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await draft.locator('[data-draft-status]').innerText(), /Not valid as a whole, so it cannot be executed: the Planner was sent the problems marked above to fix\./);
    assert.equal((await draft.innerText()).split("unknown tool 'sed'").length - 1, 1, 'the reason is said once, under its step');
    // ... and once in the whole chat: the failed propose_plan call is told by the draft, not by a card of its own.
    const chatText = await ui.chat.locator('.list[role="log"]').innerText();
    assert.equal(chatText.split("unknown tool 'sed'").length - 1, 1, `the reason is said once in the chat:\n${chatText}`);
    assert.ok(await draft.getByRole('button', { name: 'Execute plan' }).isDisabled());
    await ui.wb.screenshot('plandraft-300-repairing');

    const card = planCard(goal);
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    await ui.idle();
    assert.match(await card.locator('.step-action').nth(1).innerText(), /Create b\.txt/);
    assert.ok(await card.getByRole('button', { name: 'Execute plan' }).isEnabled());
    assert.equal(await draftCard().count(), 0);
    // The repaired plan stands alone: no failed call above it repeating the first version's problem.
    assert.equal(await ui.toolCard('Write two reports').count(), 0, 'no failed propose_plan card above the plan');
    assert.doesNotMatch(await ui.chat.locator('.list[role="log"]').innerText(), /unknown tool 'sed'/);
    await ui.wb.screenshot('plandraft-300-done');
  });
});
