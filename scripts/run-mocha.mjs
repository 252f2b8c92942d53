// Runs one compiled mocha stage in plain Node and ends with the line CI reads: `N passed, N failed`.
// A pending test (this.skip(), it() without a body, describe.skip) counts as failed: a test that
// did not run proves nothing, and what a test needs is installed by scripts/setup-test-host.mjs.
// Usage: node scripts/run-mocha.mjs unit [file-substring…] [--grep PATTERN]
import Mocha from 'mocha';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { grep: { type: 'string' } }, allowPositionals: true });
const [stage = 'unit', ...filters] = positionals;

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const files = walk(join('out', 'test', stage)).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
const mocha = new Mocha({ timeout: 20_000, reporter: 'spec', grep: values.grep });
for (const f of files.sort()) mocha.addFile(resolve(f));
const pending = [];
const runner = mocha.run((failures) => {
  const s = runner.stats ?? { passes: 0, failures, pending: 0 };
  for (const title of pending) console.error(`  ✗ did not run (pending counts as failed): ${title}`);
  const failed = s.failures + pending.length;
  console.log(`${s.passes} passed, ${failed} failed`);
  process.exitCode = failed || files.length === 0 ? 1 : 0;
  if (files.length === 0) console.error(`no test files found under out/test/${stage}`);
  // Tests may leave sockets or timers behind by mistake; don't let them hang CI.
  setTimeout(() => process.exit(process.exitCode), 2000).unref();
});
runner.on('pending', (test) => pending.push(test.fullTitle()));
