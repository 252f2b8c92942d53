// `npm run bench`: every benchmark (bench/list.mjs), each printing its figures against its budget.
// A bench that crashes is reported and the rest still run; the exit code says whether any crashed.
// `--smoke`: each runs once with tiny counts (what the budgets stage of `npm test` does).
// Nothing here touches dist/: the production builds are staged in temp folders (scripts/package.mjs).
// Usage: node bench/run-all.mjs [--smoke]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCH_DIR, benches } from './list.mjs';
import { SMOKE } from './support/smoke.mjs';

const root = join(BENCH_DIR, '..');
const list = benches();
const crashed = [];
const t0 = Date.now();
for (const b of list) {
  console.log(`\n=== ${b}${SMOKE ? ' --smoke' : ''} ===`);
  const r = spawnSync(process.execPath, [join(BENCH_DIR, b), ...(SMOKE ? ['--smoke'] : [])], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) { crashed.push(b); console.error(`${b} failed (exit ${r.status ?? r.signal})`); }
}
console.log(`\n${list.length - crashed.length} of ${list.length} benchmarks ran (${((Date.now() - t0) / 1000).toFixed(0)} s)${crashed.length ? `; failed: ${crashed.join(', ')}` : ''}`);
process.exit(crashed.length ? 1 : 0);
