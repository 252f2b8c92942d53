// Every benchmark, in the order they run: the foundation's (sizes, then activate() in the real
// extension host), then every bench/*.bench.mjs in name order. `npm run bench` runs them for their
// figures; the budgets stage of `npm test` runs each once with `--smoke` so none can rot.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

export function benches() {
  return ['foundation-sizes.mjs', 'foundation-activate.mjs', ...readdirSync(BENCH_DIR).filter((f) => f.endsWith('.bench.mjs')).sort()];
}
