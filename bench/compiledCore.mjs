// How the benchmarks reach the core: the compiled modules in out/ (or TANDEM_OUT=<dir with src/>).
// When nothing is compiled yet (a fresh clone), compile first, so `npm run bench` works on its own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = path.resolve(process.env.TANDEM_OUT ?? path.join(root, 'out'));
const require = createRequire(import.meta.url);

if (!process.env.TANDEM_OUT && !existsSync(path.join(OUT, 'src/core/runtime/wireAgent.js'))) {
  spawnSync(process.execPath, ['scripts/compile-tests.mjs'], { cwd: root, stdio: 'inherit' });
}

/** `require` of a compiled module by its path under out/, e.g. 'src/core/roles/roles.js'. */
export function loadCore(p) {
  try {
    return require(path.join(OUT, p));
  } catch (e) {
    console.error(`Cannot load ${p} from ${OUT}: run \`npm run compile-tests\` first (${e.message})`);
    process.exit(1);
  }
}
