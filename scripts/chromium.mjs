// Launches Debian's Chromium through playwright-core (never `npx playwright install`: no downloads).
// HOME points at a temp folder so the browser leaves nothing (e.g. ~/.pki) outside it.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM } from './test-host-paths.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--password-store=basic',
];

/** @returns {Promise<{ browser: import('playwright-core').Browser, close: () => Promise<void> }>} */
export async function launchChromium({ headless = true } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run \`npm run setup-test-host\` (installs Debian's chromium)`);
  const home = mkdtempSync(join(tmpdir(), 'tandem-chromium-'));
  // TMPDIR too: Chromium keeps org.chromium.Chromium.* folders there.
  mkdirSync(join(home, 'tmp'));
  const env = { ...process.env, HOME: home, TMPDIR: join(home, 'tmp'), XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };
  let browser;
  try {
    // Playwright gives the browser a fresh temp profile of its own and deletes it on close.
    browser = await chromium.launch({ executablePath: CHROMIUM, headless, args: CHROMIUM_ARGS, env });
  } catch (e) {
    rmSync(home, { recursive: true, force: true });
    throw e;
  }
  // On a signal the process exits without awaiting close(); still leave no folder behind.
  const removeHome = () => rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  process.once('exit', removeHome);
  const close = async () => {
    await browser.close().catch(() => {});
    removeHome();
    process.removeListener('exit', removeHome);
  };
  return { browser, close };
}
