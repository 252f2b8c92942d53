// `npm run bench`: every benchmark, each printing its figures against its budget.
// First the foundation's (sizes on a production build, then activate() in the real extension host
// on that same build), then every bench/*.bench.mjs other work added, in name order. A bench that
// crashes is reported and the rest still run; the exit code says whether any crashed.
// Finally the development build is restored in dist/ (source maps for debugging and tests).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const benches = [
  'foundation-sizes.mjs',
  'foundation-activate.mjs',
  ...readdirSync(here).filter((f) => f.endsWith('.bench.mjs')).sort(),
];

const crashed = [];
const t0 = Date.now();
for (const b of benches) {
  console.log(`\n=== ${b} ===`);
  const r = spawnSync(process.execPath, [join(here, b)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) { crashed.push(b); console.error(`${b} failed (exit ${r.status ?? r.signal})`); }
}
spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'ignore' });
console.log(`\n${benches.length - crashed.length} of ${benches.length} benchmarks ran (${((Date.now() - t0) / 1000).toFixed(0)} s)${crashed.length ? `; failed: ${crashed.join(', ')}` : ''}`);
process.exit(crashed.length ? 1 : 0);
