// `npm run test:integration`: mocha inside a real VS Code extension host (code-server 1.139 on Node 24),
// driven by @vscode/test-electron's `runTests` with scripts/code-server-launcher.mjs standing in for
// the `code` executable. Ends with the stage's `N passed, N failed`, taken from mocha's own stats.
// Usage: node scripts/run-integration.mjs [file-substring…] [--grep PATTERN]
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './test-host-paths.mjs';
import { setupTestHost } from './setup-test-host.mjs';

const filters = [];
let grep = '';
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--grep') grep = argv[++i] ?? '';
  else filters.push(argv[i]);
}

function step(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

let stats;
let failedToRun;
const statsDir = mkdtempSync(join(tmpdir(), 'tandem-it-'));
const statsFile = join(statsDir, 'stats.json');
// Tests open a copy of the sample workspace, so whatever they write never dirties the repository.
const workspace = join(statsDir, 'sample-workspace');
cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
try {
  setupTestHost('integration');
  // The host loads the extension from source (dist/) and the suite from out/.
  step(process.execPath, ['esbuild.mjs']);
  step(process.execPath, ['scripts/compile-tests.mjs']);
  await runTests({
    vscodeExecutablePath: join(ROOT, 'scripts', 'code-server-launcher.mjs'),
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(ROOT, 'out', 'test', 'integration', 'index.js'),
    launchArgs: [workspace],
    extensionTestsEnv: { TANDEM_TEST_FILTER: filters.join(','), TANDEM_TEST_GREP: grep, TANDEM_TEST_STATS_FILE: statsFile },
    // The launcher uses its own temp profile; don't let runTests add folders under the repo.
    reuseMachineInstall: true,
  });
} catch (e) {
  failedToRun = e;
} finally {
  if (existsSync(statsFile)) stats = JSON.parse(readFileSync(statsFile, 'utf8'));
  rmSync(statsDir, { recursive: true, force: true });
}

if (stats) {
  if (failedToRun && stats.failures === 0) console.error(`integration run failed: ${failedToRun.message ?? failedToRun}`);
  // Pending tests did not run: they count as failed (test/integration/index.ts lists them).
  const failed = stats.failures + (stats.pending ?? 0);
  console.log(`${stats.passes} passed, ${failed} failed`);
  process.exit(failed > 0 || failedToRun || stats.files === 0 ? 1 : 0);
} else {
  // The suite never reported: the host did not start, or crashed. That is one failure, not zero.
  console.error(`integration suite did not report results${failedToRun ? `: ${failedToRun.message ?? failedToRun}` : ''}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
