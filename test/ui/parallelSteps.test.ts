/**
 * Two plan steps running side by side in the real workbench (code-server + Chromium, scripted LLM
 * server answering each step's Actor by its step), in a workspace that is a git repository with an
 * uncommitted change: a step worktree a crashed window left is removed after activation; Execute
 * starts both steps at once (the chip says "Steps 1 and 2 wait for you"), each in its own lane with its own
 * approval labelled by its step; approving one step while the other waits lets it finish and its
 * change reach the workspace; both changes end in the workspace's files (not committed, each
 * revertable on its own) and no worktree is left. Screenshots: test-results/parallel-*.png at 420
 * and 300 px.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatSuite } from './chatSuite';
import { scanListFor } from './chatRows';
import { setSidebarWidth } from './sidebarWidth';
import { planStepOf } from '../support/scriptedServer';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { waitUntil } from '../support/wait';
import { worktreesBase } from '../../src/host/node/gitStepWorkspaces';
import { overlayStepsBase } from '../../src/host/node/cow/overlayStepWorkspaces';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../support/stepWorkspaceKinds';

const PLAN = {
  format_version: '1.0',
  goal: 'Shout both names',
  steps: [
    { step_number: 1, action: 'In a.txt replace alpha with ALPHA', reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1m', files: ['a.txt'], commands: [], check: 'grep -q ALPHA a.txt', depends_on: [] },
    { step_number: 2, action: 'In b.txt replace beta with BETA', reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1m', files: ['b.txt'], commands: [], check: 'grep -q BETA b.txt', depends_on: [] },
  ],
  estimated_total_time: '2m',
  risks: [],
  prerequisites: [],
};

/** What is left where the workspace's step workspaces go, of either kind (an empty folder is removed too). */
const worktreesLeft = (ws: string): string[] => [worktreesBase(ws), overlayStepsBase(ws)].flatMap((b) => (fs.existsSync(b) ? fs.readdirSync(b) : []));
/** The copy-on-write steps running in the workspace: their folders. */
const overlaySteps = (ws: string): string[] => (fs.existsSync(overlayStepsBase(ws)) ? fs.readdirSync(overlayStepsBase(ws)).filter((n) => !n.endsWith('.owner')) : []);

/**
 * Waits until the step worktrees are gone: git's record of them and their folders. A worktree's
 * record goes first and its files after, so on a loaded machine the folder can still be there the
 * moment `git worktree list` shows the workspace alone.
 */
async function worktreesGone(ws: string): Promise<void> {
  await waitUntil(() => git(ws, 'worktree', 'list').trim().split('\n').length === 1 && worktreesLeft(ws).length === 0, 'the step worktrees and their folders to be removed', 60_000);
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

// Runs on both kinds of step workspace: the copy-on-write view and the worktree it falls back to.
for (const kind of STEP_WORKSPACE_KINDS) {
  describe(`plan steps side by side in a git workspace, in the real workbench (UI), on ${kind.name}`, function () {
    useStepWorkspaceKind(kind);
    const worktrees = kind.env === 'worktree';
    this.timeout(300_000);
    /** A step worktree whose owner (a window that crashed) is gone, made before the workbench starts. */
    let leftover = '';
    const ui = chatSuite({
      name: 'parallel',
      files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' },
      // Auto save off, as desktop VS Code has it (in the browser it defaults to after a second): a buffer stays unsaved.
      settings: { 'tandem.parallelSteps': 2, 'files.autoSave': 'off' },
      prepare(ws) {
        git(ws, 'init', '-q');
        git(ws, 'add', '-A');
        git(ws, 'commit', '-qm', 'init');
        // Uncommitted: the steps start from what the user sees, not from the last commit.
        fs.writeFileSync(path.join(ws, 'b.txt'), 'beta\ngamma\n');
        leftover = path.join(worktreesBase(ws), 'step9-crashed');
        fs.mkdirSync(path.dirname(leftover), { recursive: true });
        git(ws, 'worktree', 'add', '--detach', '--quiet', leftover, 'HEAD');
        fs.writeFileSync(`${leftover}.owner`, `${spawnSync('true').pid}\n`);
      },
    });
    const lane = (n: number) => ui.chat.locator(`[data-lane-step="${n}"]`);
    /** The pending approval card step `n` shows (its tag says the step). */
    const asking = (n: number) => ui.chat.locator('[data-card-kind="tool_call"]', { has: ui.chat.locator(`[data-step-tag="${n}"]`) });
    const chip = () => ui.chat.locator('header [data-agent-state]');
    /**
     * Waits until step `n` asks for `what`. The list is virtualised and need not follow the end (an
     * earlier look scrolled it): when the card is not rendered, one pass over the list from the top.
     */
    /** The card that writes step n's changes back: "Applying step n: …" while it works or when refused, "Step n applied: …" once done. */
    const applyCard = (n: number) => ui.chat.locator('[data-card-kind="tool_call"]', { hasText: new RegExp(`Applying step ${n}:|Step ${n} applied:`) });

    async function waitAsking(n: number, what: RegExp, timeoutMs = 40_000): Promise<void> {
      const list = ui.chat.locator('.list[role="log"]');
      await waitUntil(async () => {
        if ((await asking(n).count()) === 0) {
          // As a user would: the composer's Show beside "Step n waits…" brings that card into view.
          const show = ui.chat.locator('.decide, .waiting-list li', { hasText: `Step ${n} ` }).getByRole('button', { name: 'Show' });
          if ((await show.count()) > 0) await show.first().click({ timeout: 2_000 }).catch(() => undefined);
          await new Promise((r) => setTimeout(r, 200));
        }
        if ((await asking(n).count()) === 0) {
          // Else one pass over the whole list from the top (the chat of three tests is long at 300 px).
          await scanListFor(list, async () => (await asking(n).count()) > 0, 100);
        }
        // Found and brought into view in one step: the virtual list may drop the card from the page
        // between the two when another step's cards arrive (then it is looked for again).
        return what.test(await asking(n).innerText({ timeout: 2_000 }).catch(() => ''))
          && asking(n).scrollIntoViewIfNeeded({ timeout: 2_000 }).then(() => true, () => false);
      }, `step ${n} to ask for ${what}`, timeoutMs);
    }

    /**
     * Approves what step `n` asks (`what`). The card can leave the page again before the click lands
     * (the other step's cards arrive and the list follows them): then it is found again.
     */
    async function approveAsking(n: number, what: RegExp): Promise<void> {
      await waitUntil(async () => {
        await waitAsking(n, what);
        return asking(n).getByRole('button', { name: 'Approve', exact: true }).click({ timeout: 3_000 }).then(() => true, () => false);
      }, `step ${n}'s ${what} to be approved`, 90_000);
    }

    it('two independent steps run at once, each in its own lane and worktree; approvals are labelled and decided one by one; both changes land, none committed, no worktree left', async () => {
      // Activation cleans up after a crashed window (3 s after it starts), before any run could.
      // (Its folder, then its owner file, then git's registration go, one after another.)
      await waitUntil(() => !fs.existsSync(leftover) && !fs.existsSync(`${leftover}.owner`) && !/step9-crashed/.test(git(ui.ws, 'worktree', 'list')), 'the crashed window\'s worktree to be removed after activation', 30_000);

      await setSidebarWidth(ui.wb.page, 420);
      // The Facts view shares the side bar and opens at half its height: this test is about the chat.
      const facts = ui.wb.page.locator('.pane-header[aria-expanded="true"]', { hasText: /^Facts/ });
      if (await facts.count()) await facts.first().click();
      ui.server.replace([calls(tc('propose_plan', PLAN))]);
      ui.server.useLanes({
        keyOf: planStepOf,
        steps: {
          1: [calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'ALPHA' }] })), text('Step 1 done.')],
          2: [calls(tc('edit_file', { path: 'b.txt', edits: [{ old_text: 'beta', new_text: 'BETA' }] })), text('Step 2 done.')],
        },
      });
      await ui.send('Shout both names');
      const plan = ui.chat.locator('[data-card-kind="plan"]').last();
      await plan.waitFor({ state: 'visible', timeout: 30_000 });
      // The card says which steps can run together (here they will: a git repository).
      assert.equal(await plan.locator('[data-run-together]').innerText(), '⇉ Steps 1 and 2 can run side by side.');
      await ui.wb.screenshot('parallel-01-plan-420');
      await plan.getByRole('button', { name: 'Execute plan' }).click();

      // Both steps ask at the same time, each approval labelled with its step, each in its own lane.
      await asking(1).waitFor({ state: 'visible', timeout: 40_000 });
      await asking(2).waitFor({ state: 'visible', timeout: 40_000 });
      assert.match(await asking(1).innerText(), /a\.txt/);
      assert.match(await asking(2).innerText(), /b\.txt/);
      // The count leads the chip (a narrow side bar cuts its end), then which steps wait.
      await waitUntil(async () => /^Steps 1 and 2 wait for you/.test(await chip().innerText()), 'the status chip to name both steps, both waiting', 10_000);
      // The header names every running step, not the first only.
      await waitUntil(async () => (await ui.chat.locator('header [data-running-steps]').getAttribute('data-running-steps').catch(() => null)) === '1,2', 'the header to name steps 1 and 2', 10_000);
      assert.match(await ui.chat.locator('header .progress summary').innerText(), /^Steps 1, 2 of 2 · In a\.txt replace alpha with ALPHA · In b\.txt/);
      // Both waiting decisions are one click away from the composer, wherever the run has pushed their cards.
      const composer = ui.chat.locator('form.composer');
      await waitUntil(async () => /Step 1 waits for your decision to edit a\.txt/.test(await composer.innerText()) && /Step 2 waits for your decision to edit b\.txt/.test(await composer.innerText()), 'the composer to list both decisions', 10_000);
      const list = ui.chat.locator('.list[role="log"]');
      await list.evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 0; });
      const first = composer.locator('[data-waiting-card]').first();
      const shown = await first.getAttribute('data-waiting-card');
      await first.getByRole('button', { name: 'Show' }).click();
      const target = ui.chat.locator(`[data-card-id="${shown}"]`);
      await waitUntil(async () => {
        const [box, listBox] = await Promise.all([target.boundingBox().catch(() => null), list.boundingBox()]);
        return !!box && !!listBox && box.y >= listBox.y - 1 && box.y < listBox.y + listBox.height;
      }, 'Show to bring the waiting card into view', 10_000);
      for (const n of [1, 2]) await lane(n).waitFor({ state: 'visible', timeout: 10_000 });
      // Each step's diff says whose it is in the editor's tab.
      for (const [n, file] of [[1, 'a.txt'], [2, 'b.txt']] as const) {
        await asking(n).getByRole('button', { name: 'Open diff' }).click();
        await ui.wb.page.locator('.tab', { hasText: `${file} ↔ Tandem's proposal for step ${n}` }).first().waitFor({ state: 'visible', timeout: 10_000 });
      }
      // Two step workspaces of the kind under test exist while both steps run.
      if (worktrees) assert.equal(git(ui.ws, 'worktree', 'list').trim().split('\n').length, 3, git(ui.ws, 'worktree', 'list'));
      else assert.equal(overlaySteps(ui.ws).length, 2, overlaySteps(ui.ws).join(', '));
      await ui.wb.screenshot('parallel-02-two-approvals-420');
      await setSidebarWidth(ui.wb.page, 300);
      await ui.wb.screenshot('parallel-03-two-approvals-300');

      // Step 2 is approved while step 1 waits: it goes on to its check, ends done and is applied.
      await asking(2).getByRole('button', { name: 'Approve', exact: true }).click();
      await waitUntil(async () => /grep -q BETA/.test(await asking(2).innerText().catch(() => '')), 'step 2 to ask for its check', 30_000);
      // Its check runs in its own copy of the workspace: the card names the folder as the user knows it.
      assert.equal(await asking(2).locator('[data-command-where]').innerText(), 'in the workspace folder');
      assert.doesNotMatch(await asking(2).innerText(), /tandem-worktrees|\/dev\/shm/);
      // The edit step 2 made (approved, not yet applied): its diff is the step's own proposal.
      const edited2 = ui.chat.locator('[data-card-kind="tool_call"][data-card-id]', { hasText: 'b.txt' }).filter({ has: ui.chat.locator('button', { hasText: 'Open diff' }) }).first();
      await ui.reveal(edited2);
      // Centred: the list's "↓ Latest" button sits over its bottom edge once it no longer follows the end.
      await edited2.evaluate((el) => (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }));
      await edited2.getByRole('button', { name: 'Open diff' }).first().click();
      await ui.wb.page.locator('.tab', { hasText: /b\.txt: before ↔ step 2's change/ }).first().waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await edited2.locator('[data-step-copy]').innerText(), /In step 2's copy: your file changes when the step is applied/);
      assert.equal(await ui.wb.page.locator('.tab', { hasText: /^b\.txt$/ }).count(), 0, 'the workspace\'s b.txt (not what was approved) is not opened');
      await ui.wb.screenshot(`parallel-03b-step2-diff-after-approval-300`);
      assert.match(await asking(1).innerText(), /a\.txt/, 'step 1 still waits on its edit');
      await asking(2).getByRole('button', { name: 'Approve', exact: true }).click();
      await waitUntil(() => ui.read('b.txt') === 'BETA\ngamma\n', 'step 2\'s change applied to the workspace', 30_000);
      assert.equal(ui.read('a.txt'), 'alpha\n', 'step 1 has not been approved: nothing of it in the workspace');
      await waitUntil(async () => /^Step 1 waits for you/.test(await chip().innerText()), 'the status chip to say step 1 waits', 10_000);
      await asking(1).waitFor({ state: 'visible' });
      await ui.wb.screenshot('parallel-04-step2-done-step1-waits-300');

      // Then step 1.
      await asking(1).getByRole('button', { name: 'Approve', exact: true }).click();
      await waitUntil(async () => /grep -q ALPHA/.test(await asking(1).innerText().catch(() => '')), 'step 1 to ask for its check', 30_000);
      await asking(1).getByRole('button', { name: 'Approve', exact: true }).click();
      await waitUntil(() => ui.read('a.txt') === 'ALPHA\n', 'step 1\'s change applied to the workspace', 30_000);
      await ui.idle();

      // Both changes are in the workspace's files, not committed; no worktree is left.
      assert.equal(ui.read('b.txt'), 'BETA\ngamma\n');
      assert.equal(git(ui.ws, 'rev-list', '--count', 'HEAD').trim(), '1');
      assert.deepEqual(git(ui.ws, 'status', '--porcelain').split('\n').filter(Boolean).sort(), [' M a.txt', ' M b.txt']);
      await worktreesGone(ui.ws);
      await ui.reveal(plan);
      await waitUntil(async () => (await plan.locator('[data-step-state="done"]').count()) === 2, 'both steps done on the plan card', 10_000);

      // Each lane holds its own step's cards, its apply among them.
      for (const [n, file] of [[1, 'a.txt'], [2, 'b.txt']] as const) {
        await (await ui.reveal(lane(n))).waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(await lane(n).innerText(), new RegExp(`Step ${n}[\\s\\S]*done`));
        const applied = applyCard(n);
        await (await ui.reveal(applied)).waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(await applied.innerText(), new RegExp(file.replace('.', '\\.')));
      }
      // The run's summary lists the workspace's files, never a worktree's copy (gone by now).
      const files = ui.chat.locator('[data-card-kind="summary"]').last().locator('.summary-files li');
      await (await ui.reveal(files)).first().waitFor({ state: 'visible', timeout: 10_000 });
      assert.deepEqual((await files.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-file')))).sort(), ['a.txt', 'b.txt']);
      await setSidebarWidth(ui.wb.page, 420);
      await ui.wb.screenshot('parallel-05-done-420');

      // Revert per step: step 2's applied change goes back alone.
      const apply2 = applyCard(2);
      await (await ui.reveal(apply2)).getByRole('button', { name: 'Revert this change' }).click();
      await waitUntil(() => ui.read('b.txt') === 'beta\ngamma\n', 'step 2\'s change reverted', 15_000);
      assert.equal(ui.read('a.txt'), 'ALPHA\n', 'step 1\'s change stays');
      await setSidebarWidth(ui.wb.page, 300);
      await ui.wb.screenshot('parallel-06-step2-reverted-300');

      // Revert task: what is left (step 1's change) goes back; nothing is written where a worktree was.
      const header = ui.chat.locator('header');
      await header.getByRole('button', { name: 'Revert task' }).click();
      const confirm = header.getByRole('group', { name: 'Revert the whole task' });
      assert.match(await confirm.innerText(), /Revert the change the agent made/);
      // It names the file step 1's apply changed (before: no list, an apply has no single path).
      assert.deepEqual(await confirm.locator('.revert-files li').allInnerTexts(), ['a.txt']);
      await confirm.getByRole('button', { name: 'Revert all' }).click();
      await waitUntil(() => ui.read('a.txt') === 'alpha\n', 'step 1\'s change reverted by Revert task', 15_000);
      assert.equal(ui.read('b.txt'), 'beta\ngamma\n');
      assert.deepEqual(worktreesLeft(ui.ws), [], 'nothing written where the worktrees were');
    });

    it('Stop while both steps wait: both end stopped, nothing reaches the workspace, no worktree is left', async () => {
      // Stands alone: a failed test before it may leave a run, a step's change or its worktree.
      await ui.idle();
      await worktreesGone(ui.ws);
      fs.writeFileSync(path.join(ui.ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ui.ws, 'b.txt'), 'beta\ngamma\n');
      await ui.pickRole('planner');
      ui.server.replace([calls(tc('propose_plan', { ...PLAN, goal: 'Shout both names again' }))]);
      ui.server.useLanes({
        keyOf: planStepOf,
        steps: {
          1: [calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'ALPHA' }] })), text('Step 1 done.')],
          2: [calls(tc('edit_file', { path: 'b.txt', edits: [{ old_text: 'beta', new_text: 'BETA' }] })), text('Step 2 done.')],
        },
      });
      await ui.send('Shout both names again');
      const plan = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'Shout both names again' }).last();
      await plan.waitFor({ state: 'visible', timeout: 30_000 });
      await plan.getByRole('button', { name: 'Execute plan' }).click();
      await asking(1).waitFor({ state: 'visible', timeout: 40_000 });
      await asking(2).waitFor({ state: 'visible', timeout: 40_000 });

      await ui.chat.getByRole('button', { name: 'Stop' }).click();
      await ui.idle();
      await waitUntil(async () => (await asking(1).count()) + (await asking(2).count()) === 0, 'no approval left waiting', 15_000);
      assert.equal(ui.read('a.txt'), 'alpha\n');
      assert.equal(ui.read('b.txt'), 'beta\ngamma\n');
      await worktreesGone(ui.ws);
      await ui.reveal(plan);
      await waitUntil(async () => (await plan.locator('[data-step-state="stopped"]').count()) === 2, 'both steps stopped on the plan card', 10_000);
      await ui.wb.screenshot('parallel-07-stopped-300');
    });

    it('an amendment in one step is asked labelled by its step; Allow once brings that file back to the workspace with the step\'s own', async () => {
      // Stands alone: whatever an earlier test left (a failed one may leave a run, a step's change or
      // its worktree), no run goes on, no step workspace is left, and the files are as the suite made them.
      await ui.idle();
      await worktreesGone(ui.ws);
      fs.writeFileSync(path.join(ui.ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ui.ws, 'b.txt'), 'beta\ngamma\n');
      fs.rmSync(path.join(ui.ws, 'note.txt'), { force: true });
      await ui.pickRole('planner');
      ui.server.replace([calls(tc('propose_plan', { ...PLAN, goal: 'Shout with a note' }))]);
      ui.server.useLanes({
        keyOf: planStepOf,
        steps: {
          1: [calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'ALPHA' }] })), text('Step 1 done.')],
          2: [calls(tc('edit_file', { path: 'b.txt', edits: [{ old_text: 'beta', new_text: 'BETA' }] })), calls(tc('write_file', { path: 'note.txt', content: 'a note\n' })), text('Step 2 done.')],
        },
      });
      await ui.send('Shout with a note');
      const plan = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'Shout with a note' }).last();
      await plan.waitFor({ state: 'visible', timeout: 30_000 });
      await plan.getByRole('button', { name: 'Execute plan' }).click();
      await approveAsking(2, /b\.txt/);

      // Step 2 writes a file its step does not name: an amendment on a card labelled step 2, while step 1 still waits.
      const amendment = asking(2).locator('[data-amendment="asked"]');
      await waitAsking(2, /Step 2 wants to create note\.txt, which the plan did not name/);
      await waitAsking(1, /a\.txt/);
      await waitAsking(2, /note\.txt/);
      await ui.wb.screenshot('parallel-08-amendment-300');
      await amendment.getByRole('button', { name: 'Allow once' }).click();

      // The rest as asked: step 2's check, step 1's edit and check.
      for (const [n, what] of [[2, /grep -q BETA/], [1, /a\.txt/], [1, /grep -q ALPHA/]] as const) {
        await approveAsking(n, what);
      }
      await waitUntil(() => ui.read('a.txt') === 'ALPHA\n' && ui.read('b.txt') === 'BETA\ngamma\n', 'both steps applied', 30_000);
      await ui.idle();
      // What the person allowed reached the workspace with the step's own change (before: left out of the apply).
      assert.equal(fs.existsSync(path.join(ui.ws, 'note.txt')) && ui.read('note.txt'), 'a note\n');
      // Changing a file its step did not name keeps step 2 from done, as one at a time.
      await ui.reveal(plan);
      await waitUntil(async () => (await plan.locator('li.step').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-step-state')))).join() === 'done,unverified', 'step 1 done, step 2 unverified', 10_000);
      assert.match(await plan.innerText(), /changed note\.txt, which the step's files do not name/);
      await worktreesGone(ui.ws);
      await ui.wb.screenshot('parallel-09-amendment-applied-300');
    });

    it('a step\'s file with unsaved changes in an editor is a conflict: the typing stays as typed, the disk as it was, the card names the file and shows the step\'s change; the other step lands', async () => {
      // Stands alone: no run goes on, no step workspace is left, the files are as the suite made them.
      await ui.idle();
      await worktreesGone(ui.ws);
      fs.writeFileSync(path.join(ui.ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ui.ws, 'b.txt'), 'beta\ngamma\n');
      // The user types in a.txt and does not save (no other editor open: diff tabs are named after a.txt too).
      const page = ui.wb.page;
      await ui.wb.runCommand('View: Close All Editors');
      await ui.wb.runCommand('Go to File');
      await page.keyboard.type('a.txt');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'a.txt' }).first().waitFor({ state: 'visible' });
      await page.keyboard.press('Enter');
      const tab = page.locator('.tab', { hasText: /^a\.txt$/ }).first();
      await tab.waitFor({ state: 'visible', timeout: 10_000 });
      // Its editor: the one in the group holding its tab (the step's proposal may open a diff beside it).
      const editor = page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: /^a\.txt$/ }) }).locator('.monaco-editor').first();
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('typed, not saved');
      await waitUntil(async () => /\bdirty\b/.test((await tab.getAttribute('class')) ?? ''), 'a.txt to show unsaved changes', 10_000);

      await ui.pickRole('planner');
      ui.server.replace([calls(tc('propose_plan', { ...PLAN, goal: 'Shout while the user types' }))]);
      ui.server.useLanes({
        keyOf: planStepOf,
        steps: {
          1: [calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'ALPHA' }] })), text('Step 1 done.')],
          2: [calls(tc('edit_file', { path: 'b.txt', edits: [{ old_text: 'beta', new_text: 'BETA' }] })), text('Step 2 done.')],
        },
      });
      await ui.send('Shout while the user types');
      const plan = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'Shout while the user types' }).last();
      await plan.waitFor({ state: 'visible', timeout: 30_000 });
      await plan.getByRole('button', { name: 'Execute plan' }).click();
      for (const [n, what] of [[2, /b\.txt/], [2, /grep -q BETA/], [1, /a\.txt/], [1, /grep -q ALPHA/]] as const) {
        await approveAsking(n, what);
      }
      await waitUntil(() => ui.read('b.txt') === 'BETA\ngamma\n', 'step 2 applied', 30_000);
      await ui.idle();
      await worktreesGone(ui.ws);

      // Step 1's change did not go past the editor: the disk is as it was, the buffer as typed and still unsaved.
      assert.equal(ui.read('a.txt'), 'alpha\n');
      assert.match((await tab.getAttribute('class')) ?? '', /\bdirty\b/, 'a.txt still has its unsaved changes');
      await tab.click();
      // (The editor lays spaces out as no-break spaces: \s matches both.)
      await waitUntil(async () => /typed,\s+not\s+saved/.test(await editor.innerText()), 'a.txt\'s editor to show what was typed', 10_000);
      // Its apply card names the file and why, and shows the step's change, so nothing of it is lost either.
      // (The chat still holds the earlier tests' "Step 1 applied" cards: this run's is the one naming the conflict.)
      const apply1 = applyCard(1).filter({ hasText: /a\.txt has unsaved changes in the editor/ });
      await (await ui.reveal(apply1)).first().waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await apply1.count(), 1, 'one apply card names a.txt and its unsaved changes');
      assert.match(await apply1.innerText(), /ALPHA/, 'the step\'s change is shown on its card');
      await ui.reveal(plan);
      await waitUntil(async () => (await plan.locator('li.step').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-step-state')))).join() === 'failed,done', 'step 1 failed on the conflict, step 2 done', 10_000);
      assert.match(await plan.innerText(), /a\.txt has unsaved changes in the editor/);
      await ui.wb.screenshot('parallel-10-unsaved-conflict-300');

      // The user's buffer is theirs to keep or drop: dropped here, so no later test meets a "Save?" prompt.
      await tab.click();
      await ui.wb.runCommand('File: Revert File');
      await waitUntil(async () => !/\bdirty\b/.test((await tab.getAttribute('class')) ?? ''), 'a.txt reverted', 10_000);
      await ui.wb.runCommand('View: Close All Editors');
    });
  });
}

