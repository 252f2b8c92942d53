// The chat's Markdown renderer (webview-ui/src/markdown/) on text built to find its slow paths:
// each adversarial shape at 10 / 50 / 100 KB, plus a realistic 100 KB answer. Budget: ≤ 50 ms at
// 100 KB for every shape (a chat frame must never stall on what a model or a pasted log writes).
// Prints figures against the budget, asserts nothing. CPU time of the render itself (median).
// Usage: node bench/markdown.bench.mjs [--smoke]   (MD_SIZES=10,100 picks the sizes in KB)
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './list.mjs';
import { count } from './support/smoke.mjs';

const BUDGET_MS = 50;
const SIZES = process.env.MD_SIZES ? process.env.MD_SIZES.split(",").map(Number) : count([10, 50, 100], [1]);
const RUNS = count(3, 1);

async function loadRenderer() {
  const r = await esbuild.build({
    entryPoints: [join(BENCH_DIR, '..', 'webview-ui/src/markdown/renderMarkdown.ts')],
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'error',
  });
  const dir = mkdtempSync(join(tmpdir(), 'tandem-md-bench-'));
  try {
    const file = join(dir, 'renderer.cjs');
    writeFileSync(file, r.outputFiles[0].text);
    return createRequire(import.meta.url)(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Repeats `unit` until the text is `kb` KB. */
const fill = (head, unit, kb, tail = '') => head + unit.repeat(Math.max(1, Math.floor((kb * 1024 - head.length - tail.length) / unit.length))) + tail;

function table(kb) {
  // n columns and n short rows: n² cells from n² characters of input.
  const n = Math.floor(kb * 1024 / 6);
  return `${'|a'.repeat(n)}|\n${'|-'.repeat(n)}|\n${'|\n'.repeat(n)}`;
}

function realistic(kb) {
  const section = [
    '## Changes to `src/cart.ts`', '',
    'I updated **`applyDiscount`** so that a negative total is never returned, and added a test. See https://example.com/docs/cart_(v2) for the API, or mail support_team@example.com.', '',
    '1. Read the file', '2. Changed the *clamp*:', '   ```ts', '   const total = Math.max(0, subtotal - discount);', '   ```', '3. Ran `npm test`', '',
    '| file | lines | result |', '|:-----|------:|--------|', '| src/cart.ts | +4 −1 | ok |', '| test/cart.test.ts | +12 | ok |', '',
    '> Note: the old behaviour was _documented_ as a bug in [the issue](https://example.com/issues/12).', '',
    '- [x] code', '- [ ] docs', '  - nested ~~old~~ new', '',
  ].join('\n');
  return fill('', `${section}\n`, kb);
}

const SHAPES = [
  ['http://a then )', (kb) => fill('http://a', ')', kb)],
  ['[a]( spaces x', (kb) => fill('[a](', ' ', kb, 'x')],
  ['table row, |- spaces', (kb) => fill('| a | b |\n|-', ' ', kb, 'x')],
  ['table n cols × n rows', table],
  ['http:// then dots', (kb) => fill('http://', '.', kb, 'x')],
  ['(http:// repeated', (kb) => fill('', '(http://', kb)],
  ['text, spaces, x', (kb) => fill('a', ' ', kb, 'x')],
  ['# heading, spaces, x', (kb) => fill('# a', ' ', kb, 'x')],
  ['_a openers, a* closers', (kb) => fill('', '_a ', kb / 2) + fill('', 'a* ', kb / 2)],
  ['[ repeated, then ](x)', (kb) => fill('', '[', kb, '](x)')],
  ['[a](x ( repeated', (kb) => fill('', '[a](x(', kb)],
  ['[a](x " repeated', (kb) => fill('', '[a](x "', kb)],
  ['a\\n repeated', (kb) => fill('', 'a\n', kb)],
  ['- nested n deep', (kb) => fill('', '- ', kb, 'x')],
  ['spaces then newline', (kb) => fill('a', '  \na', kb)],
  ['www. then dots', (kb) => fill('www.', '.', kb)],
  ['[ repeated', (kb) => fill('', '[', kb)],
  ['> nested n deep', (kb) => fill('', '> ', kb, 'x')],
  ['realistic answer', realistic],
];

const { renderMarkdown } = await loadRenderer();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`markdown renderer (load ${loadavg()[0].toFixed(1)}): CPU ms per render, median of ${RUNS}`);
console.log(`  ${'shape'.padEnd(26)}${SIZES.map((s) => `${s} KB`.padStart(11)).join('')}   budget at ${SIZES.at(-1)} KB`);
let over = 0;
for (const [name, make] of SHAPES) {
  const cells = [];
  let last = 0;
  for (const kb of SIZES) {
    const text = make(kb);
    const times = [];
    let outLen = 0;
    for (let r = 0; r < RUNS; r++) {
      const t = process.cpuUsage();
      outLen = renderMarkdown(text).length;
      const d = process.cpuUsage(t);
      times.push((d.user + d.system) / 1000);
    }
    last = median(times);
    cells.push(`${last.toFixed(1)}`.padStart(11));
    if (outLen > 64 * text.length + 4096) console.log(`    (${name} at ${kb} KB: output ${outLen} B for ${text.length} B of input)`);
  }
  const verdict = last <= BUDGET_MS ? 'within budget' : `OVER budget by ${(last - BUDGET_MS).toFixed(1)} ms`;
  if (last > BUDGET_MS) over++;
  console.log(`  ${name.padEnd(26)}${cells.join('')}   ≤ ${BUDGET_MS} ms  ${verdict}`);
}
console.log(over ? `${over} shape(s) over budget` : 'every shape within budget');
