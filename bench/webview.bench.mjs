// Webview benchmarks: prints figures against budgets, asserts nothing.
// - gzipped JS+CSS of the minified bundle (budget: BUDGETS.webviewGzKB)
// - a 10,000-card task: snapshot posted → visible cards painted, and page load → painted when the
//   snapshot answers `ready` as the host does (budget 1 s)
// - streamed tokens: 1,000 text_appended one per frame (host post → painted, and Chromium's
//   main-thread time per token), and 1,000 in one burst (coalesced: renders counted from the DOM)
// - JS heap at 10,000 cards after a forced GC
// Usage: node bench/webview.bench.mjs [--smoke]   (needs /usr/bin/chromium)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { startHarness } from '../test/ui/webview-standalone/harness.mjs';
import { bigTask, demoCards } from '../test/ui/webview-standalone/fixtures.mjs';
import { count } from './support/smoke.mjs';
import { BUDGETS } from './foundation/budget.mjs';

const N = count(10_000, 100);
const TOKENS = count(1_000, 5);
const RUNS = count(3, 1);
const rows = [];
const report = (name, value, unit, budget) => {
  const verdict = budget === undefined ? '' : value <= budget ? 'within budget' : `OVER budget by ${(value - budget).toFixed(1)} ${unit}`;
  rows.push({ name, value: `${value.toFixed(value < 10 ? 2 : 1)} ${unit}`, budget: budget === undefined ? '—' : `≤ ${budget} ${unit}`, verdict });
};
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p95 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.95)]; };

const h = await startHarness({ width: 420, height: 900 });
try {
  const js = readFileSync(h.files.js);
  const css = readFileSync(h.files.css);
  const gz = gzipSync(js, { level: 9 }).length + gzipSync(css, { level: 9 }).length;
  report('webview JS+CSS gzipped', gz / 1024, 'KB', BUDGETS.webviewGzKB);
  console.log(`  (js ${(js.length / 1024).toFixed(1)} KB raw / ${(gzipSync(js, { level: 9 }).length / 1024).toFixed(1)} KB gz, css ${(css.length / 1024).toFixed(1)} KB raw / ${(gzipSync(css, { level: 9 }).length / 1024).toFixed(1)} KB gz)`);

  const cards = bigTask(N);
  const snapshot = { type: 'snapshot', seq: N, role: 'actor', cards };

  // 1. Snapshot posted into a loaded page → the visible cards painted.
  const opens = [];
  for (let run = 0; run < RUNS; run++) {
    await h.open('dark');
    const ms = await h.page.evaluate(async (snap) => {
      const t0 = performance.now();
      window.postMessage(snap, '*');
      await new Promise((resolve) => {
        const check = () => (document.querySelector(`[data-card-id="c${snap.cards.length - 1}"]`) ? resolve() : requestAnimationFrame(check));
        check();
      });
      // The frame after the DOM exists is the one that paints it.
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t0;
    }, snapshot);
    opens.push(ms);
  }
  report(`${N}-card snapshot → visible cards painted (median of ${RUNS})`, median(opens), 'ms', 1000);

  // 2. Page load → painted, the host answering `ready` with the snapshot (as reopening a task does).
  const loads = [];
  for (let run = 0; run < RUNS; run++) {
    await h.page.goto('about:blank');
    await h.page.addInitScript((snap) => {
      window.__onSent = (m) => { if (m.type === 'ready') setTimeout(() => window.postMessage(snap, '*'), 0); };
    }, snapshot);
    await h.page.goto(`${h.origin}/?theme=dark`);
    await h.page.waitForSelector(`[data-card-id="c${N - 1}"]`);
    const ms = await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0))));
    loads.push(ms);
  }
  report(`page load + ${N}-card task → painted (median of ${RUNS})`, median(loads), 'ms', 1000);
  const rendered = await h.page.evaluate(() => document.querySelectorAll('[data-card-kind]').length);
  console.log(`  (${rendered} of ${N} cards in the DOM)`);

  // 3. Heap at 10,000 cards.
  const cdp = await h.page.context().newCDPSession(h.page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  report(`JS heap used at ${N} cards (after GC)`, heap.usedSize / 1024 / 1024, 'MB');

  // 4. Streaming into the 10,000-card task: one token per frame, host post → painted.
  await h.post({ type: 'card_added', seq: N + 1, card: { kind: 'text', id: 'live', author: 'assistant', text: '', streaming: true, ts: Date.now() } });
  await h.page.waitForSelector('[data-card-id="live"]');
  // Main-thread time is Chromium's own count (script, style and layout; the page's and this loop's
  // observers alike), read before and after: the webview keeps no figures of its own for a bench.
  const mainThreadMs = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    return (m.ScriptDuration + m.RecalcStyleDuration + m.LayoutDuration) * 1000;
  };
  await cdp.send('Performance.enable');
  const streamMain0 = await mainThreadMs();
  const stream = await h.page.evaluate(async ({ first, count }) => {
    const log = document.querySelector('[role="log"]');
    const live = () => document.querySelector('[data-card-id="live"]');
    const lat = [];
    for (let i = 0; i < count; i++) {
      const tok = `tok${i}`;
      // Posts land at a random point of the frame, as tokens from the network do.
      await new Promise((r) => setTimeout(r, Math.random() * 16));
      const painted = new Promise((resolve) => {
        const mo = new MutationObserver(() => {
          if (!live()?.textContent?.includes(tok)) return;
          mo.disconnect();
          // The DOM changed inside a frame's rAF callbacks; a 0 ms task runs after that frame paints.
          setTimeout(() => resolve(performance.now()), 0);
        });
        mo.observe(log, { subtree: true, childList: true, characterData: true });
      });
      const t0 = performance.now();
      window.postMessage({ type: 'text_appended', seq: first + i, id: 'live', text: ` ${tok}` }, '*');
      lat.push((await painted) - t0);
    }
    return { lat };
  }, { first: N + 2, count: TOKENS });
  const streamMainMs = ((await mainThreadMs()) - streamMain0) / TOKENS;
  report(`streamed token, post → painted (median of ${TOKENS}, random frame phase)`, median(stream.lat), 'ms', 16);
  report(`streamed token, host post → painted (p95)`, p95(stream.lat), 'ms');
  report('main-thread time per streamed token (script + style + layout)', streamMainMs, 'ms');

  // 5. A burst: 1,000 text_appended posted at once (as a host would batch them) → one coalesced render.
  const burstMain0 = await mainThreadMs();
  const burst = await h.page.evaluate(async ({ first, count }) => {
    // Each render that changes the live card is one batch of DOM mutations: their number is the number of renders.
    let renders = 0;
    const mo = new MutationObserver(() => { renders++; });
    mo.observe(document.querySelector('[data-card-id="live"]'), { subtree: true, childList: true, characterData: true });
    const t0 = performance.now();
    for (let i = 0; i < count; i++) window.postMessage({ type: 'text_appended', seq: first + i, id: 'live', text: ` b${i}` }, '*');
    const last = `b${count - 1}`;
    await new Promise((resolve) => {
      const check = () => (document.querySelector('[data-card-id="live"]')?.textContent?.includes(last) ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
    mo.disconnect();
    return { total: performance.now() - t0, renders };
  }, { first: N + 2 + TOKENS, count: TOKENS });
  const burstMainMs = (await mainThreadMs()) - burstMain0;
  report(`burst of ${TOKENS} text_appended → painted (total)`, burst.total, 'ms');
  report(`  per token (burst, ${burst.renders} render${burst.renders === 1 ? '' : 's'}, ${burstMainMs.toFixed(1)} ms main thread)`, burst.total / TOKENS, 'ms');

  // 6. Sanity: nothing logged an error while all of this ran (CSP violations would show here).
  await h.open('dark');
  await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: demoCards() });
  await h.page.waitForSelector('[data-card-kind="plan"]');
  const errors = h.consoleErrors.filter((e) => !e.includes('favicon'));
  console.log('');
  console.log('figure'.padEnd(78), 'value'.padStart(12), '  budget'.padEnd(14), 'verdict');
  for (const r of rows) console.log(r.name.padEnd(78), r.value.padStart(12), ' ', r.budget.padEnd(12), r.verdict);
  console.log(`\nconsole errors/warnings in the page: ${errors.length}${errors.length ? `\n  ${errors.slice(0, 5).join('\n  ')}` : ''}`);
} finally {
  await h.close();
}
