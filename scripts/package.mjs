// `npm run package`: a production build, then `vsce package` into tandem-<version>.vsix. Only what
// runs goes in (see .vscodeignore; `npx vsce ls` lists it). Dependencies are bundled by esbuild,
// so vsce does not need to walk node_modules (--no-dependencies), which also keeps it offline.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './test-host-paths.mjs';

const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const out = `${name}-${version}.vsix`;

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run(process.execPath, ['esbuild.mjs', '--production']);
run(process.execPath, [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', out]);
console.log(`${out}: ${(statSync(join(ROOT, out)).size / 1024).toFixed(1)} KB`);
