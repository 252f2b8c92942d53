// Runs one compiled mocha stage in plain Node and ends with the line CI reads: `N passed, N failed`.
// Usage: node scripts/run-mocha.mjs unit [file-substring…] [--grep PATTERN]
import Mocha from 'mocha';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [stage = 'unit', ...rest] = process.argv.slice(2);
let grep;
const filters = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--grep') grep = rest[++i];
  else filters.push(rest[i]);
}

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
const mocha = new Mocha({ timeout: 20_000, reporter: 'spec', grep });
for (const f of files.sort()) mocha.addFile(resolve(f));
const runner = mocha.run((failures) => {
  const s = runner.stats ?? { passes: 0, failures, pending: 0 };
  console.log(`${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}`);
  process.exitCode = failures || files.length === 0 ? 1 : 0;
  if (files.length === 0) console.error(`no test files found under out/test/${stage}`);
  // Tests may leave sockets or timers behind by mistake; don't let them hang CI.
  setTimeout(() => process.exit(process.exitCode), 2000).unref();
});
