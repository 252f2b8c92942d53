/**
 * Consolidation past `tandem.facts.max`: the summary model is shown the workspace's facts (each
 * with its citation and whether it still holds) and answers which to merge (duplicates, one
 * sentence for several) and which to drop (stale, contradicted by the code). Its answer is only a
 * proposal: nothing is replaced until the user keeps it, and what was there before is kept for Undo.
 * A merged fact keeps its sources' citations (at most five files), the oldest creation time and the
 * latest check; facts the answer does not name stay as they are.
 */
import * as z from 'zod';
import type { Fact, FactCitation, FactView } from '../../protocol';

export const ConsolidationAnswer = z.object({
  facts: z.array(z.object({ from: z.array(z.string().min(1).max(40)).min(1).max(40), text: z.string().min(1).max(300) })).max(200),
  drop: z.array(z.object({ id: z.string().min(1).max(40), why: z.string().min(1).max(500) })).max(200),
});
export type ConsolidationAnswer = z.infer<typeof ConsolidationAnswer>;

export interface ConsolidationProposal {
  before: Fact[];
  after: Fact[];
  merged: { into: Fact; from: Fact[] }[];
  dropped: { fact: Fact; why: string }[];
}

export const CONSOLIDATION_SYSTEM = 'You consolidate the facts a coding agent keeps about one project. Merge facts that say the same thing (or parts of one thing) into one short sentence; drop facts that are stale or that another fact contradicts. Never invent a fact. Answer with only one JSON object: {"facts":[{"from":["<id>",...],"text":"one sentence"}],"drop":[{"id":"<id>","why":"..."}]}. Facts you do not name are kept as they are.';

export function consolidationBrief(views: readonly FactView[]): string {
  return ['The facts (id, sentence, citation, state):', ...views.map((v) => `- ${v.fact.id}: ${v.fact.text} [${v.cited}]${v.stale ? ` (stale: ${v.stale.detail})` : ''}`)].join('\n');
}

function mergedCitation(from: readonly Fact[]): FactCitation | undefined {
  const files = from.flatMap((f) => (f.citation?.kind === 'lines' ? f.citation.files : []));
  if (files.length) return { kind: 'lines', files: files.slice(0, 5) };
  return from.find((f) => f.citation)?.citation;
}

/** The answer as a proposal over `facts`, or what is wrong with it (an unknown id, an id named twice). */
export function proposeConsolidation(facts: readonly Fact[], answer: ConsolidationAnswer, mask: (text: string) => string): ConsolidationProposal | { error: string } {
  const byId = new Map(facts.map((f) => [f.id, f]));
  const named = new Set<string>();
  const claim = (id: string): string | undefined => {
    if (!byId.has(id)) return `the answer names ${id}, which is not one of the facts`;
    if (named.has(id)) return `the answer names ${id} twice`;
    named.add(id);
    return undefined;
  };
  const merged: ConsolidationProposal['merged'] = [];
  const dropped: ConsolidationProposal['dropped'] = [];
  const replaced = new Map<string, Fact>();
  for (const d of answer.drop) {
    const e = claim(d.id);
    if (e) return { error: e };
    dropped.push({ fact: byId.get(d.id)!, why: mask(d.why) });
  }
  for (const m of answer.facts) {
    for (const id of m.from) {
      const e = claim(id);
      if (e) return { error: e };
    }
    const from = m.from.map((id) => byId.get(id)!);
    const text = mask(m.text);
    if (from.length === 1 && from[0]!.text === text) continue;
    const citation = mergedCitation(from);
    const into: Fact = {
      ...from[0]!,
      text,
      ...(citation ? { citation } : {}),
      created: Math.min(...from.map((f) => f.created)),
      checked: Math.max(...from.map((f) => f.checked)),
    };
    merged.push({ into, from });
    for (const f of from) replaced.set(f.id, into);
  }
  const after: Fact[] = [];
  for (const f of facts) {
    if (dropped.some((d) => d.fact.id === f.id)) continue;
    const r = replaced.get(f.id);
    if (!r) after.push(f);
    else if (!after.includes(r)) after.push(r);
  }
  return { before: [...facts], after, merged, dropped };
}

/** The proposal as the user reads it before keeping it: `Facts: 44 → 23`, then each merge and drop. */
export function proposalLines(p: ConsolidationProposal): string[] {
  const lines = [`Facts: ${p.before.length} → ${p.after.length}`];
  for (const m of p.merged) lines.push(`  merged ${m.from.map((f) => f.id).join(', ')} → ${m.into.id}: ${m.into.text}`);
  for (const d of p.dropped) lines.push(`  dropped ${d.fact.id}: ${d.fact.text} — ${d.why}`);
  if (!p.merged.length && !p.dropped.length) lines.push('  nothing to merge or drop');
  return lines;
}
