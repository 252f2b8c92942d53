// Sizes against the budgets, on a production build: the webview's JS+CSS gzipped
// (≤ 60 KB), dist/extension.js (≤ 1 MB minified) and the VSIX (≤ 2 MB). Prints, asserts nothing.
// Leaves dist/ as the production build (run-all.mjs restores the development build at the end).
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../scripts/test-host-paths.mjs';
import { line } from './foundation/budget.mjs';

const r = spawnSync(process.execPath, ['scripts/package.mjs'], { cwd: ROOT, encoding: 'utf8' });
if (r.status !== 0) {
  process.stderr.write(r.stdout + r.stderr);
  console.error('foundation-sizes: the production build / package failed');
  process.exit(1);
}
const dist = (f) => join(ROOT, 'dist', f);
const gz = (f) => (existsSync(dist(f)) ? gzipSync(readFileSync(dist(f)), { level: 9 }).length : 0);
const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const vsix = join(ROOT, `${name}-${version}.vsix`);

console.log('Foundation sizes (production build)');
console.log(line('webview JS+CSS gzipped', (gz('webview.js') + gz('webview.css')) / 1024, 'KB', 60));
console.log(`    (webview.js ${(gz('webview.js') / 1024).toFixed(1)} KB gz, webview.css ${(gz('webview.css') / 1024).toFixed(1)} KB gz)`);
console.log(line('dist/extension.js', statSync(dist('extension.js')).size / 1024 / 1024, 'MB', 1, 2));
console.log(`    (${(gz('extension.js') / 1024).toFixed(0)} KB gzipped)`);
console.log(line(`VSIX ${name}-${version}.vsix`, statSync(vsix).size / 1024 / 1024, 'MB', 2, 2));
