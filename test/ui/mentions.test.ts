/**
 * Context in, in the real workbench (code-server + Chromium) against the scripted LLM server: the
 * `@` picker (files, folders, problems, selection, git changes, terminal) driven from the keyboard,
 * chips of what a message attaches, the sent message's attachments collapsed on the user's card and
 * still there when the task is resumed from history, Add Selection to Tandem, and a path in the
 * model's answer opening the file at its lines. Screenshots: test-results/mentions-*.png.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';
import { userMessages } from '../support/modelRequests';

const CART = 'export class Cart {\n  items: string[] = [];\n  total(): number { return this.items.length; }\n}\n';
const PRICE = 'export function price(sku: string): number {\n  return sku.length;\n}\n';
const BROKEN = 'export const count: number = "three";\n';

describe('Mentions and editor context in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'mentions',
    files: {
      'src/cart.ts': CART,
      'src/price.ts': PRICE,
      'src/broken.ts': BROKEN,
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
      '.gitignore': '.env\n',
      '.env': 'API_KEY=sk-live-should-never-leave\n',
    },
    prepare(dir) {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
      git('init', '-q');
      git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
      git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'start');
      fs.writeFileSync(path.join(dir, 'src', 'price.ts'), PRICE.replace('sku.length', 'sku.length * 2'));
    },
    settings: { 'security.workspace.trust.enabled': false, 'tandem.contextWindow': undefined },
  });
  const { input } = ui;

  const picker = (): Locator => ui.chat.locator('.mention-picker');
  const option = (label: string): Locator => ui.chat.locator('.mention-picker li', { hasText: label });
  const userCard = (t: string): Locator => ui.chat.locator('[data-card-kind="text"]', { hasText: t });

  /** Sends what is in the composer and waits for the answer; returns the user message the model got (the request whose last user message has `marker`). */
  async function sendAndWait(marker: string, answer: string, answerShown = answer): Promise<string> {
    ui.server.replace([text(answer)]);
    await input().press('Enter');
    await userCard(marker).first().waitFor({ state: 'visible', timeout: 20_000 });
    await ui.chat.locator('[data-card-kind="text"]', { hasText: answerShown }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const sent = ui.server.chatRequests().map((b) => userMessages(b).at(-1) ?? '').filter((m) => m.includes(marker)).at(-1);
    assert.ok(sent, `a request carried "${marker}"`);
    return sent;
  }

  /**
   * Types `@query` and picks `label` with the keyboard (arrows until it is the active option, then
   * Enter). The first query of a window waits for the editor's file search to index the workspace,
   * which on a loaded machine took longer than 15 s: the wait is for the option, however long that is.
   */
  async function mention(query: string, label: string): Promise<void> {
    await input().pressSequentially(`@${query}`, { delay: 30 });
    await option(label).first().waitFor({ state: 'visible', timeout: 90_000 });
    for (let i = 0; i < 30; i++) {
      const active = await ui.chat.locator('.mention-picker li.active').innerText();
      if (active.startsWith(label)) break;
      await input().press('ArrowDown');
    }
    await input().press('Enter');
    await picker().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }

  async function openFile(rel: string): Promise<void> {
    await ui.wb.page.keyboard.press('Control+P');
    const q = ui.wb.page.locator('.quick-input-widget input.input');
    await q.waitFor({ state: 'visible' });
    await q.fill(rel);
    await ui.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(rel) }).first().waitFor({ state: 'visible' });
    await ui.wb.page.keyboard.press('Enter');
    await ui.wb.page.locator('.editor-group-container .tab.active', { hasText: path.basename(rel) }).waitFor({ state: 'visible' });
  }

  // Each test starts from an empty composer, so one that failed half-way leaves nothing typed for the next.
  beforeEach(async () => {
    if ((await input().inputValue()) === '') return;
    await input().fill('');
    await picker().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  });

  it('the @ picker offers each kind, picks from the keyboard, shows chips, and the message carries what was picked', async () => {
    // A problem to mention: the TypeScript server reports the broken file once it is open.
    await openFile('src/broken.ts');
    await ui.wb.page.locator('.part.statusbar .statusbar-item[id="status.problems"]', { hasText: /1/ }).first().waitFor({ state: 'visible', timeout: 60_000 });

    await input().click();
    await input().pressSequentially('fix ', { delay: 20 });
    await input().pressSequentially('@', { delay: 20 });
    await picker().waitFor({ state: 'visible' });
    for (const kind of ['@problems', '@selection', '@git', '@terminal']) await option(kind).waitFor({ state: 'visible' });
    await ui.wb.screenshot('mentions-01-picker-open');
    await input().press('Backspace');

    await mention('cart', '@src/cart.ts');
    // A folder stays open one level down: its files are offered next.
    await input().pressSequentially('and ', { delay: 20 });
    await mention('sr', '@src/');
    await option('@src/price.ts').first().waitFor({ state: 'visible' });
    await ui.wb.screenshot('mentions-02-folder-drilldown');
    await input().press('Escape');
    await input().pressSequentially(' ', { delay: 20 });
    await mention('prob', '@problems');
    await mention('git', '@git');
    // The ignored .env is never offered.
    await input().pressSequentially('@.en', { delay: 30 });
    await sleep(800);
    assert.equal(await option('.env').count(), 0, 'an ignored file is not offered');
    for (let i = 0; i < 4; i++) await input().press('Backspace');
    await input().pressSequentially('please', { delay: 20 });

    const draft = await input().inputValue();
    assert.equal(draft, 'fix @src/cart.ts and @src/ @problems @git please');
    const chips = await ui.chat.locator('.composer .mention-chip').allInnerTexts();
    assert.deepEqual(chips.map((c) => c.replace('✕', '').trim()), ['@src/cart.ts', '@src/', '@problems', '@git']);
    await ui.wb.screenshot('mentions-03-chips-before-send');

    const sent = await sendAndWait('fix @src/cart.ts and @src/', 'I see the cart, the folder, one problem and the change to price.ts.');
    assert.match(sent, /<attachment mention="@src\/cart\.ts" kind="file">\n1\texport class Cart \{/);
    assert.match(sent, /<attachment mention="@src\/" kind="folder">[\s\S]*broken\.ts[\s\S]*price\.ts/);
    assert.match(sent, /<attachment mention="@problems" kind="problems">\nsrc\/broken\.ts:1 error: Type 'string' is not assignable to type 'number'/);
    assert.match(sent, /<attachment mention="@git" kind="git">[\s\S]*-  return sku\.length;\n\+  return sku\.length \* 2;/);
    assert.match(sent, /\[Active editor: src\/broken\.ts/, 'the automatic context line');
    assert.doesNotMatch(sent, /sk-live-should-never-leave/);
    assert.equal(sent.split('export class Cart {').length - 1, 1, 'the file is attached once');

    // The user's card: the message as typed, each attachment as a collapsed chip that opens to what was sent.
    const card = userCard('fix @src/cart.ts and @src/');
    await card.locator('details.attachment').first().waitFor({ state: 'visible' });
    assert.equal(await card.locator('details.attachment[open]').count(), 0, 'collapsed');
    assert.deepEqual(await card.locator('details.attachment summary .mention-chip').allInnerTexts(), ['@src/cart.ts', '@src/', '@problems', '@git']);
    await card.locator('details.attachment summary', { hasText: '@problems' }).click();
    assert.match(await card.locator('details.attachment[open] .attachment-content').innerText(), /src\/broken\.ts:1 error/);
    assert.match(await card.locator('.attachment-context').innerText(), /Active editor: src\/broken\.ts/);
    await ui.wb.screenshot('mentions-04-user-card-attachments');
  });

  it('@terminal attaches the last command\'s output from the active terminal', async () => {
    await ui.wb.runCommand('Terminal: Create New Terminal');
    const term = ui.wb.page.locator('.terminal-wrapper.active .xterm-helper-textarea, .terminal .xterm-helper-textarea').first();
    await term.waitFor({ state: 'attached', timeout: 30_000 });
    // What the user sees when the shell has reported a command that ended well: the success mark in the terminal's gutter.
    const succeeded = ui.wb.page.locator('.terminal-command-decoration[class*="decoration-success"]');
    // The shell reports its commands once its integration has loaded; a command typed before that is
    // never marked (nor known to the mention), so until one is marked it is typed again.
    await waitUntil(async () => {
      await term.focus();
      // A command that runs a moment (as builds and tests do): its output comes after the shell reports the start.
      await ui.wb.page.keyboard.type('sleep 1; echo marker-$((40+2))-from-terminal\n', { delay: 20 });
      return succeeded.first().waitFor({ state: 'attached', timeout: 20_000 }).then(() => true, () => false);
    }, 'the terminal to mark the command as ended well', 120_000);
    await input().click();
    await mention('term', '@terminal');
    await input().pressSequentially('what failed?', { delay: 20 });
    const sent = await sendAndWait('@terminal what failed?', 'Seen the terminal.');
    assert.match(sent, /<attachment mention="@terminal" kind="terminal">\n\$ sleep 1; echo marker-\$\(\(40\+2\)\)-from-terminal \(exit 0\)\n[\s\S]*marker-42-from-terminal/);
    await ui.wb.screenshot('mentions-05-terminal');
  });

  it('Add Selection to Tandem puts the selected lines as a chip in the composer, focused, and sends nothing', async () => {
    await openFile('src/price.ts');
    const editor = ui.wb.page.locator('.editor-group-container .monaco-editor .view-lines').first();
    await editor.click();
    await ui.wb.page.keyboard.press('Control+Home');
    await ui.wb.page.keyboard.press('Shift+ArrowDown');
    await ui.wb.page.keyboard.press('Shift+ArrowDown');
    const userCards = await ui.chat.locator('[data-card-kind="text"] .user-text').count();
    await ui.wb.page.keyboard.press('Control+Shift+Alt+A');
    await waitUntil(async () => (await input().inputValue()).includes('@src/price.ts:1-2'), 'the selection mention in the composer', 20_000);
    assert.equal(await input().inputValue(), '@src/price.ts:1-2 ');
    assert.equal(await input().evaluate((el) => el.ownerDocument.activeElement === el), true, 'the composer has the focus');
    await ui.chat.locator('.composer .mention-chip', { hasText: '@src/price.ts:1-2' }).waitFor({ state: 'visible' });
    await sleep(500);
    assert.equal(await ui.chat.locator('[data-card-kind="text"] .user-text').count(), userCards, 'nothing was sent');
    await ui.wb.screenshot('mentions-06-add-selection');

    // Sent: just those lines, numbered.
    await input().pressSequentially('explain', { delay: 20 });
    const sent = await sendAndWait('@src/price.ts:1-2 explain', 'Those two lines compute the price; see `src/cart.ts:3` for the total.', 'Those two lines compute the price');
    assert.match(sent, /<attachment mention="@src\/price\.ts:1-2" kind="range">\n1\texport function price\(sku: string\): number \{\n2\t {2}return sku\.length \* 2;\n<\/attachment>/);
  });

  it('a path in the model\'s answer opens the file at that line', async () => {
    // Its own answer, so this test does not depend on the one before it.
    await input().click();
    await input().pressSequentially('where is the total?', { delay: 20 });
    await sendAndWait('where is the total?', 'The total is at `src/cart.ts:3`.', 'The total is at');
    const link = ui.chat.locator('[data-card-kind="text"] a.path-link', { hasText: 'src/cart.ts:3' }).last();
    await link.waitFor({ state: 'visible' });
    await link.click();
    await ui.wb.page.locator('.editor-group-container .tab.active', { hasText: 'cart.ts' }).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.wb.page.locator('.part.statusbar .statusbar-item', { hasText: /Ln 3, Col/ }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.wb.screenshot('mentions-07-answer-link-opened');
  });

  it('the history keeps what was attached: a resumed task shows the same chips and contents', async () => {
    // A task of its own with two attachments, so this test does not depend on the ones before it.
    await ui.wb.runCommand('Tandem: New Task');
    await input().click();
    await mention('cart', '@src/cart.ts');
    await input().pressSequentially('and ', { delay: 20 });
    await mention('git', '@git');
    await input().pressSequentially('keep these for later', { delay: 20 });
    await sendAndWait('keep these for later', 'Kept.');
    await ui.wb.runCommand('Tandem: New Task');
    const recent = ui.chat.locator('button', { hasText: 'keep these for later' }).first();
    await recent.waitFor({ state: 'visible', timeout: 30_000 });
    await recent.click();
    const card = userCard('keep these for later');
    await card.waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await card.locator('details.attachment summary .mention-chip').allInnerTexts(), ['@src/cart.ts', '@git']);
    await card.locator('details.attachment summary', { hasText: '@src/cart.ts' }).click();
    assert.match(await card.locator('details.attachment[open] .attachment-content').innerText(), /export class Cart \{/);
    await ui.wb.screenshot('mentions-08-resumed-from-history');
  });

  /**
   * Holds the host's answers to the picker's search at the chat's page door until `hold` is false,
   * then lets them in as they came: a slow workspace search, made deterministic, so Enter always
   * lands before the results. The door is the page's own postMessage, which VS Code's webview frame
   * calls to hand each host message in (a listener cannot do it: the chat's own one, added first,
   * runs first).
   */
  async function holdMentionResults(hold: boolean): Promise<void> {
    await input().evaluate((el, on) => {
      type Held = { holding: boolean; calls: unknown[][] };
      const w = el.ownerDocument.defaultView as unknown as Window & { tandemHeld?: Held; postMessage(...a: unknown[]): void };
      const isResults = (m: unknown): boolean => (m as { type?: unknown } | null)?.type === 'mention_results';
      if (!w.tandemHeld) {
        const held: Held = { holding: false, calls: [] };
        const pass = w.postMessage.bind(w) as (...a: unknown[]) => void;
        w.tandemHeld = held;
        w.postMessage = (...args: unknown[]) => {
          const data = args[0];
          if (held.holding && (Array.isArray(data) ? data.some(isResults) : isResults(data))) held.calls.push(args);
          else pass(...args);
        };
        (w as unknown as { tandemPass: typeof pass }).tandemPass = pass;
      }
      w.tandemHeld.holding = on;
      const pass = (w as unknown as { tandemPass: (...a: unknown[]) => void }).tandemPass;
      if (!on) for (const args of w.tandemHeld.calls.splice(0)) pass(...args);
    }, hold);
  }

  it('Enter before the picker\'s results arrive waits for them and picks the top match; nothing goes out as plain text', async () => {
    await ui.wb.runCommand('Tandem: New Task');
    await waitUntil(async () => (await ui.chat.locator('[data-card-kind]').count()) === 0, 'an empty chat');
    const before = ui.server.chatRequests().length;
    // The search for "car" is held on its way back: Enter lands while the picker is still searching.
    await holdMentionResults(true);
    try {
      await input().fill('Explain @car');
      await ui.chat.locator('.mention-picker[aria-busy="true"]', { hasText: 'Searching' }).waitFor({ state: 'visible', timeout: 10_000 });
      await input().press('Enter');
      await sleep(1500);
      assert.equal(ui.server.chatRequests().length, before, 'nothing was sent while the picker searched');
      assert.equal(await userCard('Explain @car').count(), 0, 'no user card with the raw text');
      assert.equal(await input().inputValue(), 'Explain @car', 'the text waits in the composer as typed');
      await ui.wb.screenshot('mentions-20-enter-while-searching');
    } finally {
      await holdMentionResults(false);
    }
    await waitUntil(async () => /@src\/cart\.ts/.test(await input().inputValue()), 'the top match to be picked when the results came', 15_000);
    assert.equal(await input().inputValue(), 'Explain @src/cart.ts ');
    assert.equal(ui.server.chatRequests().length, before, 'picking sent nothing either');
    assert.equal(await userCard('Explain @car').count(), 0, 'no user card with the raw text');
    await ui.wb.screenshot('mentions-21-top-match-picked');
    const sent = await sendAndWait('Explain', 'It is a cart.');
    assert.match(sent, /export class Cart/, 'the file went with the message');
  });
});
