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
import { proposalLines, type ConsolidationProposal } from '../core/facts/factConsolidation';
import { proposeWithSummaryModel } from '../host/node/factConsolidator';
import { writeFileAtomic } from '../core/storage/atomicWrite';
import { PRODUCT_ROLE_INFO } from '../protocol';
import { settingsFromEnv } from './settingsFromEnv';

export const UNDO_FILE = 'facts.before-consolidation.json';

export function describeProposal(p: ConsolidationProposal): string {
  return `${proposalLines(p).join('\n')}\n`;
}

export async function consolidate(o: { book: FactBook; env: NodeJS.ProcessEnv; model?: string; baseURL?: string }): Promise<ConsolidationProposal | { error: string }> {
  const { settings } = settingsFromEnv(o.env, { ...(o.model ? { model: o.model } : {}), ...(o.baseURL ? { baseURL: o.baseURL } : {}) }, false, PRODUCT_ROLE_INFO);
  return proposeWithSummaryModel(o.book, settings);
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
