// Transpiles src/ and test/ to out/ file by file (no bundling, no type check) so mocha can run the
// compiled core in plain Node. Type checking is `npm run typecheck`, run by `npm test`.
import * as esbuild from 'esbuild';
import { readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

rmSync('out', { recursive: true, force: true });
const entryPoints = [...walk('src'), ...walk('test'), ...walk('bench').filter((p) => p.endsWith('.ts'))];
await esbuild.build({
  entryPoints,
  outdir: 'out',
  outbase: '.',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});
