/**
 * More of the everyday chat in the real workbench (code-server + Chromium) against the scripted LLM
 * server: the user's own messages (set apart, markdown, Edit & resend with a choice about the files
 * changed after them), Always allow on a command (the parsed entry shown first, never widened by a
 * chain, and taken back from the card), the model picker and the context meter in the header,
 * consecutive reads and searches grouped into one line, and a refusal shown by the button that
 * caused it. Screenshots: test-results/details-*.png.
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
// Runs in the page (the Node tsconfig has no DOM lib).
declare function getComputedStyle(el: unknown): { backgroundColor: string; marginLeft: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function userMessages(body: { messages?: unknown } | undefined): string[] {
  const msgs = (body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  return msgs.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

describe('Chat details in the real workbench (UI)', function () {
  this.timeout(300_000);
  let server: ScriptedServer;
  let wb: Workbench;
  let chat: FrameLocator;
  let ws: string;

  const input = (): Locator => chat.locator('textarea[aria-label="Message Tandem"]');
  const toolCard = (hasText: string): Locator => chat.locator('[data-card-kind="tool_call"]', { hasText });
  const textCard = (t: string): Locator => chat.locator('[data-card-kind="text"]', { hasText: t });
  const userCard = (t: string): Locator => chat.locator('[data-card-kind="text"].author-user', { hasText: t });
  const roleButton = (): Locator => chat.getByRole('button', { name: 'Role' });
  const read = (f: string) => fs.readFileSync(path.join(ws, f), 'utf8');

  async function send(message: string, shown = message): Promise<void> {
    await input().click();
    await input().fill(message);
    await input().press('Enter');
    await userCard(shown).first().waitFor({ state: 'visible', timeout: 15_000 });
  }

  /** The list is virtualised: a card scrolled far away is not in the DOM. Scroll until it is. */
  async function reveal(card: Locator): Promise<void> {
    const list = chat.locator('.list[role="log"]');
    await list.evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 0; });
    for (let i = 0; i < 40 && (await card.count()) === 0; i++) {
      await list.evaluate((el) => { const e = el as unknown as { scrollTop: number; clientHeight: number }; e.scrollTop += e.clientHeight / 2; });
      await sleep(150);
    }
    await card.scrollIntoViewIfNeeded();
  }

  async function idle(): Promise<void> {
    await waitUntil(async () => !/Tandem is working/.test((await input().getAttribute('placeholder')) ?? ''), 'the turn to end', 30_000);
  }

  before(async () => {
    server = await ScriptedServer.start([], { models: ['scripted-model', 'scripted-model-large'] });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-details-')));
    fs.writeFileSync(path.join(ws, 'alpha.txt'), 'alpha original\n');
    fs.writeFileSync(path.join(ws, 'beta.txt'), 'beta original\n');
    fs.writeFileSync(path.join(ws, 'gamma.txt'), 'gamma original\n');
    wb = await openWorkbench({
      workspace: ws,
      settings: {
        'tandem.baseUrl': server.url,
        'tandem.model.planner': 'scripted-model',
        'tandem.model.actor': 'scripted-model',
        'tandem.limits.requestIdleTimeoutMs': 30_000,
        'tandem.contextWindow': 128_000,
        'tandem.limits.maxRetries': 0,
      },
    });
    chat = await wb.openTandemView();
    await input().waitFor({ state: 'visible' });
    if (!(await roleButton().innerText()).includes('Actor')) await roleButton().click();
    await wb.page.locator('.part.statusbar .statusbar-item', { hasText: 'Tandem: Actor' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && chat) {
      await wb.screenshot(`details-failed-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
      const errors = await chat.locator('[data-card-kind="error"]').allInnerTexts().catch(() => []);
      process.stderr.write(`  [details] model requests so far: ${server.chatRequests().length}; error cards: ${JSON.stringify(errors.slice(-2))}\n`);
      await chat.getByRole('button', { name: 'Stop' }).click().catch(() => undefined);
      await sleep(1000);
    }
  });

  after(async () => {
    if (wb) await wb.screenshot('details-final').catch(() => undefined);
    await wb?.close();
    await server?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it('the user\'s message is set apart, rendered as markdown, and Edit & resend reverts the files changed after it when asked', async () => {
    server.replace([
      calls(tc('edit_file', { path: 'alpha.txt', edits: [{ old_text: 'alpha original', new_text: 'alpha CHANGED' }] })),
      text('Changed alpha as asked.'),
      text('Beta it is, then.'),
    ]);
    await send('Please change **alpha** in `alpha.txt`', 'Please change alpha in alpha.txt');
    const mine = userCard('Please change alpha in alpha.txt');
    assert.equal(await mine.locator('strong', { hasText: 'alpha' }).count(), 1, 'bold is rendered as bold, not **asterisks**');
    assert.equal(await mine.locator('code', { hasText: 'alpha.txt' }).count(), 1, 'inline code is rendered as code');
    await toolCard('alpha.txt').getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    const answer = textCard('Changed alpha as asked.');
    await answer.waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('alpha.txt') === 'alpha CHANGED\n', 'alpha changed on disk');
    await idle();
    // Set apart from the agent's text: another background and inset from the left.
    const [me, agent] = await Promise.all([mine, answer].map((c) => c.evaluate((el) => { const s = getComputedStyle(el); return { bg: s.backgroundColor, left: parseFloat(s.marginLeft) }; })));
    assert.notEqual(me!.bg, agent!.bg, 'the user\'s card has its own background');
    assert.ok(me!.left > agent!.left + 10, `the user's card is inset (${me!.left}px vs ${agent!.left}px)`);
    await wb.screenshot('details-01-user-message');

    const mineId = await mine.getAttribute('data-card-id');
    await mine.getByRole('button', { name: 'Edit & resend' }).click();
    const box = chat.getByRole('textbox', { name: 'Edit your message' });
    assert.equal(await box.inputValue(), 'Please change **alpha** in `alpha.txt`', 'the edit box holds the text as typed');
    await box.fill('Change beta instead');
    await chat.getByRole('button', { name: 'Resend' }).click();
    // alpha.txt was changed after this message: nothing happens before the user says what becomes of it.
    const confirm = chat.getByRole('group', { name: 'Resend and drop what came after' });
    await confirm.waitFor({ state: 'visible' });
    assert.match(await confirm.getByRole('list', { name: 'Files changed after this message' }).innerText(), /alpha\.txt/);
    await confirm.getByRole('button', { name: 'Keep files and resend' }).waitFor({ state: 'visible' });
    await chat.locator(`[data-card-id="${mineId}"]`).evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
    await sleep(300);
    await wb.screenshot('details-02-edit-resend-confirm');
    assert.equal(read('alpha.txt'), 'alpha CHANGED\n', 'nothing changed before the choice');
    const before = server.chatRequests().length;
    await confirm.getByRole('button', { name: 'Revert files and resend' }).click();

    await textCard('Beta it is, then.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('alpha.txt') === 'alpha original\n', 'alpha reverted on disk');
    assert.equal(await userCard('Please change alpha').count(), 0, 'the edited message is gone');
    assert.equal(await textCard('Changed alpha as asked.').count(), 0, 'the turn after it is gone');
    assert.equal(await toolCard('alpha.txt').count(), 0, 'its tool card is gone');
    await textCard('the files changed after it were put back (alpha.txt restored)').waitFor({ state: 'visible' });
    const sent = userMessages(server.chatRequests()[before]).join('\n');
    assert.match(sent, /Change beta instead/);
    assert.doesNotMatch(sent, /Please change \*\*alpha\*\*/, 'the model no longer sees the old message');
    await wb.screenshot('details-03-edit-resent');
    await idle();
  });

  it('Edit & resend can keep the files as they are, and says so', async () => {
    server.replace([
      calls(tc('edit_file', { path: 'beta.txt', edits: [{ old_text: 'beta original', new_text: 'beta CHANGED' }] })),
      text('Changed beta.'),
      text('Noted.'),
    ]);
    await send('Change beta now');
    await toolCard('beta.txt').getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('Changed beta.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    await userCard('Change beta now').getByRole('button', { name: 'Edit & resend' }).click();
    const box = chat.getByRole('textbox', { name: 'Edit your message' });
    await box.fill('Leave beta as it is now');
    await box.press('Enter');
    const confirm = chat.getByRole('group', { name: 'Resend and drop what came after' });
    await confirm.getByRole('button', { name: 'Keep files and resend' }).click();
    await textCard('Noted.').waitFor({ state: 'visible', timeout: 20_000 });
    await textCard('kept as they are now: beta.txt').waitFor({ state: 'visible' });
    assert.equal(read('beta.txt'), 'beta CHANGED\n', 'kept');
    assert.match(userMessages(server.chatRequests().at(-1)).join('\n'), /kept as they are now: beta\.txt/, 'the model is told the files stayed');
    await idle();
  });
  it('Always allow shows the parsed entry first, adds exactly it, never lets a chain through, and is taken back from the card', async () => {
    server.replace([
      calls(tc('run_command', { command: 'echo  "tandem check"' })),
      text('First run done.'),
      calls(tc('run_command', { command: 'echo "tandem check" --again' })),
      calls(tc('run_command', { command: 'echo "tandem check" && touch widened.txt' })),
      text('Second run done.'),
      calls(tc('run_command', { command: 'echo "tandem check"' })),
      text('Third run done.'),
    ]);
    await send('Run the check');
    await toolCard('tandem check').last().getByRole('button', { name: 'Always allow…' }).waitFor({ state: 'visible', timeout: 20_000 });
    const first = chat.locator(`[data-card-id="${await toolCard('tandem check').last().getAttribute('data-card-id')}"]`);
    await first.getByRole('button', { name: 'Always allow…' }).click();
    const confirm = chat.getByRole('group', { name: 'Always allow this command' });
    await confirm.waitFor({ state: 'visible' });
    // The command as parsed: the doubled space is gone and the quoted words stay one word.
    assert.equal((await confirm.getByRole('list', { name: 'Allow-list entries' }).innerText()).trim(), "echo 'tandem check'");
    assert.match(await confirm.innerText(), /Never matched: other commands chained or piped to it/);
    await first.evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
    await sleep(300);
    await wb.screenshot('details-04-always-allow-confirm');
    await confirm.getByRole('button', { name: 'Allow and run' }).click();
    await textCard('First run done.').waitFor({ state: 'visible', timeout: 20_000 });
    await first.locator('[data-exit="success"]').waitFor({ state: 'visible' });
    await first.getByLabel('On the allow-list').waitFor({ state: 'visible' });
    await idle();

    await send('Run it twice more');
    // Same words first, more arguments: runs without asking. The same words chained with another
    // command: asks, whatever the allow-list says.
    const chained = toolCard('widened.txt');
    await chained.getByRole('button', { name: 'Reject' }).waitFor({ state: 'visible', timeout: 20_000 });
    const again = toolCard('--again');
    await again.locator('[data-exit="success"]').waitFor({ state: 'visible' });
    assert.equal(await again.getByRole('button', { name: 'Approve' }).count(), 0, 'the allowed command was not asked about');
    assert.equal(await chained.getByLabel('On the allow-list').count(), 0, 'a chain only partly on the list is not said to be on it');
    await chained.scrollIntoViewIfNeeded();
    await wb.screenshot('details-05-allowed-and-chained');
    await chained.getByRole('button', { name: 'Reject' }).click();
    await textCard('Second run done.').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(fs.existsSync(path.join(ws, 'widened.txt')), false);
    await idle();

    // Taken back from the card: the next run asks again.
    await reveal(first);
    await first.getByLabel('On the allow-list').getByRole('button', { name: 'Remove' }).click();
    await first.getByLabel('On the allow-list').waitFor({ state: 'detached', timeout: 10_000 });
    await send('Run it once more');
    const third = toolCard('tandem check').last();
    await third.getByRole('button', { name: 'Approve' }).waitFor({ state: 'visible', timeout: 20_000 });
    await third.getByRole('button', { name: 'Reject' }).click();
    await textCard('Third run done.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
  });

  it('the header shows the context the last request used and the role\'s model, and the picker changes the model the next request uses', async () => {
    server.replace([text('Answered by the large model.')]);
    const meter = chat.getByRole('meter', { name: 'Context window used' });
    await meter.waitFor({ state: 'visible' });
    const used = Number(await meter.getAttribute('aria-valuenow'));
    assert.equal(Number(await meter.getAttribute('aria-valuemax')), 128_000, 'the window of the setting');
    assert.ok(used > 100 && used < 128_000, `used ${used}`);
    assert.match(await meter.innerText(), /\/ 128k \(\d+%\)/);
    const picker = chat.getByRole('combobox', { name: 'Model for the Actor' });
    assert.equal(await picker.inputValue(), 'scripted-model');
    await waitUntil(async () => (await picker.locator('option').count()) === 2, 'the endpoint\'s models in the picker');
    await picker.selectOption('scripted-model-large');
    await waitUntil(async () => (await picker.inputValue()) === 'scripted-model-large', 'the picker to show the choice');
    await sleep(1500); // the settings watcher brings the model to the agent
    await send('Which model are you?');
    await textCard('Answered by the large model.').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(server.chatRequests().at(-1)?.model, 'scripted-model-large', 'the next request used the picked model');
    await wb.screenshot('details-06-model-and-context');
    // The Planner keeps its own model (the role button steps through the roles in turn).
    const switchTo = async (label: string): Promise<void> => {
      for (let i = 0; i < 4 && !(await roleButton().innerText()).includes(label); i++) {
        await roleButton().click();
        await sleep(400);
      }
    };
    await switchTo('Planner');
    await waitUntil(async () => (await chat.getByRole('combobox', { name: 'Model for the Planner' }).count()) === 1, 'the Planner\'s picker');
    assert.equal(await chat.getByRole('combobox', { name: 'Model for the Planner' }).inputValue(), 'scripted-model');
    await switchTo('Actor');
    await idle();
  });
  it('consecutive reads, lists and searches are one line ("Read 2 files, listed 1 folder, searched 1 time"), opened to show each card', async () => {
    server.replace([
      calls(tc('read_file', { path: 'alpha.txt' }), tc('read_file', { path: 'beta.txt' })),
      calls(tc('search', { pattern: 'original' })),
      calls(tc('list_files', { path: '.' })),
      text('Looked around.'),
    ]);
    await send('Look around the workspace');
    await textCard('Looked around.').waitFor({ state: 'visible', timeout: 20_000 });
    const line = chat.getByRole('button', { name: 'Read 2 files, listed 1 folder, searched 1 time' });
    await line.waitFor({ state: 'visible' });
    assert.equal(await line.getAttribute('aria-expanded'), 'false');
    const drawn = () => chat.locator('.card[data-card-kind="tool_call"]').filter({ has: chat.locator('.tool-name', { hasText: /^(read_file|search|list_files)$/ }) });
    assert.equal(await drawn().count(), 0, 'the four calls are not drawn one by one');
    await line.scrollIntoViewIfNeeded();
    await wb.screenshot('details-07-grouped-reads');
    await line.click();
    await waitUntil(async () => (await drawn().count()) === 4, 'the four cards once opened');
    assert.equal(await line.getAttribute('aria-expanded'), 'true');
    await line.scrollIntoViewIfNeeded();
    await wb.screenshot('details-08-grouped-reads-open');
    await line.click();
    await waitUntil(async () => (await drawn().count()) === 0, 'closed again');
    await idle();
  });

  it('a refused revert is said next to the button that asked for it', async () => {
    server.replace([
      calls(tc('edit_file', { path: 'gamma.txt', edits: [{ old_text: 'gamma original', new_text: 'gamma CHANGED' }] })),
      text('Changed gamma.'),
    ]);
    await send('Change gamma');
    const card = toolCard('gamma.txt').last();
    await card.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('Changed gamma.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    // The user edits the file after the agent: reverting would lose that, so it is refused.
    fs.writeFileSync(path.join(ws, 'gamma.txt'), 'gamma CHANGED\nand my own line\n');
    await card.getByRole('button', { name: 'Revert this change' }).click();
    const note = card.getByRole('alert');
    await note.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await note.innerText(), /Nothing was reverted/);
    assert.match(await note.innerText(), /gamma\.txt/);
    await card.scrollIntoViewIfNeeded();
    await wb.screenshot('details-09-refusal-by-button');
    assert.equal(read('gamma.txt'), 'gamma CHANGED\nand my own line\n', 'the user\'s edit is kept');

    await chat.getByRole('button', { name: /Revert task/ }).click();
    await chat.getByRole('group', { name: 'Revert the whole task' }).getByRole('button', { name: 'Revert all' }).click();
    const headerNote = chat.locator('header').getByRole('alert');
    await headerNote.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await headerNote.innerText(), /Nothing was reverted/);
    await wb.screenshot('details-10-refusal-in-header');
  });
});
