/**
 * The `@` picker's first search in a new window, in the real workbench (code-server + Chromium):
 * typed quickly, each key asks the host for its own search, and those answers may come back in any
 * order (each waits for the same first index, then for its own ignore checks). The picker must use
 * the answer to what is typed now, whichever came last, and Enter pressed before it must pick the
 * top match once it arrives — never stay on "Searching…" with Enter doing nothing. The picker also
 * says that Enter was taken. Screenshots: test-results/mention-first-*.png (300 px).
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { chatSuite } from './chatSuite';
import { setSidebarWidth } from './sidebarWidth';
import { text } from '../support/scriptSteps';
import { userMessages } from '../support/modelRequests';
import { waitUntil } from '../support/wait';

/** A workspace big enough that the short queries' ignore checks take longer than the long one's. */
function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'src/cart.ts': 'export class Cart {\n  items: string[] = [];\n}\n',
    '.gitignore': 'build/\n*.log\n',
  };
  for (let d = 0; d < 12; d++) {
    for (let f = 0; f < 25; f++) files[`pkg${d}/module${f}/c${f}.ts`] = `export const c${d}_${f} = ${f};\n`;
  }
  return files;
}

describe('The @ picker on the first search of a new window (UI)', function () {
  this.timeout(240_000);
  const ui = chatSuite({ name: 'mention-first', files: manyFiles() });
  const picker = (): Locator => ui.chat.locator('.mention-picker');
  /** The picker's status line is read whole at 300 px, not cut with an ellipsis. */
  async function statusNotCut(): Promise<void> {
    const line = ui.chat.locator('.mention-picker li[aria-disabled="true"]');
    const cut = await line.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    assert.equal(cut, false, `the picker's line "${await line.innerText()}" is cut at 300 px`);
  }

  it('Enter typed right after a quick @query picks the match once the search answers, and the message carries the file', async () => {
    await setSidebarWidth(ui.wb.page, 300);
    await ui.input().click();
    // As fast as a user types: every key posts its own search before the first has answered.
    await ui.input().pressSequentially('Explain @cart', { delay: 5 });
    await ui.input().press('Enter');
    const busy = await picker().getAttribute('aria-busy').catch(() => null);
    if (busy === 'true') {
      // Still searching: the picker says the Enter was kept for the match. The answer may arrive
      // at any moment, taking the line away, so the line is found and measured in one step.
      const kept = ui.chat.locator('.mention-picker li[aria-disabled="true"]', { hasText: /Enter picks the first match/ });
      const cut = await kept.evaluate((el) => el.scrollWidth > el.clientWidth + 1, undefined, { timeout: 5_000 }).catch(async (e: unknown) => {
        if ((await ui.input().inputValue()) === 'Explain @src/cart.ts ') return undefined; // the answer came first and was picked
        throw e;
      });
      if (cut !== undefined) {
        await ui.wb.screenshot('mention-first-01-enter-kept');
        assert.equal(cut, false, 'the picker\'s "Enter picks the first match" line is cut at 300 px');
      }
    }
    await waitUntil(async () => (await ui.input().inputValue()) === 'Explain @src/cart.ts ', 'the Enter typed during the search to pick @src/cart.ts', 60_000);
    await picker().waitFor({ state: 'hidden', timeout: 5_000 });
    await ui.wb.screenshot('mention-first-02-picked');

    ui.server.replace([text('Cart holds the items.')]);
    await ui.input().press('Enter');
    await ui.textCard('Cart holds the items.').first().waitFor({ state: 'visible', timeout: 30_000 });
    const sent = ui.server.chatRequests().map((b) => userMessages(b).at(-1) ?? '').at(-1) ?? '';
    assert.match(sent, /export class Cart/, 'the message carried src/cart.ts');
  });

  it('Enter with no match is taken, and the picker says so: Escape leaves the text as typed', async () => {
    await ui.idle();
    await ui.input().click();
    await ui.input().fill(''); // stands alone: whatever an earlier test left in the composer goes
    await ui.input().pressSequentially('see @zzqq', { delay: 20 });
    await ui.chat.locator('.mention-picker', { hasText: 'No match' }).waitFor({ state: 'visible', timeout: 30_000 });
    const before = ui.server.chatRequests().length;
    await ui.input().press('Enter');
    await ui.chat.locator('.mention-picker', { hasText: /Enter was taken/ }).waitFor({ state: 'visible', timeout: 5_000 });
    await ui.wb.screenshot('mention-first-03-no-match-enter-taken');
    await statusNotCut();
    assert.equal(await ui.input().inputValue(), 'see @zzqq', 'the text stays as typed');
    assert.equal(ui.server.chatRequests().length, before, 'nothing was sent');
    await ui.input().press('Escape');
    await picker().waitFor({ state: 'hidden', timeout: 5_000 });
    ui.server.replace([text('Nothing named that.')]);
    await ui.input().press('Enter');
    await ui.textCard('Nothing named that.').first().waitFor({ state: 'visible', timeout: 30_000 });
    await ui.userCard('see @zzqq').first().waitFor({ state: 'visible' });
  });
});
