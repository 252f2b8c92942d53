/**
 * A plan's steps as lanes in the real workbench (code-server + Chromium, scripted LLM server): a
 * plan with two steps that can run together (step 2 depends on nothing) → Execute → each step's
 * cards sit under their own step header, never interleaved; each approval says which step asks
 * (on its card and in the composer); a lane folds to its header. Screenshots: test-results/lanes-*.png.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';

const PLAN = {
  format_version: '1.0',
  goal: 'Shout both names',
  steps: [
    { step_number: 1, action: 'In a.txt replace alpha with ALPHA', reason: 'asked', tools_needed: ['read_file', 'edit_file'], estimated_time: '1m', files: ['a.txt'], commands: [], check: 'grep -q ALPHA a.txt' },
    { step_number: 2, action: 'In b.txt replace beta with BETA', reason: 'asked', tools_needed: ['read_file', 'edit_file'], estimated_time: '1m', files: ['b.txt'], commands: [], check: 'grep -q BETA b.txt', depends_on: [] },
  ],
  estimated_total_time: '2m',
  risks: [],
  prerequisites: [],
};

describe('plan steps as lanes in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({ name: 'lanes', files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
  const lane = (n: number) => ui.chat.locator(`[data-lane-step="${n}"]`);

  /** Approves what step `n` asks, checking the card and the composer say which step asks: its edit of `file`, then its check. */
  async function approveStep(n: number, file: string): Promise<void> {
    for (const [what, shot] of [[`edit ${file}`, 'edit'], [`run \`grep`, 'check']] as const) {
      const tag = ui.chat.locator(`[data-step-tag="${n}"]`);
      await tag.waitFor({ state: 'visible', timeout: 40_000 });
      const card = ui.chat.locator('[data-card-kind="tool_call"]', { has: tag });
      assert.match(await card.innerText(), new RegExp(file.replace('.', '\\.')));
      // The composer says which step waits, too.
      await waitUntil(async () => (await ui.chat.locator('.decide-what').innerText()).includes(`Step ${n} waits for your decision to ${what}`), `the composer to name step ${n}`, 10_000);
      await ui.wb.screenshot(`lanes-step-${n}-${shot}-approval`);
      await card.getByRole('button', { name: 'Approve', exact: true }).click();
      // Answered once the composer stops naming this decision. Not "the step's tag is gone": the
      // step's next approval can follow at once with the same tag, and a poll can miss the moment
      // between (UI run 15 under load saw step 2's check approval and waited 20 s for no tag).
      const waitsHere = `Step ${n} waits for your decision to ${what}`;
      await waitUntil(async () => !(await ui.chat.locator('.decide-what').allInnerTexts()).some((t) => t.includes(waitsHere)), `step ${n}'s decision to ${what} to be answered`, 20_000);
    }
  }

  it('two steps that can run together: two lanes, approvals labelled by step, a lane folds', async () => {
    ui.server.replace([
      calls(tc('propose_plan', PLAN)),
      calls(tc('read_file', { path: 'a.txt' })),
      calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'ALPHA' }] })),
      text('Step 1 done.'),
      calls(tc('read_file', { path: 'b.txt' })),
      calls(tc('edit_file', { path: 'b.txt', edits: [{ old_text: 'beta', new_text: 'BETA' }] })),
      text('Step 2 done.'),
    ]);
    await ui.send('Shout both names');
    const plan = ui.chat.locator('[data-card-kind="plan"]').last();
    await plan.waitFor({ state: 'visible', timeout: 30_000 });
    // Not a git repository: the card says the two steps could run side by side, and why they will not, before Execute.
    const together = plan.locator('[data-run-together]');
    await waitUntil(async () => /here they run one at a time/.test(await together.innerText()), 'the card to say why steps run one at a time', 10_000);
    assert.match(await together.innerText(), /^⇉ Steps 1 and 2 could run side by side; here they run one at a time: the workspace is not in a git repository, so steps cannot get worktrees of their own\.$/);
    await ui.wb.screenshot('lanes-plan-one-at-a-time');
    await plan.getByRole('button', { name: 'Execute plan' }).click();

    await approveStep(1, 'a.txt');
    await approveStep(2, 'b.txt');
    await waitUntil(() => fs.readFileSync(path.join(ui.ws, 'b.txt'), 'utf8') === 'BETA\n', 'step 2 written', 30_000);
    await ui.idle();
    assert.equal(fs.readFileSync(path.join(ui.ws, 'a.txt'), 'utf8'), 'ALPHA\n');

    // Two lanes, each holding its own step's cards right under its header (the list is virtualised: scroll each into view).
    await (await ui.reveal(lane(1))).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await lane(1).innerText(), /Step 1[\s\S]*In a\.txt replace alpha with ALPHA[\s\S]*done[\s\S]*check grep -q ALPHA a\.txt passed/, 'the lane says its step\'s check');
    await (await ui.reveal(lane(2))).waitFor({ state: 'visible', timeout: 10_000 });
    await lane(2).scrollIntoViewIfNeeded();
    assert.match(await lane(2).innerText(), /Step 2[\s\S]*In b\.txt replace beta with BETA[\s\S]*done/);
    // The rows around step 2's header, top to bottom: step 1's last cards above it, only step 2's below it.
    const seq = await ui.chat.locator('.row').evaluateAll((rows) => rows
      .map((r) => ({ top: new DOMMatrix(getComputedStyle(r).transform).m42, lane: r.querySelector('[data-lane-step]')?.getAttribute('data-lane-step') ?? null, text: (r as HTMLElement).innerText }))
      .sort((a, b) => a.top - b.top)
      .map((r) => (r.lane ? `lane ${r.lane}` : /Run finished/.test(r.text) ? 'summary' : /Step 1 done|ALPHA|a\.txt/.test(r.text) ? 'step 1' : /Step 2 done|BETA|b\.txt/.test(r.text) ? 'step 2' : 'other')));
    const at = seq.indexOf('lane 2');
    // ('other': rows of no text, e.g. folded usage lines.)
    assert.equal(seq.slice(0, at).filter((x) => x !== 'other').at(-1), 'step 1', seq.join(' | '));
    const below = seq.slice(at + 1, seq.indexOf('summary') < 0 ? undefined : seq.indexOf('summary'));
    assert.ok(below.includes('step 2') && below.every((x) => x === 'step 2' || x === 'other'), seq.join(' | '));
    await ui.wb.screenshot('lanes-two-lanes');

    // A lane folds to its header (which still says its check).
    const head = lane(1).locator('button.lane-head');
    await (await ui.reveal(head)).click();
    await waitUntil(async () => (await head.getAttribute('aria-expanded')) === 'false', 'lane 1 folded', 10_000);
    assert.match(await lane(1).innerText(), /check grep -q ALPHA a\.txt passed/);
    assert.equal(await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Step 1 done.' }).count(), 0);
    await lane(1).scrollIntoViewIfNeeded();
    await ui.wb.screenshot('lanes-lane-1-folded');
  });
});
