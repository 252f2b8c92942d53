/**
 * The suite entry VS Code loads inside the real extension host (`extensionTestsPath`): runs mocha
 * on every compiled `*.test.js` under out/test/integration/ (drop a new file in, it runs), then
 * reports mocha's stats on one marker line that the launcher hands to the runner, which prints the
 * stage's `N passed, N failed`. Optional filters arrive through the environment, because this runs
 * in another process: TANDEM_TEST_FILTER (comma-separated file substrings), TANDEM_TEST_GREP.
 */
import './support/hostConsole';
import Mocha from 'mocha';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { STATS_MARKER } from './support/statsMarker';

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.test.js')) out.push(p);
  }
  return out;
}

export async function run(): Promise<void> {
  const filters = (process.env.TANDEM_TEST_FILTER ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const files = walk(__dirname).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s))).sort();
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 60_000, grep: process.env.TANDEM_TEST_GREP || undefined });
  for (const f of files) mocha.addFile(f);
  if (files.length === 0) {
    console.log(`${STATS_MARKER}${JSON.stringify({ passes: 0, failures: 0, pending: 0, files: 0 })}`);
    throw new Error(`no integration test files under ${__dirname}${filters.length ? ` matching ${filters.join(', ')}` : ''}`);
  }
  await new Promise<void>((resolve, reject) => {
    // A pending test (this.skip(), it() without a body) did not run, so it proves nothing: it
    // counts as failed, like in scripts/run-mocha.mjs.
    const pending: string[] = [];
    const runner = mocha.run((failures) => {
      const s = runner.stats;
      for (const title of pending) console.error(`  ✗ did not run (pending counts as failed): ${title}`);
      console.log(`${STATS_MARKER}${JSON.stringify({ passes: s?.passes ?? 0, failures, pending: pending.length, files: files.length })}`);
      if (failures + pending.length > 0) reject(new Error(`${failures + pending.length} integration test(s) failed or did not run`));
      else resolve();
    });
    runner.on('pending', (test) => pending.push(test.fullTitle()));
  });
}
