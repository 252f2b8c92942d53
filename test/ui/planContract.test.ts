/**
 * The plan as a contract in the real workbench (code-server + Chromium, scripted LLM server): a plan
 * → Review with a concern on a step → a comment on that step → Revise (v2 shows what changed) →
 * Execute → a step's check fails → the step review says replan → Replan → v3 keeps the done step,
 * is reviewed (ok) and continues from the failed one → Executed ✓. Screenshots: test-results/contract-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text, verdict } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';

const step = (n: number, action: string, file: string, check: string) => ({ step_number: n, action, reason: 'the release needs it', tools_needed: ['write_file'], estimated_time: '1 min', files: [file], check });
const plan = (steps: unknown[]) => ({ format_version: '1.0', goal: 'Prepare the release notes', steps, estimated_total_time: '2 min', risks: [], prerequisites: [] });
const V1 = plan([step(1, 'Create CHANGES.md with a heading', 'CHANGES.md', 'test -f CHANGES.md'), step(2, 'Write status.txt', 'status.txt', 'test -f status.txt')]);
const V2 = plan([step(1, 'Create CHANGES.md with a heading', 'CHANGES.md', 'test -f CHANGES.md'), step(2, 'Write status.txt saying ready', 'status.txt', 'grep -q ready status.txt')]);
const V3_REST = plan([step(1, 'Write the word ready into status.txt', 'status.txt', 'grep -q ready status.txt')]);

describe('the plan as a contract in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'contract',
    files: { 'README.md': '# Release workspace\n' },
    settings: {
      'tandem.review.steps': 'on_failure',
      'tandem.autoApprove.create': true,
      'tandem.autoApprove.edit': true,
      'tandem.autoApprove.command': true,
      'tandem.limits.requestIdleTimeoutMs': undefined,
      'tandem.limits.maxRetries': undefined,
    },
  });
  const { input, reveal } = ui;

  // By the card's own title: other cards mention a version too ("Changes from v1", "Replans v2").
  const planCard = (version: number): Locator => ui.chat.locator('[data-card-kind="plan"]').filter({ has: ui.chat.locator('.card-title', { hasText: `Plan v${version}` }) });

  it('review → step comment → Revise (v2 diff) → a failed check → step review says replan → Replan → v3 continues from the failed step', async () => {
    ui.server.replace([
      calls(tc('propose_plan', V1)),
      verdict('revise', ['step 2 does not say what status.txt must contain'], [{ step: 2, file: 'status.txt', line: null, text: 'status.txt must say ready, and the check should prove it' }]),
      calls(tc('propose_plan', V2)),
      // Execute v2: step 1 writes CHANGES.md (check passes); step 2 writes the wrong text (check fails).
      calls(tc('write_file', { path: 'CHANGES.md', content: '# Changes\n' })), text('Created CHANGES.md.'),
      calls(tc('write_file', { path: 'status.txt', content: 'pending\n' })), text('Wrote status.txt.'),
      verdict('replan', ['status.txt says pending, not ready'], [{ step: 2, file: 'status.txt', line: 1, text: 'the content is wrong' }]),
      // Replan: the remaining work only; then Continue from step 2.
      calls(tc('propose_plan', V3_REST)),
      verdict('ok', ['the remaining step now writes and checks the right content']),
      calls(tc('write_file', { path: 'status.txt', content: 'ready\n' })), text('status.txt now says ready.'),
    ]);

    await input().click();
    await input().fill('Prepare the release notes');
    await input().press('Enter');
    const v1 = planCard(1);
    await v1.waitFor({ state: 'visible', timeout: 30_000 });

    // Review: the verdict on the card, the concern under step 2.
    await v1.getByRole('button', { name: 'Review', exact: true }).click();
    await v1.locator('[data-plan-review] [data-verdict="revise"]').waitFor({ state: 'visible', timeout: 30_000 });
    const step2 = v1.locator('li.step').nth(1);
    await step2.locator('[data-concerns]', { hasText: 'status.txt must say ready' }).waitFor({ state: 'visible' });
    await ui.wb.screenshot('contract-01-review-concern');

    // A comment on step 2, then Revise: the comment goes with the feedback.
    await step2.getByRole('button', { name: 'Comment on step 2' }).click();
    await step2.locator('textarea[aria-label="Your comment on step 2"]').fill('write the word ready, and grep for it');
    await step2.locator('textarea[aria-label="Your comment on step 2"]').press('Enter');
    await step2.locator('[data-step-comment]', { hasText: 'write the word ready' }).waitFor({ state: 'visible' });
    await v1.getByRole('button', { name: 'Revise (1 comment)' }).click();
    await v1.locator('textarea[aria-label="What should change in the plan"]').fill('follow the review');
    await ui.wb.screenshot('contract-02-comment-and-revise');
    await v1.getByRole('button', { name: 'Send revision' }).click();

    const v2 = planCard(2);
    await v2.waitFor({ state: 'visible', timeout: 30_000 });
    const reviseReq = ui.server.chatRequests().find((r) => JSON.stringify(r.messages).includes('Revise plan v1'));
    assert.match(JSON.stringify(reviseReq?.messages), /follow the review\\nComments on steps:\\n- step 2 \(\\"Write status.txt\\"\): write the word ready, and grep for it/);
    const changes = v2.locator('[data-plan-changes]');
    await changes.waitFor({ state: 'visible' });
    assert.match(await changes.innerText(), /Changes from v1: 1 edited · 1 unchanged[\s\S]*step 2[\s\S]*Write status\.txt[\s\S]*Write status\.txt saying ready[\s\S]*test -f status\.txt[\s\S]*grep -q ready status\.txt/);
    await ui.wb.screenshot('contract-03-v2-diff');

    // Execute v2: step 1 done with evidence, step 2's check fails, the step review says replan.
    await v2.getByRole('button', { name: 'Execute plan' }).click();
    // plan, review, revision; two Actor requests per step; the step review.
    await waitUntil(() => ui.server.chatRequests().length >= 8, 'the step review request', 60_000);
    await reveal(v2);
    const review = v2.locator('[data-step-review="replan"]');
    await review.waitFor({ state: 'attached', timeout: 30_000 });
    await review.scrollIntoViewIfNeeded();
    assert.equal(await v2.locator('li.step').nth(0).getAttribute('data-step-state'), 'done');
    assert.equal(await v2.locator('li.step').nth(1).getAttribute('data-step-state'), 'failed');
    await v2.getByRole('button', { name: 'Replan' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.screenshot('contract-04-failed-step-review-replan');

    // Replan: v3 keeps step 1 done and continues from step 2.
    await v2.getByRole('button', { name: 'Replan' }).click();
    const v3 = planCard(3);
    await waitUntil(() => ui.server.chatRequests().length >= 9, 'the replan request', 60_000);
    await reveal(v3);
    await v3.waitFor({ state: 'visible', timeout: 30_000 });
    await v3.locator('[data-replan-of]').waitFor({ state: 'visible' });
    assert.equal(await v3.locator('li.step').nth(0).getAttribute('data-step-state'), 'done');
    assert.equal(await v3.locator('li.step').nth(1).getAttribute('data-step-state'), 'pending');
    const replanReq = ui.server.chatRequests().find((r) => JSON.stringify(r.messages).includes('Replan: plan v2 stopped'));
    assert.ok(replanReq, 'the Planner got the replan brief');
    await ui.wb.screenshot('contract-05-v3-replanned');
    // A replanned version can be reviewed before going on.
    await v3.getByRole('button', { name: 'Review', exact: true }).click();
    await v3.locator('[data-plan-review] [data-verdict="ok"]').waitFor({ state: 'visible', timeout: 30_000 });
    await v3.getByRole('button', { name: 'Continue from step 2' }).click();
    await waitUntil(() => ui.server.chatRequests().length >= 12, 'step 2 of v3', 60_000);
    await waitUntil(() => fs.existsSync(path.join(ui.ws, 'status.txt')) && fs.readFileSync(path.join(ui.ws, 'status.txt'), 'utf8') === 'ready\n', 'status.txt to say ready', 60_000);
    await reveal(v3);
    const executed = v3.locator('[data-plan-status="executed"]', { hasText: 'Executed ✓' });
    await executed.waitFor({ state: 'attached', timeout: 30_000 });
    await executed.scrollIntoViewIfNeeded();
    assert.equal(fs.readFileSync(path.join(ui.ws, 'status.txt'), 'utf8'), 'ready\n');
    assert.equal(fs.readFileSync(path.join(ui.ws, 'CHANGES.md'), 'utf8'), '# Changes\n', 'step 1 was not done twice');
    await sleep(300);
    await ui.wb.screenshot('contract-06-v3-executed');
  });
});
