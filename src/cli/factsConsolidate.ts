/**
 * `tandem facts consolidate [--apply]` and `tandem facts undo`: the summary model proposes merging
 * duplicates and dropping stale or contradicted facts; the proposal is printed ("Facts: 44 → 23")
 * and nothing changes without --apply. Applied, the facts as they were are kept beside the file so
 * `tandem facts undo` puts them back (only while nothing changed since).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Fact } from '../protocol';
import { FactFile } from '../protocol';
import type { FactBook } from '../core/facts/factBook';
import { CONSOLIDATION_SYSTEM, ConsolidationAnswer, consolidationBrief, proposeConsolidation, type ConsolidationProposal } from '../core/facts/factConsolidation';
import { LlmClient } from '../core/llm/llmClient';
import { extractJson } from '../core/plans/extractJson';
import { modelFor } from '../core/settings/settings';
import { writeFileAtomic } from '../core/storage/atomicWrite';
import { PRODUCT_ROLE_INFO } from '../protocol';
import { settingsFromEnv } from './settingsFromEnv';

export const UNDO_FILE = 'facts.before-consolidation.json';

export function describeProposal(p: ConsolidationProposal): string {
  const lines = [`Facts: ${p.before.length} → ${p.after.length}`];
  for (const m of p.merged) lines.push(`  merged ${m.from.map((f) => f.id).join(', ')} → ${m.into.id}: ${m.into.text}`);
  for (const d of p.dropped) lines.push(`  dropped ${d.fact.id}: ${d.fact.text} — ${d.why}`);
  if (!p.merged.length && !p.dropped.length) lines.push('  nothing to merge or drop');
  return `${lines.join('\n')}\n`;
}

export async function consolidate(o: { book: FactBook; env: NodeJS.ProcessEnv; model?: string; baseURL?: string }): Promise<ConsolidationProposal | { error: string }> {
  const views = (await o.book.list());
  if (views.length < 2) return { error: `there ${views.length === 1 ? 'is 1 fact' : `are ${views.length} facts`}: nothing to consolidate` };
  const { settings } = settingsFromEnv(o.env, { ...(o.model ? { model: o.model } : {}), ...(o.baseURL ? { baseURL: o.baseURL } : {}) }, false, PRODUCT_ROLE_INFO);
  const model = settings.summaryModel || modelFor(settings, PRODUCT_ROLE_INFO.initial.id);
  const client = new LlmClient({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: settings.limits.maxRetries, idleTimeoutMs: settings.limits.requestIdleTimeoutMs, requestDeadlineMs: settings.limits.requestDeadlineMs });
  const r = await client.stream({ model, maxTokens: 4000, messages: [{ role: 'system', content: CONSOLIDATION_SYSTEM }, { role: 'user', content: consolidationBrief(views) }] });
  const found = extractJson(r.text);
  if (!found.ok) return { error: `the summary model (${model}) answered no JSON: ${found.error}` };
  const parsed = ConsolidationAnswer.safeParse(found.value);
  if (!parsed.success) return { error: `the summary model's answer is not a consolidation: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  return proposeConsolidation(views.map((v) => v.fact), parsed.data, (t) => o.book.mask(t));
}

/** Keeps what was there, then replaces it; undone by `undoConsolidation`. */
export function applyConsolidation(book: FactBook, historyDir: string, p: ConsolidationProposal): { ok: true } | { ok: false; why: string } {
  const r = book.replace(p.before, p.after);
  if (r.ok) {
    fs.mkdirSync(historyDir, { recursive: true });
    writeFileAtomic(path.join(historyDir, UNDO_FILE), JSON.stringify({ before: p.before, after: p.after }));
  }
  return r;
}

export function undoConsolidation(book: FactBook, historyDir: string): { ok: true; restored: number } | { ok: false; why: string } {
  let kept: { before: Fact[]; after: Fact[] };
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(historyDir, UNDO_FILE), 'utf8')) as { before: unknown; after: unknown };
    kept = { before: FactFile.shape.facts.parse(raw.before), after: FactFile.shape.facts.parse(raw.after) };
  } catch {
    return { ok: false, why: 'no consolidation to undo' };
  }
  const r = book.replace(kept.after, kept.before);
  if (!r.ok) return r;
  fs.rmSync(path.join(historyDir, UNDO_FILE), { force: true });
  return { ok: true, restored: kept.before.length };
}
