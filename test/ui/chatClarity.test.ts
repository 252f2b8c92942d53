/**
 * What the chat says, read as a user reads it, in the real workbench
 * (code-server + Chromium) against the scripted LLM server, at side bars of 420 and 300 px:
 * a failed command shows its verdict (the output's tail), a rejected edit is neutral and its
 * proposal still opens, the Reviewer's verdict has its own colour and shows by the Review button, a
 * plan run shows where each step begins, a message sent with a decision is shown, the composer and the
 * title bar say what is really going on, New Task starts with a clean header, recent tasks are
 * told apart, and the setup card after a 401 asks for the key with the models in force.
 * Screenshots: test-results/clarity-*.png.
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text, verdict } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';

// Runs in the page (the Node tsconfig has no DOM lib).
declare function getComputedStyle(el: unknown): { backgroundColor: string; display: string };

const step = (n: number, action: string, file: string) => ({ step_number: n, action, reason: 'asked for', tools_needed: ['write_file'], estimated_time: '1 min', files: [file] });
const plan = (goal: string, steps: unknown[]) => ({ format_version: '1.0', goal, steps, estimated_total_time: '5 min', risks: [], prerequisites: [] });

/** A test runner's failure: 40 lines of setup, then the verdict at the very end. */
const FAILING = 'node -e "for (let i = 0; i < 40; i++) console.log(\'setup line \' + i); console.log(\'AssertionError: 190 !== 180\'); process.exit(1)"';

/** Long enough to be cut at 300 px: what tells the two tasks apart must not be in the cut part. */
const SAME = 'Same request twice: check the cart totals with discounts for every region';

describe('What the chat says, read as a user reads it (UI)', function () {
  this.timeout(400_000);
  const ui = chatSuite({
    name: 'clarity',
    files: { 'alpha.txt': 'alpha original\n', 'notes.txt': 'notes\n' },
    role: 'actor',
    settings: { 'tandem.autoApprove.create': true },
  });
  const { input, toolCard, textCard, send, idle } = ui;

  /** Drags the side bar's edge until it is about `px` wide. */
  async function sidebarWidth(px: number): Promise<void> {
    const sidebar = ui.wb.page.locator('.part.sidebar');
    for (let i = 0; i < 4; i++) {
      const box = (await sidebar.boundingBox())!;
      if (Math.abs(box.width - px) < 20) break;
      const edgeX = box.x + box.width;
      // The sash on the side bar's edge (the workbench's own drag handle).
      const sashes = await ui.wb.page.locator('.monaco-sash.vertical').evaluateAll((els) => els.map((e) => {
        const r = (e as unknown as { getBoundingClientRect(): { x: number; width: number; y: number; height: number } }).getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height };
      }));
      const sash = sashes.filter((s) => s.h > 100).sort((a, b) => Math.abs(a.x - edgeX) - Math.abs(b.x - edgeX))[0];
      const x = sash && Math.abs(sash.x - edgeX) < 8 ? sash.x : edgeX;
      const y = box.y + box.height / 2;
      await ui.wb.page.mouse.move(x, y);
      await sleep(200);
      await ui.wb.page.mouse.down();
      await ui.wb.page.mouse.move(x + (px - box.width) / 2, y, { steps: 5 });
      await ui.wb.page.mouse.move(x + (px - box.width), y, { steps: 5 });
      await ui.wb.page.mouse.up();
      await sleep(400);
    }
    await waitUntil(async () => Math.abs(((await sidebar.boundingBox())?.width ?? 0) - px) < 25, `the side bar to be ~${px} px wide`);
    await sleep(400);
  }

  /** Whether the element's box is inside the chat list's visible area. */
  async function inView(el: Locator): Promise<boolean> {
    const list = await ui.chat.locator('.list[role="log"]').boundingBox();
    const box = await el.boundingBox();
    return !!list && !!box && box.y >= list.y - 1 && box.y + Math.min(box.height, 20) <= list.y + list.height + 1;
  }

  it('a failed command shows the end of its output (the verdict), with the head folded; at 300 px its title keeps its words', async () => {
    await sidebarWidth(420);
    ui.server.replace([calls(tc('run_command', { command: FAILING })), text('The test fails: 190 is not 180.')]);
    await send('Run the tests');
    const card = toolCard('setup line').last();
    await card.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('The test fails').waitFor({ state: 'visible', timeout: 30_000 });
    await idle();
    const tail = card.locator('[data-output="tail"] pre.output-tail');
    await tail.waitFor({ state: 'visible' });
    assert.match(await tail.innerText(), /190 !== 180/, 'the verdict is shown without opening anything');
    assert.doesNotMatch(await tail.innerText(), /setup line 0\b/, 'the head is not what is shown');
    const toggle = card.locator('[data-output="tail"] summary', { hasText: /\d+ earlier lines/ });
    await toggle.waitFor({ state: 'visible' });
    await card.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('clarity-01-failed-command-tail-420');
    await toggle.click();
    assert.match(await card.locator('pre.output-head').innerText(), /setup line 0\b/, 'the head opens on demand');
    await toggle.click();

    await sidebarWidth(300);
    const title = card.locator('.tool-summary');
    const m = await title.evaluate((el) => {
      const e = el as unknown as { clientWidth: number; textContent: string };
      return { width: e.clientWidth, text: e.textContent };
    });
    assert.ok(m.width >= 110, `the command's title keeps room for its words at 300 px (${m.width}px: "${m.text}")`);
    const nameShown = await card.locator('.tool-name').evaluate((el) => getComputedStyle(el).display !== 'none');
    assert.equal(nameShown, false, 'the raw tool name gives its room to the title');
    await card.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('clarity-02-failed-command-300');
    await sidebarWidth(420);
  });

  it('a rejected edit reads "Rejected" (not an error), with the message sent with it, and its proposal still opens', async () => {
    ui.server.replace([
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha original', new_text: 'alpha REJECTED' }] })),
      text('Leaving alpha as it is.'),
    ]);
    await send('Change alpha');
    const card = toolCard('alpha.txt').last();
    await card.getByRole('button', { name: 'Reject' }).waitFor({ state: 'visible', timeout: 20_000 });
    await input().fill('keep alpha as it is');
    await ui.chat.getByRole('group', { name: 'Send with your decision' }).getByRole('button', { name: 'Reject with message' }).click();
    await textCard('Leaving alpha as it is.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    const chip = card.locator('.chip.status-rejected');
    assert.equal((await chip.innerText()).trim(), 'Rejected');
    const bg = await chip.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.ok(bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent', `neutral, not the error red (${bg})`);
    assert.equal(await card.locator('details.result-error').count(), 0, 'no "Error" section');
    assert.doesNotMatch(await card.innerText(), /▼?\s*Error\b/);
    assert.match(await card.getByLabel('Your message', { exact: true }).innerText(), /keep alpha as it is/, 'the message sent with Reject is in the chat');
    await card.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('clarity-03-rejected-edit');
    await card.getByRole('button', { name: 'Open rejected diff' }).click();
    await ui.wb.page.locator('.editor-group-container .tab', { hasText: /rejected proposal/ }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await ui.wb.page.locator('.editor-group-container .view-line', { hasText: 'alpha REJECTED' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await ui.wb.screenshot('clarity-04-rejected-diff-open');
    assert.equal(ui.read('alpha.txt'), 'alpha original\n', 'nothing was written');
  });

  it('a message sent with Approve is shown on the card', async () => {
    ui.server.replace([calls(tc('run_command', { command: 'echo approved-run' })), text('Ran it.')]);
    await send('Run the echo');
    const card = toolCard('approved-run').last();
    await card.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    await input().fill('and then stop');
    await ui.chat.getByRole('group', { name: 'Send with your decision' }).getByRole('button', { name: 'Approve with message' }).click();
    await textCard('Ran it.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    assert.match(await card.getByLabel('Your message', { exact: true }).innerText(), /and then stop/);
  });

  it('while a question waits the composer does not say Tandem is working; the title bar shows Stop only while running', async () => {
    // With the Facts view beside it, the chat's actions sit in its own pane header, not the side bar's title.
    const stopAction = ui.wb.page.locator('.part.sidebar .title-actions .action-label[aria-label^="Stop"], .part.sidebar .pane-header .actions .action-label[aria-label^="Stop"]');
    assert.equal(await stopAction.count(), 0, 'no Stop in the title bar while idle');
    ui.server.replace([
      calls(tc('ask_question', {
        question: 'Which file first?', severity: 'minor', allow_custom: false, default: 'alpha',
        options: [{ label: 'alpha', value: 'alpha' }, { label: 'notes', value: 'notes' }],
      })),
      { type: 'text', text: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '), chunkSize: 4, chunkDelayMs: 60 },
    ]);
    await send('Ask me which file');
    const q = ui.chat.locator('[data-card-kind="question"]').last();
    await q.getByRole('button', { name: 'notes' }).waitFor({ state: 'visible', timeout: 20_000 });
    await sleep(500);
    const placeholder = (await input().getAttribute('placeholder')) ?? '';
    assert.doesNotMatch(placeholder, /Tandem is working/, `the composer says it waits for the user (${placeholder})`);
    assert.match(placeholder, /your answer/);
    // The question card is what waits: no tool card with a blue "running" pill above it.
    assert.equal(await ui.toolCard('Which file first?').count(), 0, 'the ask_question call shows only as its question card while it waits');
    const sevBg = await q.locator('.chip.sev-minor').evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.match(sevBg, /rgba\(0, 0, 0, 0\)|transparent/, `the "minor" label is not a filled (running-blue) pill: ${sevBg}`);
    await ui.wb.screenshot('clarity-05-question-waiting');
    await q.getByRole('button', { name: 'notes' }).click();
    await textCard('w1 ').last().waitFor({ state: 'visible', timeout: 20_000 });
    await stopAction.first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('clarity-06-stop-while-running');
    await idle();
    await waitUntil(async () => (await stopAction.count()) === 0, 'Stop to leave the title bar once the run ended');
  });

  it('after Review the verdict is in view by the Review button, in a colour of its own (not the idle chip\'s), without jargon', async () => {
    await ui.pickRole('planner');
    const steps = Array.from({ length: 9 }, (_, i) => step(i + 1, `Write part ${i + 1} of the notes, with a long enough description to take some room on the card`, 'notes.txt'));
    ui.server.replace([calls(tc('propose_plan', plan('Write the notes in nine parts', steps))), verdict('revise', ['steps 3 and 4 overlap: merge them'])]);
    await send('Plan the notes');
    const card = ui.chat.locator('[data-card-kind="plan"]').last();
    await card.getByRole('button', { name: 'Review', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await idle();
    await card.getByRole('button', { name: 'Review', exact: true }).scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: 'Review', exact: true }).click();
    await card.locator('[data-plan-review] [data-verdict="revise"]').waitFor({ state: 'attached', timeout: 30_000 });
    await idle();
    await sleep(800);
    // Said again by the buttons the user clicked: the card's own verdict block is far above.
    const chipEl = card.locator('.actions [data-verdict="revise"]');
    assert.ok(await inView(chipEl), 'the verdict is in view where Review was clicked');
    assert.match(await chipEl.innerText(), /revise/);
    const idleBg = await ui.chat.locator('[data-agent-state="idle"]').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    const reviseBg = await chipEl.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.notEqual(reviseBg, idleBg, `revise (${reviseBg}) does not look like Idle (${idleBg})`);
    assert.doesNotMatch(await card.locator('[data-plan-review]').innerText(), /reviewer@/, 'no prompt-version jargon in view');
    await ui.wb.screenshot('clarity-07-review-verdict-in-view-420');
  });

  it('a plan run shows where each step begins (a lane header per step), also at 300 px', async () => {
    ui.server.replace([
      calls(tc('propose_plan', plan('Two small files', [step(1, 'Create one.txt', 'one.txt'), step(2, 'Create two.txt', 'two.txt')]))),
      calls(tc('write_file', { path: 'one.txt', content: '1\n' })), text('Wrote one.txt.'),
      calls(tc('write_file', { path: 'two.txt', content: '2\n' })), text('Wrote two.txt.'),
    ]);
    await send('Plan two files');
    const card = ui.chat.locator('[data-card-kind="plan"]', { hasText: 'Two small files' }).last();
    await card.getByRole('button', { name: 'Execute plan' }).click({ timeout: 30_000 });
    await textCard('Wrote two.txt.').waitFor({ state: 'visible', timeout: 40_000 });
    await idle();
    const lane2 = ui.chat.locator('[data-lane-step="2"]').last();
    await lane2.scrollIntoViewIfNeeded();
    assert.match(await lane2.innerText(), /Step 2[\s\S]*Create two\.txt/);
    await ui.wb.screenshot('clarity-08-step-lanes');
    await sidebarWidth(300);
    await lane2.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('clarity-09-step-lanes-300');
    await sidebarWidth(420);
  });

  it('New Task clears the last task\'s outcome and context; recent tasks with the same request are told apart, dated in full', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind="text"]').count()) === 0, 'an empty chat');
    await ui.pickRole('actor');
    ui.server.replace([text('First answer.')]);
    await send(SAME);
    await textCard('First answer.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    await ui.wb.runCommand('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind="text"]').count()) === 0, 'an empty chat');
    await ui.pickRole('actor');
    ui.server.replace([]); // the script is empty: the request fails (500), the turn ends with an error
    await send(SAME);
    const header = ui.chat.locator('header');
    await header.locator('[data-turn-outcome="error"]').waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.getByRole('meter', { name: 'Context window used' }).waitFor({ state: 'visible' });
    await ui.wb.screenshot('clarity-10-before-new-task');
    await ui.wb.runCommand('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind="text"]').count()) === 0, 'an empty chat');
    await sleep(800);
    assert.equal(await header.locator('[data-turn-outcome]').count(), 0, 'no "Last turn ended with an error" from the old task');
    assert.equal(await ui.chat.getByRole('meter', { name: 'Context window used' }).count(), 0, 'no context figure from the old task');
    const recent = ui.chat.getByRole('navigation', { name: 'Recent tasks' });
    await recent.waitFor({ state: 'visible', timeout: 10_000 });
    const year = String(new Date().getFullYear());
    for (const meta of await recent.locator('.recent-meta').allInnerTexts()) assert.ok(meta.includes(year), `a full date (${meta})`);
    // Told apart by what a user can read, also at 300 px where the long request is cut: each entry's
    // parts that show whole (the title, the line under it) differ between the two.
    for (const width of [420, 300]) {
      await sidebarWidth(width);
      const shown = await recent.locator('li').evaluateAll((items, same) => items.map((li) => {
        const parts = Array.from((li as unknown as { children: ArrayLike<{ innerText: string; scrollWidth: number; clientWidth: number }> }).children);
        return { title: parts[0]?.innerText ?? '', whole: parts.filter((p) => p.scrollWidth <= p.clientWidth + 1).map((p) => p.innerText).join(' | ') };
      }).filter((e) => e.title.startsWith((same as string).slice(0, 20))), SAME);
      assert.equal(shown.length, 2, `${width} px: both tasks listed (${JSON.stringify(shown)})`);
      assert.notEqual(shown[0]!.whole, shown[1]!.whole, `${width} px: told apart by what shows whole (${JSON.stringify(shown)})`);
      await ui.wb.screenshot(`clarity-11-new-task-clean-recent-${width}`);
    }
    await sidebarWidth(420);
  });

  it('Set API key after a 401 from a local endpoint: the key is needed, and the models in force are filled in', async () => {
    await ui.pickRole('actor');
    ui.server.replace([{ type: 'fault', fault: 'server_error', status: 401, message: 'Invalid API key' }]);
    await send('Hello after a key change');
    const err = ui.chat.locator('[data-card-kind="error"]').last();
    await err.getByRole('button', { name: 'Set API key' }).click({ timeout: 20_000 });
    const setup = ui.chat.getByRole('region', { name: 'Set up Tandem' });
    await setup.waitFor({ state: 'visible', timeout: 10_000 });
    const text = await setup.innerText();
    assert.doesNotMatch(text, /optional/i, 'the key is not said to be optional');
    assert.match(text, /needed/);
    assert.notEqual(await setup.locator('input[aria-label="API key"]').getAttribute('placeholder'), 'not needed for local servers');
    for (const label of ['Planner model', 'Actor model', 'Reviewer model']) {
      assert.equal(await setup.locator(`[aria-label="${label}"]`).inputValue(), 'scripted-model', `${label} is the one configured`);
    }
    await ui.wb.screenshot('clarity-12-setup-after-401');
    await setup.getByRole('button', { name: 'Close setup' }).click();
    await idle();
  });
});
