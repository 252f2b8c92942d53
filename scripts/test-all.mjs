// `npm test`: every stage in order, each ending with its own `N passed, N failed` line. The list
// below is the whole pipeline: a stage is a name and a function returning an exit code; setup
// stages install what the stages after them need (idempotent, nothing when all is there), placed
// before the first stage that needs it, so a fresh machine works and nothing is skipped for lack
// of a tool. Every stage runs even after a failure; the exit code is non-zero if any failed.
// A run's log is often read from its end only (a CI page shows the tail): the end repeats which
// tests failed and why, taken from each failed stage's own output.
// Usage: node scripts/test-all.mjs
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './test-host-paths.mjs';

const node = process.execPath;
const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** What the running stage printed, kept (up to its last few MB) for the digest of failures. */
let printed = '';
const KEEP = 4 * 1024 * 1024;

/** Runs a command, its output shown as it comes and kept for the digest. */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['inherit', 'pipe', 'pipe'] });
    const keep = (out) => (chunk) => {
      out.write(chunk);
      printed += chunk.toString('utf8');
      if (printed.length > KEEP) printed = printed.slice(-KEEP);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('error', (e) => { console.error(`${cmd}: ${e.message}`); resolve(1); });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** A stage made of named checks, each a command that passes with exit 0. */
async function checks(list) {
  let passed = 0;
  let failed = 0;
  for (const [name, ok] of list) {
    if (await ok()) passed++;
    else { failed++; console.error(`  ✗ ${name}`); printed += `  ✗ ${name}\n`; }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** Installs what `stage` needs (scripts/setup-test-host.mjs lists it); prints its own stage line. */
const setupFor = (stage) => () => run(node, ['scripts/setup-test-host.mjs', '--for', stage]);

const stages = [
  ['lint', () => run(node, ['scripts/lint.mjs'])],
  ['typecheck', () => checks([
    ['tsconfig.json (extension, core, tests)', async () => (await run(node, [tsc, '-p', 'tsconfig.json', '--noEmit'])) === 0],
    ['webview-ui/tsconfig.json', async () => (await run(node, [tsc, '-p', 'webview-ui/tsconfig.json', '--noEmit'])) === 0],
  ])],
  ['build', async () => {
    const t = Date.now();
    const status = await run(node, ['esbuild.mjs']);
    const fresh = (f) => status === 0 && existsSync(join(ROOT, 'dist', f)) && statSync(join(ROOT, 'dist', f)).mtimeMs >= t - 1000;
    return checks(['extension.js', 'cli.js', 'webview.js', 'webview.css'].map((f) => [`dist/${f}`, () => fresh(f)]));
  }],
  ['setup for unit (Debian packages)', setupFor('unit')],
  ['unit', async () => {
    if ((await run(node, ['scripts/compile-tests.mjs'])) !== 0) { console.log('0 passed, 1 failed'); return 1; }
    return run(node, ['scripts/run-mocha.mjs', 'unit']);
  }],
  ['setup for integration and ui (Node 24, code-server)', setupFor('integration')],
  ['integration', () => run(node, ['scripts/run-integration.mjs'])],
  ['ui', () => run(node, ['scripts/run-ui.mjs'])],
  // llama.cpp's own server, built once from the source inside the npm package node-llama-cpp
  // (10–15 minutes on two cores the first time, nothing after); the tests write their own tiny model.
  ['setup for llama-server (build once, cached)', () => run(node, ['scripts/setup-llama-server.mjs'])],
  ['llama-server', async () => {
    if (!existsSync(join(ROOT, 'out', 'test', 'llama')) && (await run(node, ['scripts/compile-tests.mjs'])) !== 0) { console.log('0 passed, 1 failed'); return 1; }
    return run(node, ['scripts/run-mocha.mjs', 'llama']);
  }],
  // Last, as it needs what every setup above installed: the deterministic figures (production
  // webview, dist/extension.js, VSIX, prompt tokens per role) against their budgets, then every
  // bench once in smoke mode (foundation-activate in code-server, llamaServer on the built server).
  // Its production build is staged in a temp folder: dist/ stays the development build.
  ['budgets', () => run(node, ['bench/budgets.mjs'])],
];

const failed = [];
const digests = [];
const t0 = Date.now();
for (const [name, stage] of stages) {
  console.log(`\n=== ${name} ===`);
  const t = Date.now();
  printed = '';
  const status = await stage();
  if (status !== 0) {
    failed.push(name);
    console.error(`stage ${name} failed (exit ${status})`);
    digests.push(`${name}:\n${failureDigest(printed)}`);
  }
  console.log(`(${name}: ${((Date.now() - t) / 1000).toFixed(1)} s)`);
}
if (digests.length) console.log(`\nWhat failed, as each stage said it:\n${digests.join('\n')}`);
console.log(`\nnpm test: ${stages.length - failed.length} of ${stages.length} stages passed in ${((Date.now() - t0) / 1000).toFixed(0)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);

/**
 * The failures a stage printed, a few lines each: mocha's numbered failures (title and error) after
 * its "N failing" line, else the lines marked ✗ or "error", else the stage's last lines.
 */
function failureDigest(text) {
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const out = [];
  const failing = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l));
  if (failing >= 0) {
    let taken = 0;
    for (let i = failing + 1; i < lines.length && out.length < 80; i++) {
      if (/^\s*\d+\) /.test(lines[i])) taken = 0;
      if (taken < 7 && lines[i].trim() && !/^\s+at /.test(lines[i])) { out.push(`  ${lines[i].trim().slice(0, 300)}`); taken++; }
    }
  }
  if (!out.length) out.push(...lines.filter((l) => /✗|\berror\b|failed/i.test(l) && !/\b0 failed\b/.test(l)).slice(-20).map((l) => `  ${l.trim().slice(0, 300)}`));
  if (!out.length) out.push(...lines.filter((l) => l.trim()).slice(-10).map((l) => `  ${l.trim().slice(0, 300)}`));
  return out.join('\n');
}
