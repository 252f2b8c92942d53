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
import * as path from 'node:path';
import { chatSuite } from './chatSuite';
import { calls, numberedTc as tc, text } from '../support/scriptSteps';
import { sleep, waitUntil } from '../support/wait';
import { userMessages } from '../support/modelRequests';

// Runs in the page (the Node tsconfig has no DOM lib).
declare function getComputedStyle(el: unknown): { backgroundColor: string; marginLeft: string };

describe('Chat details in the real workbench (UI)', function () {
  this.timeout(300_000);
  const ui = chatSuite({
    name: 'details',
    files: { 'alpha.txt': 'alpha original\n', 'beta.txt': 'beta original\n', 'gamma.txt': 'gamma original\n' },
    models: ['scripted-model', 'scripted-model-large'],
    role: 'actor',
  });
  const { input, toolCard, textCard, userCard, read, send, reveal, idle } = ui;

  it('the user\'s message is set apart, rendered as markdown, and Edit & resend reverts the files changed after it when asked', async () => {
    ui.server.replace([
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
    await ui.wb.screenshot('details-01-user-message');

    const mineId = await mine.getAttribute('data-card-id');
    await mine.getByRole('button', { name: 'Edit & resend' }).click();
    const box = ui.chat.getByRole('textbox', { name: 'Edit your message' });
    assert.equal(await box.inputValue(), 'Please change **alpha** in `alpha.txt`', 'the edit box holds the text as typed');
    await box.fill('Change beta instead');
    await ui.chat.getByRole('button', { name: 'Resend' }).click();
    // alpha.txt was changed after this message: nothing happens before the user says what becomes of it.
    const confirm = ui.chat.getByRole('group', { name: 'Resend and drop what came after' });
    await confirm.waitFor({ state: 'visible' });
    assert.match(await confirm.getByRole('list', { name: 'Files changed after this message' }).innerText(), /alpha\.txt/);
    await confirm.getByRole('button', { name: 'Keep files and resend' }).waitFor({ state: 'visible' });
    await ui.chat.locator(`[data-card-id="${mineId}"]`).evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
    await sleep(300);
    await ui.wb.screenshot('details-02-edit-resend-confirm');
    assert.equal(read('alpha.txt'), 'alpha CHANGED\n', 'nothing changed before the choice');
    const before = ui.server.chatRequests().length;
    await confirm.getByRole('button', { name: 'Revert files and resend' }).click();

    await textCard('Beta it is, then.').waitFor({ state: 'visible', timeout: 20_000 });
    await waitUntil(() => read('alpha.txt') === 'alpha original\n', 'alpha reverted on disk');
    assert.equal(await userCard('Please change alpha').count(), 0, 'the edited message is gone');
    assert.equal(await textCard('Changed alpha as asked.').count(), 0, 'the turn after it is gone');
    assert.equal(await toolCard('alpha.txt').count(), 0, 'its tool card is gone');
    await textCard('the files changed after it were put back (alpha.txt restored)').waitFor({ state: 'visible' });
    const sent = userMessages(ui.server.chatRequests()[before]).join('\n');
    assert.match(sent, /Change beta instead/);
    assert.doesNotMatch(sent, /Please change \*\*alpha\*\*/, 'the model no longer sees the old message');
    await ui.wb.screenshot('details-03-edit-resent');
    await idle();
  });

  it('Edit & resend can keep the files as they are, and says so', async () => {
    ui.server.replace([
      calls(tc('edit_file', { path: 'beta.txt', edits: [{ old_text: 'beta original', new_text: 'beta CHANGED' }] })),
      text('Changed beta.'),
      text('Noted.'),
    ]);
    await send('Change beta now');
    await toolCard('beta.txt').getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('Changed beta.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    await userCard('Change beta now').getByRole('button', { name: 'Edit & resend' }).click();
    const box = ui.chat.getByRole('textbox', { name: 'Edit your message' });
    await box.fill('Leave beta as it is now');
    await box.press('Enter');
    const confirm = ui.chat.getByRole('group', { name: 'Resend and drop what came after' });
    await confirm.getByRole('button', { name: 'Keep files and resend' }).click();
    await textCard('Noted.').waitFor({ state: 'visible', timeout: 20_000 });
    await textCard('kept as they are now: beta.txt').waitFor({ state: 'visible' });
    assert.equal(read('beta.txt'), 'beta CHANGED\n', 'kept');
    assert.match(userMessages(ui.server.chatRequests().at(-1)).join('\n'), /kept as they are now: beta\.txt/, 'the model is told the files stayed');
    await idle();
  });
  it('Always allow shows the parsed entry first, adds exactly it, never lets a chain through, and is taken back from the card', async () => {
    ui.server.replace([
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
    const first = ui.chat.locator(`[data-card-id="${await toolCard('tandem check').last().getAttribute('data-card-id')}"]`);
    await first.getByRole('button', { name: 'Always allow…' }).click();
    const confirm = ui.chat.getByRole('group', { name: 'Always allow this command' });
    await confirm.waitFor({ state: 'visible' });
    // The command as parsed: the doubled space is gone and the quoted words stay one word.
    assert.equal((await confirm.getByRole('list', { name: 'Allow-list entries' }).innerText()).trim(), "echo 'tandem check'");
    assert.match(await confirm.innerText(), /Never matched: other commands chained or piped to it/);
    await first.evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
    await sleep(300);
    await ui.wb.screenshot('details-04-always-allow-confirm');
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
    await ui.wb.screenshot('details-05-allowed-and-chained');
    await chained.getByRole('button', { name: 'Reject' }).click();
    await textCard('Second run done.').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(fs.existsSync(path.join(ui.ws, 'widened.txt')), false);
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
    ui.server.replace([text('Answered by the large model.')]);
    const meter = ui.chat.getByRole('meter', { name: 'Context window used' });
    await meter.waitFor({ state: 'visible' });
    const used = Number(await meter.getAttribute('aria-valuenow'));
    assert.equal(Number(await meter.getAttribute('aria-valuemax')), 128_000, 'the window of the setting');
    assert.ok(used > 100 && used < 128_000, `used ${used}`);
    assert.match(await meter.innerText(), /\/ 128k \(\d+%\)/);
    const picker = ui.chat.getByRole('combobox', { name: 'Model for the Actor' });
    assert.equal(await picker.inputValue(), 'scripted-model');
    await waitUntil(async () => (await picker.locator('option').count()) === 2, 'the endpoint\'s models in the picker');
    await picker.selectOption('scripted-model-large');
    await waitUntil(async () => (await picker.inputValue()) === 'scripted-model-large', 'the picker to show the choice');
    await sleep(1500); // the settings watcher brings the model to the agent
    await send('Which model are you?');
    await textCard('Answered by the large model.').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(ui.server.chatRequests().at(-1)?.model, 'scripted-model-large', 'the next request used the picked model');
    await ui.wb.screenshot('details-06-model-and-context');
    // The Planner keeps its own model.
    await ui.pickRole('planner');
    await waitUntil(async () => (await ui.chat.getByRole('combobox', { name: 'Model for the Planner' }).count()) === 1, 'the Planner\'s picker');
    assert.equal(await ui.chat.getByRole('combobox', { name: 'Model for the Planner' }).inputValue(), 'scripted-model');
    await ui.pickRole('actor');
    await idle();
  });
  it('consecutive reads, lists and searches are one line ("Read 2 files, listed 1 folder, searched 1 time"), opened to show each card', async () => {
    ui.server.replace([
      calls(tc('read_file', { path: 'alpha.txt' }), tc('read_file', { path: 'beta.txt' })),
      calls(tc('search', { pattern: 'original' })),
      calls(tc('list_files', { path: '.' })),
      text('Looked around.'),
    ]);
    await send('Look around the workspace');
    await textCard('Looked around.').waitFor({ state: 'visible', timeout: 20_000 });
    const line = ui.chat.getByRole('button', { name: 'Read 2 files, listed 1 folder, searched 1 time' });
    await line.waitFor({ state: 'visible' });
    assert.equal(await line.getAttribute('aria-expanded'), 'false');
    const drawn = () => ui.chat.locator('.card[data-card-kind="tool_call"]').filter({ has: ui.chat.locator('.tool-name', { hasText: /^(read_file|search|list_files)$/ }) });
    assert.equal(await drawn().count(), 0, 'the four calls are not drawn one by one');
    await line.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('details-07-grouped-reads');
    await line.click();
    await waitUntil(async () => (await drawn().count()) === 4, 'the four cards once opened');
    assert.equal(await line.getAttribute('aria-expanded'), 'true');
    await line.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('details-08-grouped-reads-open');
    await line.click();
    await waitUntil(async () => (await drawn().count()) === 0, 'closed again');
    await idle();
  });

  it('a refused revert is said next to the button that asked for it', async () => {
    ui.server.replace([
      calls(tc('edit_file', { path: 'gamma.txt', edits: [{ old_text: 'gamma original', new_text: 'gamma CHANGED' }] })),
      text('Changed gamma.'),
    ]);
    await send('Change gamma');
    const card = toolCard('gamma.txt').last();
    await card.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await textCard('Changed gamma.').waitFor({ state: 'visible', timeout: 20_000 });
    await idle();
    // The user edits the file after the agent: reverting would lose that, so it is refused.
    fs.writeFileSync(path.join(ui.ws, 'gamma.txt'), 'gamma CHANGED\nand my own line\n');
    await card.getByRole('button', { name: 'Revert this change' }).click();
    const note = card.getByRole('alert');
    await note.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await note.innerText(), /Nothing was reverted/);
    assert.match(await note.innerText(), /gamma\.txt/);
    await card.scrollIntoViewIfNeeded();
    await ui.wb.screenshot('details-09-refusal-by-button');
    assert.equal(read('gamma.txt'), 'gamma CHANGED\nand my own line\n', 'the user\'s edit is kept');

    await ui.chat.getByRole('button', { name: /Revert task/ }).click();
    await ui.chat.getByRole('group', { name: 'Revert the whole task' }).getByRole('button', { name: 'Revert all' }).click();
    const headerNote = ui.chat.locator('header').getByRole('alert');
    await headerNote.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await headerNote.innerText(), /Nothing was reverted/);
    await ui.wb.screenshot('details-10-refusal-in-header');
  });
});
