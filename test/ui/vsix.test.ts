import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkbench, ROOT, type Workbench } from './harness';

/**
 * The packaged extension, installed the way a user installs it, works on its own: nothing it needs
 * was left out of the VSIX. (The other UI tests load Tandem from source.)
 */
describe('Tandem installed from its VSIX (UI)', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;
  let tmp: string | undefined;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tandem-vsix-'));
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const vsix = join(tmp, `tandem-${version}.vsix`);
    // A production build and the real `vsce package` (offline, dependencies are bundled).
    execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore' });
    execFileSync(process.execPath, [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix], { cwd: ROOT, stdio: 'ignore' });
    assert.ok(existsSync(vsix));
    wb = await openWorkbench({ vsix, settings: { 'tandem.baseUrl': 'http://127.0.0.1:9/v1' } });
  });

  after(async () => {
    if (wb) await wb.screenshot('vsix-installed').catch((e: unknown) => console.error(`screenshot failed: ${String(e)}`));
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    // Leave dist/ as the development build the other stages expect (source maps).
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  });

  it('shows the chat with its input and role, shows the role in the status bar, and echoes a message', async () => {
    const chat = await wb!.openTandemView();
    const input = chat.locator('textarea[aria-label="Message Tandem"]');
    await input.waitFor({ state: 'visible' });
    await chat.locator('[aria-label="Role"]').waitFor({ state: 'visible' });
    await wb!.roleStatus().waitFor({ state: 'visible' });
    await input.fill('installed from the VSIX');
    await input.press('Enter');
    await chat.locator('[data-card-kind="text"]', { hasText: 'installed from the VSIX' }).waitFor({ state: 'visible', timeout: 15_000 });
    // It really is the installed copy, not the source tree: the window is not an extension development host.
    assert.doesNotMatch(await wb!.page.title(), /Extension Development Host/);
  });
});
