import * as assert from 'node:assert';
import { openWorkbench, type Workbench } from './harness';

describe('Tandem chat in the real workbench (UI)', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;

  before(async () => {
    // An endpoint that refuses at once: the agent's request fails locally instead of reaching out.
    wb = await openWorkbench({ settings: { 'tandem.baseUrl': 'http://127.0.0.1:9/v1' } });
  });

  after(async () => {
    // Whatever happened, keep a picture of it for whoever reads the run.
    if (wb) await wb.screenshot('chat-final').catch((e: unknown) => console.error(`screenshot failed: ${String(e)}`));
    await wb?.close();
  });

  it('opens from the activity bar with an input and the role toggle, and echoes a sent message as a card', async () => {
    const chat = await wb!.openTandemView();
    const input = chat.locator('textarea[aria-label="Message Tandem"]');
    await input.waitFor({ state: 'visible' });
    await chat.locator('[aria-label="Role"]').waitFor({ state: 'visible' });

    const text = `Hello Tandem, UI test ${Date.now()}`;
    await input.click();
    await input.fill(text);
    await input.press('Enter');

    const card = chat.locator('[data-card-kind="text"]', { hasText: text });
    await card.waitFor({ state: 'visible', timeout: 15_000 });
    assert.strictEqual(await card.count(), 1, 'exactly one card for one message');
    assert.strictEqual(await input.inputValue(), '', 'the input is cleared after sending');
    await wb!.screenshot('chat-echo');
  });

  it('switches the role from the webview toggle and the status bar follows', async () => {
    const chat = wb!.chat();
    const status = wb!.roleStatus();
    await status.waitFor({ state: 'visible' });
    assert.match(await status.innerText(), /Planner/);
    await chat.locator('[aria-label="Role"]').click();
    await chat.locator('[aria-label="Role"][data-role="actor"]').waitFor({ state: 'visible', timeout: 10_000 });
    await wb!.page.locator('.part.statusbar .statusbar-item', { hasText: 'Tandem: Actor' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('switching from the palette is the user\'s own switch: no "Switched to … from the command palette" note', async () => {
    const chat = wb!.chat();
    await wb!.runCommand('Tandem: Switch to Planner');
    await chat.locator('[aria-label="Role"][data-role="planner"]').waitFor({ state: 'visible', timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await chat.locator('header .notice').count(), 0, 'no note about a switch the user just made');
    await wb!.screenshot('chat-palette-switch');
  });
});
