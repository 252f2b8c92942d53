// Token counting on long runs without spaces (budgets: 1 MB of base64 counted in ≤ 3 s — linear, the
// tokenizer alone is quadratic there: 200k characters of one letter run took about a minute — and
// 5 MB, past the size where counting is estimated from samples, in ≤ 1 s).
// Also prints the tokenizer's own time on a 40k run, to show the curve the stretches avoid.
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/tokenCount.bench.mjs [--smoke]
import { createRequire } from 'node:module';
import { loadCore } from './compiledCore.mjs';
import { count } from './support/smoke.mjs';

const require = createRequire(import.meta.url);
const { countTextTokens } = loadCore('src/core/context/tokenCounter.js');
const { countTokens } = require('gpt-tokenizer/encoding/cl100k_base');

const time = (fn) => {
  const t = performance.now();
  const n = fn();
  return { n, ms: performance.now() - t };
};
countTextTokens('warm up the table');
const rows = [];
// Smoke: the same three paths (exact, stretched, sampled past the size limit) on smaller inputs.
for (const mb of count([0.2, 1, 5], [0.002, 0.01, 5])) {
  const chars = mb * 1_000_000;
  const repeated = Buffer.alloc((chars * 3) / 4, 0).toString('base64');
  const random = Buffer.from(Array.from({ length: (chars * 3) / 4 }, (_, i) => (i * 2654435761) >>> 24)).toString('base64');
  for (const [kind, text] of [['AAAA… (one run)', repeated], ['random base64', random]]) {
    const r = time(() => countTextTokens(text));
    rows.push({ input: `${mb} MB ${kind}`, tokens: r.n, ms: Math.round(r.ms) });
  }
}
console.table(rows);
for (const [size, budget] of count([['1 MB', 3000], ['5 MB', 1000]], [['5 MB', 1000]])) {
  const worst = Math.max(...rows.filter((r) => r.input.startsWith(size)).map((r) => r.ms));
  console.log(`${size} counted in ≤ ${worst} ms — budget ${budget} ms: ${worst <= budget ? 'OK' : 'OVER'}`);
}
const raw = time(() => countTokens('QUFB'.repeat(count(10_000, 100))));
console.log(`for comparison, the tokenizer alone on a 40k-character run: ${Math.round(raw.ms)} ms (quadratic: 5× longer ≈ 25× slower)`);
