// `activate()` inside the real extension host (code-server 1.139 on Node 24), against the budget
// (BUDGETS.activateMs): the time to load dist/extension.js plus the body of activate(). Runs a
// production build staged apart from dist/ (scripts/package.mjs), loaded as the extension under
// development. Prints, asserts nothing. Smoke mode (`--smoke`) runs the same once; its figure is
// not compared (a timing on a shared machine is no test).
// Usage: node bench/foundation-activate.mjs [--smoke]
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/test-host-paths.mjs';
import { setupTestHost } from '../scripts/setup-test-host.mjs';
import { stageProductionBuild } from '../scripts/package.mjs';
import { BUDGETS, line } from './foundation/budget.mjs';
import { SMOKE } from './support/smoke.mjs';

setupTestHost();
const suite = join(ROOT, 'out', 'bench', 'foundation', 'activateSuite.js');
if (!existsSync(suite)) {
  const c = spawnSync(process.execPath, ['scripts/compile-tests.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (c.status !== 0) process.exit(1);
}

const tmp = mkdtempSync(join(tmpdir(), 'tandem-bench-activate-'));
const out = join(tmp, 'activation.json');
const workspace = join(tmp, 'sample-workspace');
const extension = join(tmp, 'extension');
cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
let result;
try {
  stageProductionBuild(extension, { quiet: true });
  await runTests({
    vscodeExecutablePath: join(ROOT, 'scripts', 'code-server-launcher.mjs'),
    extensionDevelopmentPath: extension,
    extensionTestsPath: suite,
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
console.log(`Activation inside the real extension host (code-server 1.139, Node 24)${SMOKE ? ' — smoke run, figure not compared' : ''}`);
console.log(line('activate(): load + body', firstLoad + result.activateBodyMs, 'ms', SMOKE ? undefined : BUDGETS.activateMs));
console.log(`    (load of dist/extension.js: first ${firstLoad.toFixed(1)} ms, median of ${sorted.length} ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms; body of activate(): ${result.activateBodyMs.toFixed(1)} ms)`);
console.log(`    files beside dist/extension.js that activation loaded (each should load on first use): ${result.lazyLoaded?.length ? result.lazyLoaded.join(', ') : 'none'}`);
