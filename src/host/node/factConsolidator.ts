/**
 * Asks the summary model (else the first role's model) how to consolidate a workspace's facts and
 * turns its answer into a checked proposal; nothing is replaced here. Shared by `tandem facts
 * consolidate` and the editor's Consolidate Facts. Only the workspace's facts: the global ones are
 * the user's own, across workspaces.
 */
import type { FactBook } from '../../core/facts/factBook';
import { CONSOLIDATION_SYSTEM, ConsolidationAnswer, consolidationBrief, proposeConsolidation, type ConsolidationProposal } from '../../core/facts/factConsolidation';
import { LlmClient } from '../../core/llm/llmClient';
import { extractJson } from '../../core/plans/extractJson';
import { modelFor, type AgentSettings } from '../../core/settings/settings';
import { PRODUCT_ROLE_INFO } from '../../protocol';

export async function proposeWithSummaryModel(book: FactBook, settings: AgentSettings, signal?: AbortSignal): Promise<ConsolidationProposal | { error: string }> {
  const views = await book.list('workspace');
  if (views.length < 2) return { error: `there ${views.length === 1 ? 'is 1 fact' : `are ${views.length} facts`}: nothing to consolidate` };
  const model = settings.summaryModel || modelFor(settings, PRODUCT_ROLE_INFO.initial.id);
  const client = new LlmClient({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: settings.limits.maxRetries, idleTimeoutMs: settings.limits.requestIdleTimeoutMs, requestDeadlineMs: settings.limits.requestDeadlineMs });
  const r = await client.stream({ model, maxTokens: 4000, messages: [{ role: 'system', content: CONSOLIDATION_SYSTEM }, { role: 'user', content: consolidationBrief(views) }] }, signal ? { signal } : {});
  const found = extractJson(r.text);
  if (!found.ok) return { error: `the summary model (${model}) answered no JSON: ${found.error}` };
  const parsed = ConsolidationAnswer.safeParse(found.value);
  if (!parsed.success) return { error: `the summary model's answer is not a consolidation: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  return proposeConsolidation(views.map((v) => v.fact), parsed.data, (t) => book.mask(t));
}
