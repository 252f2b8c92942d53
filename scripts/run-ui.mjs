// `npm run test:ui`: Playwright (playwright-core) + Debian Chromium against a fresh code-server with
// Tandem loaded from source, for every out/test/ui/**/*.test.js. Screenshots land in test-results/.
// Ends with the stage's `N passed, N failed` (printed by run-mocha.mjs).
// `--under-load`: two busy loops keep two cores busy while the tests run, as a user's other work or a
// shared CI machine does, so waits that only hold on an idle machine show up here first.
// Usage: node scripts/run-ui.mjs [file-substring…] [--grep PATTERN] [--under-load]
import { spawn, spawnSync } from 'node:child_process';
import { ROOT } from './test-host-paths.mjs';
import { setupTestHost } from './setup-test-host.mjs';

const underLoad = process.argv.includes('--under-load');
const args = process.argv.slice(2).filter((a) => a !== '--under-load');

function step(args) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  return r.status ?? 1;
}

try {
  setupTestHost('ui');
} catch (e) {
  console.error(`ui: the test host is not ready: ${e.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
for (const args of [['esbuild.mjs'], ['scripts/compile-tests.mjs']]) {
  if (step(args) !== 0) { console.log('0 passed, 1 failed'); process.exit(1); }
}
const busy = underLoad ? [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })) : [];
if (underLoad) console.log(`ui: under load: two busy loops (pids ${busy.map((b) => b.pid).join(', ')}) run beside the tests`);
const stopBusy = () => { for (const b of busy) b.kill('SIGKILL'); };
process.on('exit', stopBusy);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stopBusy(); process.exit(1); });
const status = step(['scripts/run-mocha.mjs', 'ui', ...args]);
stopBusy();
process.exit(status);
