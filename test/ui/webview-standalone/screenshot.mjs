// Opens the standalone page with one card of each kind and saves screenshots under test-results/
// (dark, light, high-contrast, and the first-run setup card), for a human to look at.
// Usage: node test/ui/webview-standalone/screenshot.mjs
import { mkdirSync } from 'node:fs';
import { startHarness } from './harness.mjs';
import { demoCards } from './fixtures.mjs';

const out = 'test-results';
mkdirSync(out, { recursive: true });
const h = await startHarness({ width: 440, height: 1900 });
try {
  for (const theme of ['dark', 'light', 'high-contrast']) {
    await h.open(theme);
    const cards = demoCards();
    await h.post({ type: 'snapshot', seq: 10, role: 'actor', cards });
    await h.post([
      { type: 'agent_state', seq: 11, state: 'waiting_on_user' },
      { type: 'usage_total', seq: 12, turn: { tokens_in: 12840, tokens_out: 912, cost_usd: 0.0066 }, task: { tokens_in: 48211, tokens_out: 3920, cost_usd: 0.031 } },
      { type: 'text_appended', seq: 13, id: 'a2', text: ': adding the **email** check…' },
      { type: 'step_failed', seq: 14, plan_id: 'p1', step_number: 3, reason: 'npm test exited with code 1' },
      { type: 'card_added', seq: 15, card: { kind: 'plan', id: 'p2', version: 3, plan: null, raw_text: 'Step one: do the thing\nStep two: ???', errors: ['steps: expected an array', 'goal: required'], step_states: {}, ts: Date.UTC(2026, 10, 21, 6, 5) } },
    ]);
    await h.page.waitForSelector('[data-card-id="p2"]');
    await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // Scroll to the top so the whole demo is in view in one tall screenshot.
    await h.page.evaluate(() => { const l = document.querySelector('[role="log"]'); l.scrollTop = 0; l.dispatchEvent(new Event('scroll')); });
    await h.page.waitForTimeout(150);
    await h.page.screenshot({ path: `${out}/webview-${theme}.png` });
    console.log(`saved ${out}/webview-${theme}.png`);
  }
  // A narrow sidebar, scrolled to the bottom where the stream is.
  await h.open('dark');
  await h.page.setViewportSize({ width: 300, height: 900 });
  await h.post({ type: 'snapshot', seq: 10, role: 'planner', cards: demoCards() });
  await h.post({ type: 'text_appended', seq: 11, id: 'a2', text: ' and then **more** text streaming in' });
  await h.page.waitForFunction(() => document.querySelector('[data-card-id="a2"]')?.textContent?.includes('streaming in'));
  await h.page.waitForTimeout(200);
  await h.page.screenshot({ path: `${out}/webview-narrow-dark.png` });
  console.log(`saved ${out}/webview-narrow-dark.png`);
  await h.page.setViewportSize({ width: 440, height: 1900 });

  await h.open('dark');
  await h.post({ type: 'snapshot', seq: 0, role: 'planner', cards: [] });
  await h.post({ type: 'setup_needed' });
  await h.page.getByRole('radio', { name: 'Ollama' }).click();
  await h.page.getByRole('button', { name: 'Test connection' }).click();
  await h.post({ type: 'connection_result', ok: true, models: ['qwen2.5-coder:7b', 'llama3.1:8b'] });
  await h.page.waitForSelector('select[aria-label="Planner model"]');
  await h.page.setViewportSize({ width: 440, height: 760 });
  await h.page.screenshot({ path: `${out}/webview-setup-dark.png` });
  console.log(`saved ${out}/webview-setup-dark.png`);
  if (h.consoleErrors.length) console.log('console:', h.consoleErrors.join('\n'));
} finally {
  await h.close();
}
