// `activate()` inside the real extension host (code-server 1.139 on Node 24), against the budget of
// Budget ≤ 50 ms: the time to load dist/extension.js plus the body of activate(). Uses whatever
// is in dist/ (run-all.mjs runs it after the production build). Prints, asserts nothing.
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/test-host-paths.mjs';
import { setupTestHost } from '../scripts/setup-test-host.mjs';
import { line } from './foundation/budget.mjs';

if (!existsSync(join(ROOT, 'dist', 'extension.js'))) {
  const b = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
setupTestHost();
const c = spawnSync(process.execPath, ['scripts/compile-tests.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (c.status !== 0) process.exit(1);

const tmp = mkdtempSync(join(tmpdir(), 'tandem-bench-activate-'));
const out = join(tmp, 'activation.json');
const workspace = join(tmp, 'sample-workspace');
cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
let result;
try {
  await runTests({
    vscodeExecutablePath: join(ROOT, 'scripts', 'code-server-launcher.mjs'),
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(ROOT, 'out', 'bench', 'foundation', 'activateSuite.js'),
    launchArgs: [workspace],
    extensionTestsEnv: { TANDEM_BENCH_OUT: out },
    reuseMachineInstall: true,
  });
  result = JSON.parse(readFileSync(out, 'utf8'));
} catch (e) {
  console.error(`foundation-activate: the run failed: ${e.message ?? e}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (!result) process.exit(1);

const firstLoad = result.loadMs[0];
const sorted = [...result.loadMs].sort((a, b) => a - b);
console.log('Activation inside the real extension host (code-server 1.139, Node 24)');
console.log(line('activate(): load + body', firstLoad + result.activateBodyMs, 'ms', 50));
console.log(`    (load of dist/extension.js: first ${firstLoad.toFixed(1)} ms, median of ${sorted.length} ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms; body of activate(): ${result.activateBodyMs.toFixed(1)} ms)`);
