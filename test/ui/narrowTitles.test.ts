/**
 * What a card's title and the header's state say stays readable in a narrow side bar (300 and 420
 * px): the state's words whole ("Waiting for you", not "Waiting f…": the model name on the row gives
 * way), an edit's file name whole when its folder is cut ("Edit src/comp…/CartSummary.tsx", not
 * "Edit …"), a command's first words beside its exit chip, and a plan step's approval with its Step
 * tag the same way. Screenshots: test-results/narrow-*.png.
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';

const DEEP = 'src/components/cart/summary/CartSummary.tsx';
const LONG_COMMAND = 'node -e "process.exit(1)" -- --reporter=spec --grep "cart totals with discounts"';

/** An element as the page lays it out (the Node tsconfig has no DOM lib). */
interface Box { scrollWidth: number; clientWidth: number; innerText: string; getBoundingClientRect(): { left: number; right: number } }

describe('Titles readable in a narrow side bar (UI)', function () {
  this.timeout(300_000);
  // No context window set (the product's default): the scripted endpoint reports none, so one is assumed.
  const ui = chatSuite({ name: 'narrow', files: { [DEEP]: 'export const total = 1;\n', 'README.md': '# shop\n' }, settings: { 'tandem.contextWindow': undefined } });

  /** The header's state chip: its words whole, not cut by an ellipsis. */
  async function stateWhole(width: number, words: string): Promise<void> {
    const chip = ui.chat.locator('header .state');
    const m = await chip.evaluate((el) => { const e = el as unknown as Box; return { text: e.innerText, cut: e.scrollWidth > e.clientWidth + 1 }; });
    assert.equal(m.text, words, `${width} px: the state chip says "${words}"`);
    assert.equal(m.cut, false, `${width} px: the state chip's words are whole (${JSON.stringify(m)})`);
  }

  /**
   * How much of a title's part (`part` inside the card's `.tool-summary`) can be read: the first
   * `chars` characters are inside the title's box, unclipped by the part's own box either.
   */
  async function readable(card: Locator, part: string, chars: number): Promise<{ ok: boolean; shown: string }> {
    return card.locator('.tool-summary').evaluate((summary, [sel, n]) => {
      const s = summary as unknown as Box & { querySelector(q: string): (Box & { firstChild: unknown; textContent: string }) | null; ownerDocument: { createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getBoundingClientRect(): { right: number } } } };
      const el = s.querySelector(sel as string);
      if (!el) return { ok: false, shown: `no ${sel as string}` };
      // The last text node under it (a split path: its file name).
      let node = el as unknown as { lastChild: unknown; nodeType: number; textContent: string };
      while (node.nodeType !== 3 && node.lastChild) node = node.lastChild as typeof node;
      const textNode = node as unknown as { textContent: string };
      const len = Math.min(n as number, textNode.textContent.length);
      const range = s.ownerDocument.createRange();
      const fromEnd = (sel as string).includes('path');
      range.setStart(textNode, fromEnd ? textNode.textContent.length - len : 0);
      range.setEnd(textNode, fromEnd ? textNode.textContent.length : len);
      const right = range.getBoundingClientRect().right;
      const clip = Math.min(s.getBoundingClientRect().right, (el as unknown as Box).getBoundingClientRect().right);
      const inner = (node as unknown as { parentElement: Box }).parentElement;
      // A file name is whole (not even its last letters cut); a command may be cut after its start.
      const whole = !fromEnd || inner.scrollWidth <= inner.clientWidth + 1;
      return { ok: right <= clip + 1 && right <= inner.getBoundingClientRect().right + 1 && whole, shown: `${s.innerText.replace(/\s+/g, ' ')} (${Math.round(right)} vs ${Math.round(clip)})` };
    }, [part, chars] as const);
  }

  it('an edit waiting for approval: the state chip says "Waiting for you" whole and the title keeps the file name; a failed command keeps its first words beside "failed (exit 1)"', async () => {
    await ui.pickRole('actor');
    await setSidebarWidth(ui.wb.page, 300);
    ui.server.replace([
      calls(tc('edit_file', { path: DEEP, edits: [{ old_text: 'total = 1', new_text: 'total = 2' }] })),
      calls(tc('run_command', { command: LONG_COMMAND })),
      text('Edited and ran.'),
    ]);
    await ui.send('Change the total, then run the cart tests');
    const edit = ui.toolCard('CartSummary.tsx').last();
    await edit.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.locator('header [data-agent-state="waiting_on_user"]').waitFor({ state: 'visible', timeout: 30_000 });
    for (const width of [300, 420]) {
      await setSidebarWidth(ui.wb.page, width);
      await stateWhole(width, 'Waiting for you');
      const name = await readable(edit, '.path-link', 'CartSummary.tsx'.length);
      assert.ok(name.ok, `${width} px: the edit's title shows the whole file name: ${name.shown}`);
      await edit.scrollIntoViewIfNeeded();
      await ui.wb.screenshot(`narrow-01-edit-waits-${width}`);
    }
    await edit.getByRole('button', { name: 'Approve' }).click();
    const run = ui.toolCard('cart totals').last();
    await run.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await run.locator('.chip[data-exit="failed"]').waitFor({ state: 'visible', timeout: 30_000 });
    await ui.idle();
    for (const width of [300, 420]) {
      await setSidebarWidth(ui.wb.page, width);
      const start = await readable(run, '.headline-rest', 'node -e "process'.length);
      assert.ok(start.ok, `${width} px: the command's first words are readable beside its exit chip: ${start.shown}`);
      await run.scrollIntoViewIfNeeded();
      await ui.wb.screenshot(`narrow-02-command-failed-${width}`);
    }
  });

  it('a plan step\'s edit waiting for approval: "Step 1" and the file name both shown at 300 and 420 px', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await ui.roleButton().and(ui.chat.locator('[data-role="planner"]')).waitFor({ state: 'visible', timeout: 15_000 });
    const plan = {
      format_version: '1.0', goal: 'Raise the total',
      steps: [{ step_number: 1, action: 'Set the total to 3', reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1 min', files: [DEEP] }],
      estimated_total_time: '1 min', risks: [], prerequisites: [],
    };
    ui.server.replace([calls(tc('propose_plan', plan)), calls(tc('edit_file', { path: DEEP, edits: [{ old_text: 'export const total', new_text: 'export const total3' }] })), text('Step 1 done.')]);
    await ui.send('Raise the total to three');
    await ui.chat.locator('[data-card-kind="plan"]').last().getByRole('button', { name: 'Execute plan' }).click({ timeout: 20_000 });
    const edit = ui.toolCard('CartSummary.tsx').filter({ has: ui.chat.locator('[data-step-tag="1"]') }).last();
    await edit.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    for (const width of [300, 420]) {
      await setSidebarWidth(ui.wb.page, width);
      const name = await readable(edit, '.path-link', 'CartSummary.tsx'.length);
      assert.ok(name.ok, `${width} px: beside "Step 1" the title shows the whole file name: ${name.shown}`);
      await edit.scrollIntoViewIfNeeded();
      await ui.wb.screenshot(`narrow-03-step-edit-waits-${width}`);
    }
    // Measured: the run is stopped here, not carried on (the next test starts a task of its own).
    await ui.chat.getByRole('button', { name: 'Stop' }).click();
    await ui.idle();
  });

  it('a window the endpoint does not report is said on the Context meter, not as a paragraph at the start of the task', async () => {
    // Whatever ran before, a new task of its own.
    const stop = ui.chat.getByRole('button', { name: 'Stop' });
    if (await stop.isVisible()) await stop.click();
    await ui.idle();
    await ui.wb.runCommand('Tandem: New Task');
    await ui.roleButton().and(ui.chat.locator('[data-role="planner"]')).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.pickRole('actor');
    ui.server.replace([text('The total is 1.')]);
    await ui.send('What is the total?');
    await ui.textCard('The total is 1.').waitFor({ state: 'visible', timeout: 20_000 });
    await ui.idle();
    const meter = ui.chat.getByRole('meter', { name: 'Context window used' });
    await meter.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await meter.innerText(), /~/, 'the window shows as assumed');
    assert.match((await meter.getAttribute('title')) ?? '', /no window for scripted-model: Tandem assumes [\d,]+ tokens/);
    assert.equal(await ui.chat.locator('[data-card-kind="text"]', { hasText: /is not known/ }).count(), 0, 'no paragraph about the window in the chat');
    await ui.wb.screenshot('narrow-04-assumed-window-420');
  });
});
