// Tool benchmarks: prints figures, asserts nothing.
// - edit_file on a 10,000-line file: one exact block, 5 blocks, a whitespace-fallback block, and a
//   failing block (which searches for the closest lines)
// - apply_patch on a 10,000-line file: 10 hunks in place, the same patch 50 lines off, a failing patch
// - search over a generated 10,000-file tree: ripgrep vs the JS fallback, rare and common patterns
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/tools.bench.mjs [--smoke]
import { createRequire } from 'node:module';
import { OUT, loadCore } from './compiledCore.mjs';
import { count } from './support/smoke.mjs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const { NodeWorkspaceFs } = loadCore('src/host/node/nodeWorkspaceFs.js');
const { NodeCommandRunner } = loadCore('src/host/node/nodeCommandRunner.js');
const { findRipgrep } = loadCore('src/host/node/findRipgrep.js');
const { WorkspacePaths } = loadCore('src/core/workspace/workspacePaths.js');
const { ReadTracker } = loadCore('src/core/tools/readTracker.js');
const { editFileTool } = loadCore('src/core/tools/editFile.js');
const { applyPatchTool } = loadCore('src/core/tools/applyPatch.js');
const { searchTool } = loadCore('src/core/tools/search.js');
const { createTwoFilesPatch } = require(require.resolve('diff', { paths: [OUT, process.cwd()] }));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
const report = (name, ms, extra = '') => rows.push({ name, 'median ms': ms.toFixed(2), note: extra });

function makeCtx(root, rg) {
  const nfs = new NodeWorkspaceFs([root]);
  return {
    host: { fs: nfs, commands: new NodeCommandRunner(), approver: null, asker: null, ripgrepPath: rg, logger: { info() {}, warn() {}, error() {}, debug() {} } },
    paths: new WorkspacePaths(nfs),
    reads: new ReadTracker(),
    role: 'actor',
    callId: 'bench',
    signal: new AbortController().signal,
    settings: { commandTimeoutMs: 60_000, maxOutputChars: 30_000 },
    approve: async () => ({ approved: true }),
  };
}

async function timeIt(runs, setup, fn) {
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    await setup?.();
    const t = performance.now();
    last = await fn();
    times.push(performance.now() - t);
  }
  return { ms: median(times), last };
}

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-')));
try {
  // ---- edit_file / apply_patch on a 10,000-line file ----
  const ws = path.join(base, 'edit');
  fs.mkdirSync(ws);
  const LINES = 10_000;
  const RUNS = count(15, 1);
  const original = Array.from({ length: LINES }, (_, i) =>
    i % 10 === 0 ? `function f${i}(a, b) {` : i % 10 === 9 ? '}' : `  const v${i} = a * ${i} + b; // line ${i}`,
  ).join('\n') + '\n';
  const file = path.join(ws, 'big.ts');
  const ctx = makeCtx(ws);
  // Each run starts from the original text with a fresh read record (as if the agent had just read it).
  const reset = () => {
    fs.writeFileSync(file, original);
    ctx.reads = new ReadTracker();
  };
  const edit = (edits) => editFileTool.run({ path: 'big.ts', edits }, ctx);

  let r = await timeIt(RUNS, reset, () => edit([{ old_text: '  const v5001 = a * 5001 + b; // line 5001', new_text: '  const v5001 = 0;' }]));
  report('edit_file: 1 exact block (10k lines)', r.ms, r.last.isError ? 'ERROR' : '');
  const five = [1001, 3002, 5003, 7004, 9005].map((n) => ({ old_text: `  const v${n} = a * ${n} + b; // line ${n}`, new_text: `  const v${n} = -1;` }));
  r = await timeIt(RUNS, reset, () => edit(five));
  report('edit_file: 5 exact blocks', r.ms, r.last.isError ? 'ERROR' : '');
  r = await timeIt(RUNS, reset, () => edit([{ old_text: 'const v7001 = a * 7001 + b; // line 7001\n    const v7002 = a * 7002 + b; // line 7002', new_text: 'const v7001 = 1;\nconst v7002 = 2;' }]));
  report('edit_file: whitespace-fallback block', r.ms, /ignoring indentation/.test(r.last.content) ? 'fallback used' : `unexpected: ${r.last.content.slice(0, 80)}`);
  r = await timeIt(RUNS, reset, () => edit([{ old_text: '  const v7001 = a * 7001 + c; // line 7001\n  const v7002 = a * 7002 + c; // line 7002', new_text: 'x' }]));
  report('edit_file: failing block + closest-lines search', r.ms, /closest text is at lines 7002-7003/.test(r.last.content) ? 'closest found' : r.last.content.slice(0, 80));

  const edited = original.split('\n').map((l, i) => (i % 1000 === 500 ? `${l} // patched` : l)).join('\n');
  const patch = createTwoFilesPatch('a/big.ts', 'b/big.ts', original, edited);
  r = await timeIt(RUNS, reset, () => applyPatchTool.run({ patch }, ctx));
  report('apply_patch: 10 hunks in place', r.ms, r.last.isError ? r.last.content.slice(0, 80) : '');
  const shifted = Array.from({ length: 50 }, (_, i) => `// header ${i}`).join('\n') + '\n';
  r = await timeIt(RUNS, () => {
    fs.writeFileSync(file, shifted + original);
    ctx.reads = new ReadTracker();
  }, () => applyPatchTool.run({ patch }, ctx));
  report('apply_patch: 10 hunks, 50 lines off', r.ms, r.last.isError ? r.last.content.slice(0, 80) : '');
  // Break a removed line (context may drift within the fuzz; removed lines must match).
  const broken = patch.replace(/^-(?!--)(.*)$/m, '-$1 BROKEN');
  r = await timeIt(RUNS, reset, () => applyPatchTool.run({ patch: broken }, ctx));
  report('apply_patch: failing hunk + diagnosis', r.ms, r.last.isError ? 'refused as expected' : 'unexpectedly applied');

  // ---- search over a 10,000-file tree ----
  const tree = path.join(base, 'tree');
  let files = 0;
  const t0 = performance.now();
  for (let d = 0; d < count(100, 2); d++) {
    const dir = path.join(tree, `pkg${d}`, 'src', `mod${d % 7}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const n = d * 100 + f;
      const body = Array.from({ length: 30 }, (_, k) => `export const item${n}_${k} = compute(${k}); // common words here`);
      if (n % 997 === 0) body.push(`// RARE_TOKEN_${n}`);
      fs.writeFileSync(path.join(dir, `file${f}.ts`), body.join('\n') + '\n');
      files++;
    }
  }
  // Decoys the search must skip.
  const DECOYS = count(2000, 20);
  for (let i = 0; i < DECOYS; i++) {
    const dir = path.join(tree, 'node_modules', `dep${i % 50}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `i${i}.js`), 'RARE_TOKEN_decoy\n');
  }
  fs.writeFileSync(path.join(tree, '.gitignore'), 'generated/\n');
  console.log(`generated ${files} files (+${DECOYS} in node_modules) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const rg = findRipgrep();
  const engines = [['js', undefined]];
  if (rg) engines.unshift(['ripgrep', rg]);
  else console.log('ripgrep not found on PATH: only the JS fallback is measured');
  for (const [name, rgPath] of engines) {
    const sctx = makeCtx(tree, rgPath);
    for (const [label, pattern] of [['rare', 'RARE_TOKEN_\\d+'], ['common (capped)', 'compute\\(1\\d\\)']]) {
      const first = performance.now();
      await searchTool.run({ pattern }, sctx);
      const cold = performance.now() - first;
      r = await timeIt(count(5, 1), null, () => searchTool.run({ pattern }, sctx));
      const summary = r.last.content.split('\n').at(-1);
      report(`search ${label} — ${name}`, r.ms, `first run ${cold.toFixed(0)} ms; ${summary}`);
    }
  }
} finally {
  fs.rmSync(base, { recursive: true, force: true });
}
console.table(rows);
