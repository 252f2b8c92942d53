// `npm run test:ui`: Playwright (playwright-core) + Debian Chromium against a fresh code-server with
// Tandem loaded from source, for every out/test/ui/**/*.test.js. Screenshots land in test-results/.
// Ends with the stage's `N passed, N failed` (printed by run-mocha.mjs).
// Usage: node scripts/run-ui.mjs [file-substring…] [--grep PATTERN]
import { spawnSync } from 'node:child_process';
import { ROOT } from './test-host-paths.mjs';
import { setupTestHost } from './setup-test-host.mjs';

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
process.exit(step(['scripts/run-mocha.mjs', 'ui', ...process.argv.slice(2)]));
