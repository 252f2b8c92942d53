// `npm test`: every stage in order, each ending with its own `N passed, N failed` line. The list
// below is the whole pipeline: a stage is a name and a function returning an exit code; setup
// stages install what the stages after them need (idempotent, nothing when all is there), placed
// before the first stage that needs it, so a fresh machine works and nothing is skipped for lack
// of a tool. Every stage runs even after a failure; the exit code is non-zero if any failed.
// Usage: node scripts/test-all.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './test-host-paths.mjs';

const node = process.execPath;
const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  return r.status ?? 1;
}

/** A stage made of named checks, each a command that passes with exit 0. */
function checks(list) {
  let passed = 0;
  let failed = 0;
  for (const [name, ok] of list) {
    if (ok()) passed++;
    else { failed++; console.error(`  ✗ ${name}`); }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** Installs what `stage` needs (scripts/setup-test-host.mjs lists it); prints its own stage line. */
const setupFor = (stage) => () => run(node, ['scripts/setup-test-host.mjs', '--for', stage]);

const stages = [
  ['lint', () => run(node, ['scripts/lint.mjs'])],
  ['typecheck', () => checks([
    ['tsconfig.json (extension, core, tests)', () => run(node, [tsc, '-p', 'tsconfig.json', '--noEmit']) === 0],
    ['webview-ui/tsconfig.json', () => run(node, [tsc, '-p', 'webview-ui/tsconfig.json', '--noEmit']) === 0],
  ])],
  ['build', () => {
    const t = Date.now();
    const status = run(node, ['esbuild.mjs']);
    const fresh = (f) => status === 0 && existsSync(join(ROOT, 'dist', f)) && statSync(join(ROOT, 'dist', f)).mtimeMs >= t - 1000;
    return checks(['extension.js', 'cli.js', 'webview.js', 'webview.css'].map((f) => [`dist/${f}`, () => fresh(f)]));
  }],
  ['setup for unit (Debian packages)', setupFor('unit')],
  ['unit', () => {
    if (run(node, ['scripts/compile-tests.mjs']) !== 0) { console.log('0 passed, 1 failed'); return 1; }
    return run(node, ['scripts/run-mocha.mjs', 'unit']);
  }],
  ['setup for integration and ui (Node 24, code-server)', setupFor('integration')],
  ['integration', () => run(node, ['scripts/run-integration.mjs'])],
  ['ui', () => run(node, ['scripts/run-ui.mjs'])],
  // llama.cpp's own server, built once from the source inside the npm package node-llama-cpp
  // (10–15 minutes on two cores the first time, nothing after); the tests write their own tiny model.
  ['setup for llama-server (build once, cached)', () => run(node, ['scripts/setup-llama-server.mjs'])],
  ['llama-server', () => {
    if (!existsSync(join(ROOT, 'out', 'test', 'llama')) && run(node, ['scripts/compile-tests.mjs']) !== 0) { console.log('0 passed, 1 failed'); return 1; }
    return run(node, ['scripts/run-mocha.mjs', 'llama']);
  }],
  // Last, as it needs what every setup above installed: the deterministic figures (production
  // webview, dist/extension.js, VSIX, prompt tokens per role) against their budgets, then every
  // bench once in smoke mode (foundation-activate in code-server, llamaServer on the built server).
  // Its production build is staged in a temp folder: dist/ stays the development build.
  ['budgets', () => run(node, ['bench/budgets.mjs'])],
];

const failed = [];
const t0 = Date.now();
for (const [name, stage] of stages) {
  console.log(`\n=== ${name} ===`);
  const t = Date.now();
  const status = stage();
  if (status !== 0) { failed.push(name); console.error(`stage ${name} failed (exit ${status})`); }
  console.log(`(${name}: ${((Date.now() - t) / 1000).toFixed(1)} s)`);
}
console.log(`\nnpm test: ${stages.length - failed.length} of ${stages.length} stages passed in ${((Date.now() - t0) / 1000).toFixed(0)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
