// The `@` picker's path search (budget: a cached answer within one frame, 16 ms; a fresh query
// within 100 ms on a 100k-file workspace). Builds the index from 100,000 generated paths, then
// times fresh queries of each kind (name, path, letters in order, empty) and the same queries again
// (cached). Prints figures, asserts nothing. Runs on the compiled core in out/ (see compiledCore.mjs).
// Usage: node bench/mentions.bench.mjs [--smoke]
import { loadCore } from './compiledCore.mjs';
import { count } from './support/smoke.mjs';
import { performance } from 'node:perf_hooks';

const { PathIndex } = loadCore('src/core/mentions/pathIndex.js');

const words = ['cart', 'price', 'user', 'order', 'util', 'api', 'model', 'view', 'store', 'auth', 'test', 'core', 'shop', 'item', 'list'];
const exts = ['.ts', '.tsx', '.js', '.json', '.md', '.css', '.py'];
const files = [];
let seed = 7;
const rnd = (n) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const FILES = count(100_000, 1_000);
while (files.length < FILES) {
  const depth = 1 + rnd(5);
  const parts = Array.from({ length: depth }, () => words[rnd(words.length)] + (rnd(3) ? '' : rnd(50)));
  files.push(`${parts.join('/')}/${words[rnd(words.length)]}${rnd(1000)}${exts[rnd(exts.length)]}`);
}

const t0 = performance.now();
const index = new PathIndex(files);
const built = performance.now() - t0;
const rows = [];
for (const q of ['cart12', 'shop/item', 'crtprc', 'zzzz', '']) {
  const a = performance.now();
  const found = index.search(q, 20);
  const fresh = performance.now() - a;
  const b = performance.now();
  index.search(q, 20);
  const cached = performance.now() - b;
  rows.push({ query: JSON.stringify(q), results: found.length, 'fresh ms': fresh.toFixed(2), 'cached ms': cached.toFixed(3), first: found[0] ?? '' });
}
// Typing a name letter by letter: each query narrows the last one's matches.
const typing = [];
for (const q of ['s', 'sh', 'sho', 'shop', 'shop/', 'shop/i', 'shop/it']) {
  const a = performance.now();
  index.search(q, 20);
  typing.push(performance.now() - a);
}
console.log(`index of ${files.length} files (${index.size} paths with folders) built in ${built.toFixed(1)} ms`);
console.table(rows);
console.log(`typing "shop/it" letter by letter: ${typing.map((t) => t.toFixed(1)).join(', ')} ms`);
const worst = Math.max(...rows.map((r) => Number(r['fresh ms'])));
const worstCached = Math.max(...rows.map((r) => Number(r['cached ms'])));
console.log(`fresh query worst ${worst.toFixed(2)} ms — budget 100 ms: ${worst <= 100 ? 'OK' : 'OVER'}`);
console.log(`cached query worst ${worstCached.toFixed(3)} ms — budget 16 ms (one frame): ${worstCached <= 16 ? 'OK' : 'OVER'}`);
