/**
 * A small harness for UI tests: a fresh code-server with Tandem loaded from source, Debian Chromium
 * driven by playwright-core, and helpers to reach the chat webview (two iframes deep), run palette
 * commands and save screenshots under test-results/. Everything started here is stopped by `close()`
 * (process group, browser, temp folders), and by the code-server helper's exit hooks if a test dies.
 *
 *   const wb = await openWorkbench();
 *   const chat = await wb.openTandemView();
 *   await chat.getByRole('textbox', { name: 'Message Tandem' }).fill('hi');
 *   await wb.screenshot('my-test');
 *   await wb.close();
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { PRODUCT_ROLE_INFO } from '../../src/protocol';

/** The repository root, found from here whether this runs from test/ui or out/test/ui. */
export const ROOT = (() => {
  let dir = __dirname;
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj) && (JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'tandem') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no tandem package.json above ${__dirname}`);
    dir = up;
  }
})();

export const RESULTS_DIR = join(ROOT, 'test-results');

/** The parts of scripts/code-server.mjs and scripts/chromium.mjs the harness uses (they are plain ESM). */
export interface CodeServer {
  baseUrl: string;
  /** The server's pid, which leads its own process group. */
  pid: number;
  /** Its temp folder (user data, HOME, TMPDIR, XDG_*), removed by stop(). */
  dir: string;
  output: string[];
  workbenchUrl(folder?: string, payload?: unknown): string;
  stop(): Promise<void>;
}
interface CodeServerModule {
  startCodeServer(opts?: { settings?: Record<string, unknown>; echo?: boolean; installExtensions?: string[] }): Promise<CodeServer>;
  devPayload(server: CodeServer, paths: { extensionDevelopmentPath?: string; extensionTestsPath?: string }): unknown;
}
interface ChromiumModule {
  launchChromium(opts?: { headless?: boolean }): Promise<{ browser: Browser; close(): Promise<void> }>;
}

async function importScript<T>(name: string): Promise<T> {
  return (await import(pathToFileURL(join(ROOT, 'scripts', name)).href)) as T;
}

export interface WorkbenchOptions {
  /** A folder to open; by default a fresh copy of sample-workspace/ in the temp folder. */
  workspace?: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  viewport?: { width: number; height: number };
  /**
   * A VSIX to install instead of loading Tandem from source (dist/ is then not used at all).
   * Default: Tandem from source, as an extension under development.
   */
  vsix?: string;
}

export interface Workbench {
  page: Page;
  server: CodeServer;
  /** The folder the workbench has open. */
  workspace: string;
  /** Opens the Tandem view from the activity bar; resolves with the chat webview's content frame. */
  openTandemView(): Promise<FrameLocator>;
  /** The chat webview's content frame (the view must be open). */
  chat(): FrameLocator;
  /** Runs a command from the palette by its title, e.g. "Tandem: New Task" (typed again until the window knows it). */
  runCommand(title: string): Promise<void>;
  /** The status-bar item showing Tandem's role. */
  roleStatus(): Locator;
  /** Saves test-results/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /**
   * Opens a second browser window (tab) on the same server and folder, with Tandem loaded the same
   * way: what a user gets from "New Window" or a second browser tab in code-server.
   */
  openAnotherWindow(): Promise<Page>;
  close(): Promise<void>;
}

export async function openWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  const { startCodeServer, devPayload } = await importScript<CodeServerModule>('code-server.mjs');
  const { launchChromium } = await importScript<ChromiumModule>('chromium.mjs');
  if (!opts.vsix && (!existsSync(join(ROOT, 'dist', 'extension.js')) || !existsSync(join(ROOT, 'dist', 'webview.js')))) {
    throw new Error('dist/ is missing: run `npm run build` first');
  }
  let scratch: string | undefined;
  let workspace = opts.workspace;
  if (!workspace) {
    scratch = mkdtempSync(join(tmpdir(), 'tandem-ui-'));
    workspace = join(scratch, 'sample-workspace');
    cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
  }
  let server: CodeServer | undefined;
  let chromium: { browser: Browser; close(): Promise<void> } | undefined;
  const close = async () => {
    await chromium?.close();
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  try {
    server = await startCodeServer({
      settings: opts.settings,
      echo: process.env.TANDEM_TEST_SERVER_LOG === '1',
      installExtensions: opts.vsix ? [opts.vsix] : [],
    });
    chromium = await launchChromium();
    const page = await chromium.browser.newPage({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    if (process.env.TANDEM_TEST_BROWSER_LOG === '1') page.on('console', (m) => process.stderr.write(`[browser] ${m.text()}\n`));
    await page.goto(server.workbenchUrl(workspace, opts.vsix ? undefined : devPayload(server, { extensionDevelopmentPath: ROOT })));
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    const url = server.workbenchUrl(workspace, opts.vsix ? undefined : devPayload(server, { extensionDevelopmentPath: ROOT }));
    return makeWorkbench(page, server, workspace, close, url);
  } catch (e) {
    await close();
    throw e;
  }
}

/** The status-bar item's text for any role of the table. */
const ROLE_STATUS = new RegExp(`Tandem: (${PRODUCT_ROLE_INFO.list.map((r) => r.label).join('|')})`);

function makeWorkbench(page: Page, server: CodeServer, workspace: string, close: () => Promise<void>, url: string): Workbench {
  const chat = () => page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const wb: Workbench = {
    page, server, workspace, close, chat,
    async openTandemView() {
      // The extension registers its container once the extension host has scanned it: wait for it.
      const item = page.locator('.part.activitybar .action-item a[aria-label^="Tandem"], .part.activitybar .action-item[aria-label^="Tandem"]').first();
      await item.waitFor({ state: 'visible', timeout: 60_000 });
      const expanded = await page.locator('.part.sidebar .composite.title', { hasText: /Tandem/i }).isVisible().catch(() => false);
      if (!expanded) await item.click();
      await chat().locator('body').waitFor({ state: 'attached' });
      return chat();
    },
    async runCommand(title: string) {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible' });
      const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
      // The palette lists the commands the window knows when its text changes. Right after the window
      // opens it has not read the extensions' manifests yet (Tandem's icon is not in the activity bar
      // either) and no Tandem command is there: type the title again, as a user would, until it shows.
      // The palette can also close under the typing (focus taken by an editor or a hover right after
      // a click): then it is opened again, as a user would, instead of typing into nothing for 30 s.
      const end = Date.now() + 60_000;
      for (;;) {
        const typed = await input.fill(`>${title}`, { timeout: 5_000 }).then(() => true, () => false);
        if (typed && (await row.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false))) break;
        if (Date.now() > end) throw new Error(`the palette never offered "${title}"`);
        if (typed) await input.fill('>', { timeout: 5_000 }).catch(() => undefined);
        else {
          await page.keyboard.press('Escape');
          await page.keyboard.press('F1');
          await input.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
        }
      }
      await page.keyboard.press('Enter');
    },
    roleStatus() {
      return page.locator('.part.statusbar .statusbar-item', { hasText: ROLE_STATUS }).first();
    },
    async openAnotherWindow() {
      // A page of its own browser context: like another browser window, it shares nothing with the first but the server.
      const browser = page.context().browser();
      if (!browser) throw new Error('no browser behind this page');
      const other = await browser.newPage({ viewport: page.viewportSize() ?? { width: 1280, height: 800 } });
      other.setDefaultTimeout(30_000);
      await other.goto(url);
      await other.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
      return other;
    },
    async screenshot(name: string) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const file = join(RESULTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    },
  };
  return wb;
}
