/**
 * Facts in the real workbench (code-server + Chromium), as a user meets them: the Reviewer's verdict
 * on a plan learns a fact → a Learned card in the chat ("Learned: … — from src/app.py:1-3", Forget);
 * the Facts view lists it with its citation, which opens the cited lines; the next request carries it
 * and the chat names it ("Using 1 fact"); turned off, the view says so and nothing is sent; Forget
 * on the card takes it out of the view and the prompt.
 * Screenshots: test-results/facts-*.png.
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { calls, json, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';

const APP = ['from flask import Flask', '', 'app = Flask(__name__)', '', '@app.route("/")', 'def index():', '    return "hi"', ''].join('\n');
const FACT = 'The web app uses Flask, not FastAPI';
const PLAN = {
  format_version: '1.0', goal: 'Add a health route',
  steps: [{ step_number: 1, action: 'Add /health to src/app.py', reason: 'monitoring', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['src/app.py'], check: 'grep -q health src/app.py' }],
  estimated_total_time: '1 min', risks: [], prerequisites: [],
};

describe('facts in the real workbench (UI)', function () {
  this.timeout(300_000);
  // tandem.facts.max 3: the suite keeps at most 3 facts until its last test passes it.
  const ui = chatSuite({ name: 'facts', files: { 'src/app.py': APP }, factsView: true, settings: { 'tandem.facts.max': 3 } });
  const { input } = ui;
  const page = () => ui.wb.page;
  /**
   * Runs a context-menu item and waits for the input box it opens. The workbench's menu ignores a
   * click that lands right after it opened (an idle machine is that fast), so the click is repeated
   * while the menu is still there.
   */
  async function runMenuItem(item: Locator): Promise<void> {
    const box = page().locator('.quick-input-widget');
    await waitUntil(async () => {
      if (await box.isVisible()) return true;
      if (await item.isVisible()) await item.click({ timeout: 2_000 }).catch(() => undefined);
      return false;
    }, 'the menu item to open its input box', 20_000);
  }
  const factRow = (hasText: string) => page().getByRole('treeitem', { name: new RegExp(`Fact: ${hasText}`) });
  const systemOf = (i: number): string => String(ui.server.chatRequests()[i].messages[0].content);

  it('a review learns a fact: the Learned card, then the Facts view with its citation link opening the lines', async () => {
    ui.server.replace([
      calls(tc('propose_plan', PLAN)),
      json({ verdict: 'ok', reasons: ['small and checkable'], concerns: [], learn: { text: FACT, file: 'src/app.py', start_line: 1, end_line: 3, command: null } }),
    ]);
    await input().click();
    await input().fill('Add a health route to src/app.py');
    await input().press('Enter');
    const plan = ui.chat.locator('[data-card-kind="plan"]').first();
    await plan.waitFor({ state: 'visible', timeout: 60_000 });
    await plan.getByRole('button', { name: 'Review', exact: true }).click();
    const learned = ui.chat.locator('[data-card-kind="learned"]');
    await learned.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await learned.innerText(), /Learned:\s*The web app uses Flask, not FastAPI\s*— from src\/app\.py:1-3\s*Forget/);
    await ui.wb.screenshot('facts-01-learned-card');

    // The view beside the chat shows it by itself (a learned card refreshes it).
    const row = factRow(FACT);
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.runCommand('Tandem: Focus on Facts View');
    assert.match(await row.innerText(), /src\/app\.py:1-3 · today/);
    await ui.wb.screenshot('facts-02-facts-view');
    // The citation is a link: a click opens the file at the cited lines.
    await row.click();
    await page().locator('.tab.active', { hasText: 'app.py' }).waitFor({ state: 'visible', timeout: 20_000 });
    await page().locator('.monaco-editor .selected-text').first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('facts-03-citation-opened');
  });

  it('the next request carries it and the chat names it; turned off, the view says so and none is sent', async () => {
    ui.server.replace([text('Noted, Flask it is.'), text('Without facts.')]);
    const before = ui.server.chatRequests().length;
    await ui.send('What framework do we use?');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Noted, Flask it is.' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(systemOf(before).includes(`- ${FACT} [src/app.py:1-3]`), 'the Planner was sent the fact');
    const used = ui.chat.locator('[data-card-kind="facts"]').last();
    assert.equal((await used.locator('summary').innerText()).trim(), 'Using 1 fact');
    await used.locator('summary').click();
    // Opened by the click (the details render on the next frame: under load, not at once).
    await waitUntil(async () => /The web app uses Flask, not FastAPI\s*— src\/app\.py:1-3/.test(await used.innerText()), 'the facts card to open to its fact', { timeoutMs: 10_000, everyMs: 200 });

    await ui.wb.runCommand('Tandem: Turn Facts Off');
    await page().getByText('Facts are turned off (tandem.facts.enabled): none are learned or sent.').first().waitFor({ state: 'visible', timeout: 20_000 });
    await factRow(FACT).waitFor({ state: 'visible' });
    await ui.wb.screenshot('facts-04-disabled');
    const off = ui.server.chatRequests().length;
    await ui.send('And now?');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Without facts.' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.doesNotMatch(systemOf(off), /Facts about this project/);
    await ui.wb.runCommand('Tandem: Turn Facts On');
    await waitUntil(async () => (await page().getByText('Facts are turned off').count()) === 0, 'the view to drop its message', { timeoutMs: 20_000, everyMs: 300 });
  });

  it('Forget on the Learned card: the card says forgotten, the view and the next request no longer have it', async () => {
    const learned = ui.chat.locator('[data-card-kind="learned"]');
    await ui.reveal(learned);
    await learned.getByRole('button', { name: 'Forget' }).click();
    await learned.locator('.learned-label', { hasText: 'Forgotten:' }).waitFor({ state: 'visible', timeout: 20_000 });
    await factRow(FACT).waitFor({ state: 'detached', timeout: 20_000 });
    await page().getByText('No facts about this workspace yet.').first().waitFor({ state: 'visible', timeout: 20_000 });
    await ui.wb.screenshot('facts-05-forgotten');
    ui.server.replace([text('Nothing remembered.')]);
    const n = ui.server.chatRequests().length;
    await ui.send('Anything about the framework?');
    await ui.chat.locator('[data-card-kind="text"]', { hasText: 'Nothing remembered.' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.doesNotMatch(systemOf(n), /Flask, not FastAPI/);
  });

  it('Tandem: Remember… cites the selected lines; Forget in the Facts view removes it', async () => {
    // The editor still has lines 1-3 selected (the citation opened them).
    await ui.wb.runCommand('Tandem: Remember…');
    // The palette's own list goes first; the command's input box says what it will cite.
    await page().locator('.quick-input-widget', { hasText: 'One sentence about this project, citing src/app.py:1-3' }).waitFor({ state: 'visible', timeout: 10_000 });
    const box = page().locator('.quick-input-widget input');
    await box.fill('The app object is created in src/app.py');
    await box.press('Enter');
    // Then where it is kept: this workspace (with its citation) or every workspace (without it).
    await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'Every workspace (global)' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await page().locator('.quick-input-widget').innerText(), /This workspace\s*citing src\/app\.py:1-3[\s\S]*Every workspace \(global\)\s*without the citation: lines belong to one workspace/);
    await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'This workspace' }).click();
    const row = factRow('The app object is created in src/app.py');
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await row.innerText(), /src\/app\.py:1-3/);
    await row.hover();
    await row.locator('.action-label[aria-label="Forget"]').click();
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    await ui.wb.screenshot('facts-06-forgot-in-view');
    await sleep(100);
  });

  it('Remember… as global: kept for every workspace, shown in the Facts view as its own group', async () => {
    await ui.wb.runCommand('Tandem: Remember…');
    const box = page().locator('.quick-input-widget input');
    await page().locator('.quick-input-widget', { hasText: 'One sentence about this project' }).waitFor({ state: 'visible', timeout: 10_000 });
    await box.fill('Prefer pnpm over npm in every project');
    await box.press('Enter');
    await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'Every workspace (global)' }).click();
    const group = page().getByRole('treeitem', { name: /Global facts/ });
    await group.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await group.innerText(), /Global facts\s*1 · every workspace/);
    assert.equal(await group.getAttribute('aria-label'), 'Global facts: 1, sent in every workspace');
    const row = page().getByRole('treeitem', { name: /Fact: Prefer pnpm over npm in every project, from your own note, global/ });
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await row.getAttribute('aria-level'), '2', 'inside the Global group');
    await ui.wb.screenshot('facts-06b-global-group');
    await row.hover();
    await row.locator('.action-label[aria-label="Forget"]').click();
    await group.waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('Consolidate Facts…: "Facts: 2 → 1" is shown before anything is replaced; Keep replaces, Undo puts them back', async () => {
    const learn = (t: string, line: number) => json({ verdict: 'ok', reasons: ['fine'], concerns: [], learn: { text: t, file: 'src/app.py', start_line: line, end_line: line, command: null } });
    const ids: string[] = [];
    for (const [t, line] of [['The app is a Flask app', 1], ['The app object comes from Flask', 3]] as const) {
      ui.server.replace([calls(tc('propose_plan', PLAN)), learn(t, line)]);
      await ui.send(`Plan around: ${t}`);
      const plan = ui.chat.locator('[data-card-kind="plan"]').last();
      await plan.getByRole('button', { name: 'Review', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
      await plan.getByRole('button', { name: 'Review', exact: true }).click();
      const card = ui.chat.locator('[data-card-kind="learned"]', { hasText: t });
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      ids.push((await card.locator('[data-fact-id]').getAttribute('data-fact-id'))!);
    }
    await factRow('The app is a Flask app').waitFor({ state: 'visible', timeout: 20_000 });
    ui.server.replace([text(JSON.stringify({ facts: [{ from: ids, text: 'The app is a Flask app, created in src/app.py' }], drop: [] }))]);
    await ui.wb.runCommand('Tandem: Consolidate Facts…');
    const dialog = page().locator('.monaco-dialog-box', { hasText: 'Facts: 2 → 1' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await dialog.innerText(), /merged .* → .*: The app is a Flask app, created in src\/app\.py[\s\S]*Nothing is replaced unless you keep it/);
    await factRow('The app object comes from Flask').waitFor({ state: 'visible' });
    await ui.wb.screenshot('facts-07-consolidate-proposal');
    await dialog.getByRole('button', { name: 'Keep' }).click();
    await factRow('The app is a Flask app, created in src/app.py').waitFor({ state: 'visible', timeout: 20_000 });
    await factRow('The app object comes from Flask').waitFor({ state: 'detached', timeout: 20_000 });
    // As a toast, or in the notification centre when the workbench kept it quiet.
    const toast = page().locator('.notification-list-item', { hasText: 'Facts: 2 → 1: kept.' }).first();
    if (!(await toast.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) {
      await ui.wb.runCommand('Notifications: Show Notifications');
      await toast.waitFor({ state: 'visible', timeout: 10_000 });
    }
    await ui.wb.screenshot('facts-08-consolidated');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await factRow('The app object comes from Flask').waitFor({ state: 'visible', timeout: 20_000 });
    await factRow('The app is a Flask app, created').waitFor({ state: 'detached', timeout: 20_000 });
  });

  it("a message's context menu: Remember… cites the lines the message names, and the fact is in the Facts view", async () => {
    ui.server.replace([text('The routes are declared in src/app.py:5-7, with Flask decorators.')]);
    await ui.send('Where are the routes?');
    const answer = ui.chat.locator('[data-card-kind="text"]', { hasText: 'The routes are declared in' });
    await answer.waitFor({ state: 'visible', timeout: 30_000 });
    await answer.click({ button: 'right' });
    const item = page().locator('.monaco-menu .action-item', { hasText: 'Remember…' });
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('facts-09-message-menu');
    await runMenuItem(item);
    await page().locator('.quick-input-widget', { hasText: 'One sentence about this project, citing src/app.py:5-7 (from the message)' }).waitFor({ state: 'visible', timeout: 10_000 });
    const box = page().locator('.quick-input-widget input');
    await box.fill('Routes are declared with Flask decorators');
    await box.press('Enter');
    await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'This workspace' }).click();
    const row = factRow('Routes are declared with Flask decorators, from src/app.py:5-7');
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await row.innerText(), /src\/app\.py:5-7 · today/);
    await ui.wb.screenshot('facts-10-remembered-from-message');
  });


  it('past tandem.facts.max a notification offers Consolidate, once per task', async () => {
    const rememberText = async (t: string) => {
      await ui.wb.runCommand('Tandem: Remember…');
      await page().locator('.quick-input-widget', { hasText: 'One sentence about this project' }).waitFor({ state: 'visible', timeout: 10_000 });
      await page().locator('.quick-input-widget input').fill(t);
      await page().locator('.quick-input-widget input').press('Enter');
      await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'This workspace' }).click();
      await factRow(t).waitFor({ state: 'visible', timeout: 20_000 });
    };
    const offer = (n: number) => page().locator('.notification-list-item', { hasText: `Tandem: ${n} facts about this workspace, past tandem.facts.max (3).` });
    const shown = async (n: number) => {
      if (await offer(n).first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) return;
      await ui.wb.runCommand('Notifications: Show Notifications');
      await offer(n).first().waitFor({ state: 'visible', timeout: 10_000 });
    };
    // Three facts so far (the two from the reviews, the one from the message): the fourth passes the maximum.
    await rememberText('The index route returns hi');
    await shown(4);
    await ui.wb.screenshot('facts-11-consolidate-offered');
    // The same task, one more fact: not asked again.
    await rememberText('The app module is src/app.py');
    await sleep(1500);
    assert.equal(await offer(5).count(), 0, 'offered once per task');
    // The offer's action runs Consolidate Facts…: its proposal, before anything is replaced.
    ui.server.replace([text(JSON.stringify({ facts: [], drop: [] }))]);
    await offer(4).first().getByRole('button', { name: 'Consolidate…' }).click();
    const dialog = page().locator('.monaco-dialog-box', { hasText: 'Facts: 5 → 5' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    // A new task asks again.
    await ui.wb.runCommand('Tandem: New Task');
    // New Task puts the focus in the chat's composer; Remember… after that (its input box closes when it loses focus).
    await ui.chat.getByText('Describe a task below.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(async () => ui.chat.locator('textarea:focus').count().then((n) => n > 0), 'the composer to take the focus', { timeoutMs: 10_000, everyMs: 200 }).catch(() => undefined);
    await rememberText('Flask serves the app');
    await shown(6);
  });

  it("a message's citation refused (no such file): the sentence is kept without it when the user says so, not lost", async () => {
    // The notification centre the previous test opened is closed first: the context menu opens beside it.
    await ui.wb.runCommand('Notifications: Clear All Notifications');
    ui.server.replace([text('The settings live in src/settings.py:1-4.')]);
    await ui.send('Where are the settings?');
    const answer = ui.chat.locator('[data-card-kind="text"]', { hasText: 'The settings live in' });
    await answer.waitFor({ state: 'visible', timeout: 30_000 });
    await answer.click({ button: 'right' });
    const item = page().locator('.monaco-menu .action-item', { hasText: 'Remember…' });
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    await runMenuItem(item);
    await page().locator('.quick-input-widget', { hasText: 'citing src/settings.py:1-4 (from the message)' }).waitFor({ state: 'visible', timeout: 10_000 });
    await page().locator('.quick-input-widget input').fill('Settings are read from the environment');
    await page().locator('.quick-input-widget input').press('Enter');
    await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'This workspace' }).click();
    const warning = page().locator('.notification-list-item', { hasText: 'Not remembered with its citation: Refused: src/settings.py does not exist' }).first();
    // As a toast, or in the notification centre when the workbench kept it quiet.
    if (!(await warning.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) {
      await ui.wb.runCommand('Notifications: Show Notifications');
      await warning.waitFor({ state: 'visible', timeout: 10_000 });
    }
    await ui.wb.screenshot('facts-10b-citation-refused');
    await warning.getByRole('button', { name: 'Keep Without the Citation' }).click();
    await factRow('Settings are read from the environment, from your own note').waitFor({ state: 'visible', timeout: 20_000 });
  });
});
