// The budgets stage of `npm test`: the deterministic figures against their budgets
// (bench/foundation/budget.mjs), each a named check that fails when over and prints figure vs budget,
// then every benchmark once in smoke mode (bench/list.mjs, `--smoke`: tiny counts, no timing
// compared) so none can rot. Timings are `npm run bench`'s, never a check here.
// The production build is staged in a temp folder (scripts/package.mjs): dist/ stays the
// development build the other stages load. Needs the compiled core in out/ (compiled if missing),
// code-server (foundation-activate) and the built llama-server (llamaServer.bench): npm test runs
// this stage after their setup stages.
// Usage: node bench/budgets.mjs [--figures-only]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../scripts/test-host-paths.mjs';
import { BUDGETS } from './foundation/budget.mjs';
import { BENCH_DIR, benches } from './list.mjs';

const figuresOnly = process.argv.includes('--figures-only');
let passed = 0;
let failed = 0;

/** One named check: `value` against `budget`, printed either way. */
function figure(name, value, unit, budget, digits = 1) {
  const ok = value <= budget;
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? '✓' : '✗'} ${name}: ${value.toFixed(digits)} ${unit} (budget ≤ ${budget} ${unit})${ok ? '' : ` OVER by ${(value - budget).toFixed(digits)} ${unit}`}`);
}

function broken(name, error) {
  failed++;
  console.log(`  ✗ ${name}: ${error}`);
}

// Imported here, not at the top: each may need the compiled core or a build, and one that cannot
// load must fail its own checks, not the whole stage.
try {
  const { productionSizes } = await import('./support/sizes.mjs');
  const s = productionSizes();
  figure('production webview JS+CSS gzipped', (s.webviewJsGz + s.webviewCssGz) / 1024, 'KB', BUDGETS.webviewGzKB);
  figure('production dist/extension.js (lazily loaded files apart)', s.extension / 1024, 'KB', BUDGETS.extensionKB, 0);
  figure('VSIX', s.vsix / 1024 / 1024, 'MB', BUDGETS.vsixMB, 2);
} catch (e) {
  broken('production build and VSIX', e.message);
}

try {
  const { promptTokensPerRole } = await import('./support/promptTokens.mjs');
  for (const r of promptTokensPerRole()) {
    figure(`${r.label}: system prompt + tool schemas per request, no facts (${r.system} + ${r.schemas})`, r.total, 'tokens', BUDGETS.promptTokens, 0);
  }
} catch (e) {
  broken('prompt tokens per role', e.message);
}

// Facts come on top of that budget, capped by tandem.facts.maxTokens: with 30 facts the extra stays under the cap.
try {
  const { factSectionTokens } = await import('./support/factTokens.mjs');
  for (const s of factSectionTokens([30])) figure(`facts section with ${s.facts} facts (${s.sent} sent), extra per Planner/Actor request`, s.tokens, 'tokens', s.cap, 0);
} catch (e) {
  broken('facts section tokens', e.message);
}

if (!figuresOnly) {
  for (const b of benches()) {
    const t = Date.now();
    const r = spawnSync(process.execPath, [join(BENCH_DIR, b), '--smoke'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const secs = `${((Date.now() - t) / 1000).toFixed(1)} s`;
    if (r.status === 0) {
      passed++;
      console.log(`  ✓ bench/${b} runs (smoke, ${secs})`);
    } else {
      failed++;
      const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd().split('\n').slice(-25).join('\n    ');
      console.log(`  ✗ bench/${b} runs (smoke): exit ${r.status ?? r.signal} after ${secs}\n    ${tail}`);
    }
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
