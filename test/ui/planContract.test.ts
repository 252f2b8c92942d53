/**
 * The plan as a contract in the real workbench (code-server + Chromium, scripted LLM server): a plan
 * → Review with a concern on a step → a comment on that step → Revise (v2 shows what changed) →
 * Execute → a step's check fails → the step review says replan → Replan → v3 keeps the done step,
 * is reviewed (ok) and continues from the failed one → Executed ✓. Screenshots: test-results/contract-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { openWorkbench, type Workbench } from './harness';
import { ScriptedServer, type ScriptStep, type ScriptedToolCall } from '../support/scriptedServer';

let n = 0;
const tc = (name: string, args: Record<string, unknown>): ScriptedToolCall => ({ id: `call_${name}_${++n}`, name, arguments: args });
const calls = (...c: ScriptedToolCall[]): ScriptStep => ({ type: 'tool_calls', calls: c });
const text = (t: string): ScriptStep => ({ type: 'text', text: t });
const verdict = (v: string, reasons: string[], concerns: unknown[] = []): ScriptStep => ({ type: 'json', value: { verdict: v, reasons, concerns } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const step = (n: number, action: string, file: string, check: string) => ({ step_number: n, action, reason: 'the release needs it', tools_needed: ['write_file'], estimated_time: '1 min', files: [file], check });
const plan = (steps: unknown[]) => ({ format_version: '1.0', goal: 'Prepare the release notes', steps, estimated_total_time: '2 min', risks: [], prerequisites: [] });
const V1 = plan([step(1, 'Create CHANGES.md with a heading', 'CHANGES.md', 'test -f CHANGES.md'), step(2, 'Write status.txt', 'status.txt', 'test -f status.txt')]);
const V2 = plan([step(1, 'Create CHANGES.md with a heading', 'CHANGES.md', 'test -f CHANGES.md'), step(2, 'Write status.txt saying ready', 'status.txt', 'grep -q ready status.txt')]);
const V3_REST = plan([step(1, 'Write the word ready into status.txt', 'status.txt', 'grep -q ready status.txt')]);

describe('the plan as a contract in the real workbench (UI)', function () {
  this.timeout(300_000);
  let server: ScriptedServer;
  let wb: Workbench;
  let chat: FrameLocator;
  let ws: string;

  const input = (): Locator => chat.locator('textarea[aria-label="Message Tandem"]');
  // By the card's own title: other cards mention a version too ("Changes from v1", "Replans v2").
  const planCard = (version: number): Locator => chat.locator('[data-card-kind="plan"]').filter({ has: chat.locator('.card-title', { hasText: `Plan v${version}` }) });

  async function waitUntil(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  /** The list is virtualised: scroll from the top until the card is rendered, then bring it into view. */
  async function reveal(card: Locator): Promise<Locator> {
    const log = chat.locator('[role="log"]');
    if ((await card.count()) === 0) {
      await log.evaluate((el) => { (el as { scrollTop: number }).scrollTop = 0; });
      for (let i = 0; i < 80 && (await card.count()) === 0; i++) {
        await log.evaluate((el) => { (el as { scrollTop: number }).scrollTop += 250; });
        await sleep(100);
      }
    }
    await card.first().scrollIntoViewIfNeeded();
    return card;
  }

  before(async () => {
    server = await ScriptedServer.start([], { models: ['scripted-model'] });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-contract-')));
    fs.writeFileSync(path.join(ws, 'README.md'), '# Release workspace\n');
    wb = await openWorkbench({
      workspace: ws,
      settings: {
        'tandem.baseUrl': server.url,
        'tandem.model.planner': 'scripted-model',
        'tandem.model.actor': 'scripted-model',
        'tandem.model.reviewer': 'scripted-model',
        'tandem.review.steps': 'on_failure',
        'tandem.autoApprove.create': true,
        'tandem.autoApprove.edit': true,
        'tandem.autoApprove.command': true,
        'tandem.contextWindow': 128_000,
      },
    });
    chat = await wb.openTandemView();
    await input().waitFor({ state: 'visible' });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && chat) await wb.screenshot(`contract-failed-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
    await server?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it('review → step comment → Revise (v2 diff) → a failed check → step review says replan → Replan → v3 continues from the failed step', async () => {
    server.replace([
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
    await wb.screenshot('contract-01-review-concern');

    // A comment on step 2, then Revise: the comment goes with the feedback.
    await step2.getByRole('button', { name: 'Comment on step 2' }).click();
    await step2.locator('textarea[aria-label="Your comment on step 2"]').fill('write the word ready, and grep for it');
    await step2.locator('textarea[aria-label="Your comment on step 2"]').press('Enter');
    await step2.locator('[data-step-comment]', { hasText: 'write the word ready' }).waitFor({ state: 'visible' });
    await v1.getByRole('button', { name: 'Revise (1 comment)' }).click();
    await v1.locator('textarea[aria-label="What should change in the plan"]').fill('follow the review');
    await wb.screenshot('contract-02-comment-and-revise');
    await v1.getByRole('button', { name: 'Send revision' }).click();

    const v2 = planCard(2);
    await v2.waitFor({ state: 'visible', timeout: 30_000 });
    const reviseReq = server.chatRequests().find((r) => JSON.stringify(r.messages).includes('Revise plan v1'));
    assert.match(JSON.stringify(reviseReq?.messages), /follow the review\\nComments on steps:\\n- step 2 \(\\"Write status.txt\\"\): write the word ready, and grep for it/);
    const changes = v2.locator('[data-plan-changes]');
    await changes.waitFor({ state: 'visible' });
    assert.match(await changes.innerText(), /Changes from v1: 1 edited · 1 unchanged[\s\S]*step 2[\s\S]*Write status\.txt[\s\S]*Write status\.txt saying ready[\s\S]*test -f status\.txt[\s\S]*grep -q ready status\.txt/);
    await wb.screenshot('contract-03-v2-diff');

    // Execute v2: step 1 done with evidence, step 2's check fails, the step review says replan.
    await v2.getByRole('button', { name: 'Execute plan' }).click();
    // plan, review, revision; two Actor requests per step; the step review.
    await waitUntil(() => server.chatRequests().length >= 8, 'the step review request');
    await reveal(v2);
    const review = v2.locator('[data-step-review="replan"]');
    await review.waitFor({ state: 'attached', timeout: 30_000 });
    await review.scrollIntoViewIfNeeded();
    assert.equal(await v2.locator('li.step').nth(0).getAttribute('data-step-state'), 'done');
    assert.equal(await v2.locator('li.step').nth(1).getAttribute('data-step-state'), 'failed');
    await v2.getByRole('button', { name: 'Replan' }).waitFor({ state: 'visible', timeout: 20_000 });
    await wb.screenshot('contract-04-failed-step-review-replan');

    // Replan: v3 keeps step 1 done and continues from step 2.
    await v2.getByRole('button', { name: 'Replan' }).click();
    const v3 = planCard(3);
    await waitUntil(() => server.chatRequests().length >= 9, 'the replan request');
    await reveal(v3);
    await v3.waitFor({ state: 'visible', timeout: 30_000 });
    await v3.locator('[data-replan-of]').waitFor({ state: 'visible' });
    assert.equal(await v3.locator('li.step').nth(0).getAttribute('data-step-state'), 'done');
    assert.equal(await v3.locator('li.step').nth(1).getAttribute('data-step-state'), 'pending');
    const replanReq = server.chatRequests().find((r) => JSON.stringify(r.messages).includes('Replan: plan v2 stopped'));
    assert.ok(replanReq, 'the Planner got the replan brief');
    await wb.screenshot('contract-05-v3-replanned');
    // A replanned version can be reviewed before going on.
    await v3.getByRole('button', { name: 'Review', exact: true }).click();
    await v3.locator('[data-plan-review] [data-verdict="ok"]').waitFor({ state: 'visible', timeout: 30_000 });
    await v3.getByRole('button', { name: 'Continue from step 2' }).click();
    await waitUntil(() => server.chatRequests().length >= 12, 'step 2 of v3');
    await waitUntil(() => fs.existsSync(path.join(ws, 'status.txt')) && fs.readFileSync(path.join(ws, 'status.txt'), 'utf8') === 'ready\n', 'status.txt to say ready');
    await reveal(v3);
    const executed = v3.locator('[data-plan-status="executed"]', { hasText: 'Executed ✓' });
    await executed.waitFor({ state: 'attached', timeout: 30_000 });
    await executed.scrollIntoViewIfNeeded();
    assert.equal(fs.readFileSync(path.join(ws, 'status.txt'), 'utf8'), 'ready\n');
    assert.equal(fs.readFileSync(path.join(ws, 'CHANGES.md'), 'utf8'), '# Changes\n', 'step 1 was not done twice');
    await sleep(300);
    await wb.screenshot('contract-06-v3-executed');
  });
});
