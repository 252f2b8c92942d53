/**
 * What some unit tests need from the machine. A missing one fails the test with the line that
 * installs it — never a skip: a test that did not run proves nothing. `npm test` installs both
 * before the unit stage (scripts/setup-test-host.mjs --for unit).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { findRipgrep } from '../../src/host/node/findRipgrep';

export const CHROMIUM = '/usr/bin/chromium';

const install = (pkg: string) =>
  `Run \`node scripts/setup-test-host.mjs --for unit\` (npm test does), or: apt-get install -y --no-install-recommends ${pkg}`;

export function requireRipgrep(): string {
  const rg = findRipgrep();
  if (!rg) assert.fail(`ripgrep (rg) is not on PATH, and this test needs it. ${install('ripgrep')}`);
  return rg;
}

export function requireChromium(): string {
  if (!fs.existsSync(CHROMIUM)) assert.fail(`${CHROMIUM} not found, and this test needs it. ${install('chromium')}`);
  return CHROMIUM;
}
