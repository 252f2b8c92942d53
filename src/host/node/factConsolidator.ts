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
import { PRODUCT_ROLE_INFO, type Fact } from '../../protocol';
import type { ChatCompletionMessageParam as ChatMessage } from 'openai/resources/chat/completions';

/** Repairs after a rejected answer (then a clear error). */
export const CONSOLIDATION_REPAIRS = 1;

/** What goes back to the model when its answer was not a consolidation: the error lines, and to answer again. */
function repairPrompt(errors: readonly string[]): string {
  return ['That answer was rejected:', ...errors.map((e) => `- ${e}`), 'Answer again with only the whole corrected JSON object: {"facts":[{"from":["<id>",...],"text":"one sentence"}],"drop":[{"id":"<id>","why":"..."}]}, naming only ids from the list, each at most once.'].join('\n');
}

/** The answer checked: JSON, the schema, then the ids it names (each a fact, at most once). */
function checkAnswer(text: string, facts: readonly Fact[], mask: (t: string) => string): ConsolidationProposal | { errors: string[] } {
  const found = extractJson(text);
  if (!found.ok) return { errors: [`no JSON object: ${found.error}`] };
  const parsed = ConsolidationAnswer.safeParse(found.value);
  if (!parsed.success) return { errors: parsed.error.issues.slice(0, 8).map((i) => `${i.path.length ? i.path.join('.') : '(answer)'}: ${i.message}`) };
  const p = proposeConsolidation(facts, parsed.data, mask);
  return 'error' in p ? { errors: [p.error] } : p;
}

/**
 * The summary model's proposal, validated like the other structured answers: an answer that is no
 * JSON, fails the schema or names facts that are not there gets its error lines back for one
 * repair; after that, a clear error — and nothing is replaced either way.
 */
export async function proposeWithSummaryModel(book: FactBook, settings: AgentSettings, signal?: AbortSignal): Promise<ConsolidationProposal | { error: string }> {
  const views = await book.list('workspace');
  if (views.length < 2) return { error: `there ${views.length === 1 ? 'is 1 fact' : `are ${views.length} facts`}: nothing to consolidate` };
  const model = settings.summaryModel || modelFor(settings, PRODUCT_ROLE_INFO.initial.id);
  const client = new LlmClient({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: settings.limits.maxRetries, idleTimeoutMs: settings.limits.requestIdleTimeoutMs, requestDeadlineMs: settings.limits.requestDeadlineMs });
  const facts = views.map((v) => v.fact);
  // The summary model's own request (not a task's conversation): the brief, then the repair exchange.
  const request: ChatMessage[] = [{ role: 'system', content: CONSOLIDATION_SYSTEM }, { role: 'user', content: consolidationBrief(views) }];
  let errors: string[] = [];
  for (let attempt = 0; attempt <= CONSOLIDATION_REPAIRS; attempt++) {
    if (attempt > 0) request.push({ role: 'user', content: repairPrompt(errors) });
    const r = await client.stream({ model, maxTokens: 4000, messages: request }, signal ? { signal } : {});
    const checked = checkAnswer(r.text, facts, (t) => book.mask(t));
    if (!('errors' in checked)) return checked;
    errors = checked.errors;
    request.push({ role: 'assistant', content: r.text });
  }
  return { error: `the summary model (${model}) gave no valid consolidation after ${CONSOLIDATION_REPAIRS} repair: ${errors.join('; ')}. Nothing was replaced: the ${facts.length} facts are as they were` };
}
