// History benchmarks: prints figures, asserts nothing.
// For tasks of 1,000 and 10,000 cards (user requests, streamed assistant text, tool calls with
// their status patches and results, usage cards) as the agent emits them:
//   - save: recording every event (appends with one fsync per turn end), then close (compaction)
//   - size on disk vs the text the cards hold (the saved form must not store text twice)
//   - load: a compacted task (one snapshot) and an uncompacted one (the whole log replayed)
//   - list: the History list with 50 tasks
// Budget: a 10,000-card task opens in ≤ 1 s.
// The history modules are bundled into a temp dir first (the shared out/ folder may be rebuilt meanwhile).
// Usage: node bench/history.bench.mjs [--smoke]
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { count } from './support/smoke.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-history-bench-'));
const bundle = path.join(tmp, 'history.cjs');
await esbuild.build({
  stdin: { contents: "export { HistoryStore } from './src/core/history/historyStore'; export { ContextFitter } from './src/core/context/contextFitter'; export { tokenizerIsExact } from './src/core/context/tokenCounter';", resolveDir: root, loader: 'ts' },
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundle, logLevel: 'silent',
});
// The tokenizer beside the bundle, as in dist/ (tokenCounter loads `tokenizer.js` from its own folder).
await esbuild.build({
  entryPoints: [path.join(root, 'node_modules/gpt-tokenizer/cjs/encoding/cl100k_base.js')],
  bundle: true, minify: true, platform: 'node', format: 'cjs', target: 'node20', outfile: path.join(tmp, 'tokenizer.js'), logLevel: 'silent',
});
const { HistoryStore, ContextFitter } = createRequire(import.meta.url)(bundle);
const { tokenizerIsExact } = createRequire(import.meta.url)(bundle);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`);
const ms = (n) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const words = 'the agent reads src/config.ts and updates the loader so that options are validated before use while tests keep passing'.split(' ');
const prose = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
const code = (lines) => Array.from({ length: lines }, (_, i) => `${i + 1}: export const value${i} = compute(${i}, "${words[i % words.length]}");`).join('\n');

/** Plays a task of about `cards` cards into `record(event)`; returns the characters of text the cards hold. */
function play(cards, record) {
  let seq = 0;
  let n = 0;
  let textChars = 0;
  const emit = (e) => record({ ...e, seq: ++seq });
  for (let turn = 0; n < cards; turn++) {
    const ask = `Request ${turn}: ${prose(12)}`;
    emit({ type: 'card_added', card: { kind: 'text', id: `u${turn}`, author: 'user', text: ask, ts: Date.now() } });
    n++; textChars += ask.length;
    while (n < cards) {
      // Streamed assistant text, ~40 deltas.
      const id = `a${turn}-${n}`;
      const answer = prose(60 + Math.floor(rnd() * 120));
      emit({ type: 'card_added', card: { kind: 'text', id, author: 'assistant', text: '', streaming: true, role: 'actor', ts: Date.now() } });
      for (let i = 0; i < answer.length; i += 12) emit({ type: 'text_appended', id, text: answer.slice(i, i + 12) });
      emit({ type: 'card_patched', id, patch: { streaming: false } });
      emit({ type: 'card_added', card: { kind: 'usage', id: `us${turn}-${n}`, model: 'gpt-4o', role: 'actor', tokens_in: 3000, tokens_out: 200, latency_ms: 900, cost_usd: 0.0095, outcome: 'tool_calls', ts: Date.now() } });
      n += 2; textChars += answer.length;
      if (n >= cards) break;
      // A tool call through its states, with a result of 10–60 lines.
      const tid = `t${turn}-${n}`;
      const result = code(10 + Math.floor(rnd() * 50));
      emit({ type: 'card_added', card: { kind: 'tool_call', id: tid, call_id: `call_${tid}`, tool: 'read_file', summary: 'read src/config.ts', args: { path: 'src/config.ts' }, status: 'pending', ts: Date.now() } });
      emit({ type: 'card_patched', id: tid, patch: { status: 'running' } });
      emit({ type: 'card_patched', id: tid, patch: { status: 'done', result } });
      n++; textChars += result.length;
      if (rnd() < 0.25) break;
    }
    emit({ type: 'turn_ended', outcome: 'done' });
  }
  return { textChars, events: seq };
}

const rows = [];
for (const cards of (process.env.BENCH_CARDS ? [Number(process.env.BENCH_CARDS)] : count([1000, 10000], [100]))) {
  const store = new HistoryStore(path.join(tmp, `store-${cards}`));
  const rec = store.create({ id: `task-${cards}` });
  const t0 = performance.now();
  const { textChars, events } = play(cards, (e) => rec.onEvent(e));
  const tRecord = performance.now() - t0;
  const t1 = performance.now();
  rec.close();
  const tClose = performance.now() - t1;
  const dir = store.taskDir(`task-${cards}`);
  const disk = fs.readdirSync(dir).reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0);
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const task = await store.load(`task-${cards}`);
    loads.push(performance.now() - t);
    if (Math.abs(task.cards.length - cards) > 1) throw new Error(`loaded ${task.cards.length} cards, expected ${cards}`);
  }
  // The same task never compacted: loading replays the whole log.
  const raw = new HistoryStore(path.join(tmp, `raw-${cards}`));
  const rrec = raw.create({ id: 'raw', compactBytes: Number.MAX_SAFE_INTEGER });
  seed = 42;
  play(cards, (e) => rrec.onEvent(e));
  rrec.flush();
  const rawDir = raw.taskDir('raw');
  const rawDisk = fs.readdirSync(rawDir).reduce((s, f) => s + fs.statSync(path.join(rawDir, f)).size, 0);
  const rawLoads = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await raw.load('raw');
    rawLoads.push(performance.now() - t);
  }
  rows.push({ cards, events, tRecord, tClose, disk, textChars, load: median(loads), rawDisk, rawLoad: median(rawLoads) });
  seed = 42 + cards;
}

// The History list over 50 tasks (meta files only).
const listStore = new HistoryStore(path.join(tmp, 'list'));
const LISTED = count(50, 3);
for (let i = 0; i < LISTED; i++) {
  const r = listStore.create({ id: `t${String(i).padStart(3, '0')}` });
  play(40, (e) => r.onEvent(e));
  r.close();
}
const listTimes = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  await listStore.list();
  listTimes.push(performance.now() - t);
}

console.log('History save/load (median of 5 loads)');
for (const r of rows) {
  console.log(`  ${r.cards.toLocaleString('en-US')} cards (${r.events.toLocaleString('en-US')} events):`);
  console.log(`    save: ${ms(r.tRecord)} for every event (${((r.tRecord * 1000) / r.events).toFixed(1)} µs/event, one fsync per turn end), close+compact ${ms(r.tClose)}`);
  console.log(`    on disk: ${kb(r.disk)} compacted, ${kb(r.rawDisk)} as the raw log; card text ${kb(r.textChars)} → ${(r.disk / r.textChars).toFixed(2)}× / ${(r.rawDisk / r.textChars).toFixed(2)}× (JSON framing, not repeats)`);
  console.log(`    load: ${ms(r.load)} from the snapshot, ${ms(r.rawLoad)} replaying the log${r.cards === 10000 ? `  (budget ≤ 1000 ms: ${Math.max(r.load, r.rawLoad) <= 1000 ? 'within' : 'OVER'})` : ''}`);
}
console.log(`  list of ${LISTED} tasks: ${ms(median(listTimes))}`);

// Context fitting before each request: a long conversation on gpt-4o (128k window).
const convo = [{ role: 'system', content: 'You are the Actor. '.repeat(40) }];
for (let i = 0; i < count(300, 30); i++) {
  convo.push({ role: 'user', content: `Request ${i}: ${prose(20)}` });
  convo.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/f${i}.ts` }) } }] });
  convo.push({ role: 'tool', tool_call_id: `c${i}`, content: code(40) });
  convo.push({ role: 'assistant', content: prose(80) });
}
let summaries = 0;
const fitter = new ContextFitter({
  settings: () => ({ maxTokens: 4096 }),
  summarizer: { summarize: async (_m, model) => (summaries++, { text: 'summary', model, tokensIn: 0, tokensOut: 0, latencyMs: 0 }) },
});
let t = performance.now();
let fitted = await fitter.fit(convo, 'gpt-4o');
const first = performance.now() - t;
const fitTimes = [];
for (let i = 0; i < 5; i++) {
  convo.push({ role: 'user', content: `More ${i}` });
  t = performance.now();
  fitted = await fitter.fit(convo, 'gpt-4o');
  fitTimes.push(performance.now() - t);
}
console.log(`Context fitting (gpt-4o, 128k window; ${tokenizerIsExact() ? 'cl100k tokenizer' : 'NO tokenizer: character estimate'})`);
console.log(`  ${convo.length} messages, ~${fitter.requestTokens(convo).toLocaleString('en-US')} tokens before fitting → ${fitter.requestTokens(fitted).toLocaleString('en-US')} sent; ${summaries} summary request(s)`);
console.log(`  first request ${ms(first)} (includes loading the tokenizer and counting everything), later requests ${ms(median(fitTimes))} each`);
fs.rmSync(tmp, { recursive: true, force: true });
