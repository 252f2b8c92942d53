import type { ChatCard } from './localCards';

/** Finish reasons that are just the normal course of a turn; a usage card with any other one stays in the chat. */
export const ROUTINE_OUTCOMES = new Set(['ok', 'done', 'stop', 'tool_calls', 'summary', 'review', 'explore']);

/**
 * Cards kept in the task but not shown as rows: a routine usage line (the header shows turn and task
 * totals, with the last call on hover), the note that a model's window is assumed (the Context
 * meter says it), and the tool-call card of a tool whose own card says
 * everything (its display folds it `own_card`: the plan or the question it produced is right below)
 * once it succeeded (a question's call also while it waits: the question card is what waits). A
 * failed one still shows. And a plan's draft, once its plan card was published.
 * Read defensively: snapshot cards may not be validated yet.
 */
export function isFolded(card: ChatCard): boolean {
  const c = card as unknown as Record<string, unknown>;
  if (c.kind === 'usage') return typeof c.outcome === 'string' && ROUTINE_OUTCOMES.has(c.outcome);
  // "The context window of X is not known…": the header's Context meter says it (an assumed window
  // shows as "~8.2k", the reason on hover), once per model, not a paragraph at the start of each task.
  if (c.kind === 'text') return c.note === 'context_window';
  // A refused plan edit is said under the form the user saved (RefusalNote); a row in the chat
  // repeated it, and stayed there after the next save made the new version.
  if (c.kind === 'error') return (c.refused as { action?: unknown } | undefined)?.action === 'edit_plan';
  // A plan's draft once the plan card (valid or not) stands for it.
  if (c.kind === 'plan_draft') return c.state === 'published';
  if (c.kind === 'tool_call') {
    const d = c.display as { fold?: unknown } | undefined;
    if (!d || typeof d !== 'object' || d.fold !== 'own_card') return false;
    // A question waiting for its answer is the question card's to show: the call's own card said
    // "running" in blue above it, as if Tandem worked while it waited for the user.
    return c.status === 'done' || ((d as { kind?: unknown }).kind === 'question' && c.status === 'running');
  }
  return false;
}

/**
 * The failed `propose_plan` calls a plan draft tells: the Planner's plan failed validation and was
 * sent back. The draft says it — the problems under the steps they concern, "sent back to the
 * Planner" — and, once the repaired plan is published, the plan card stands for the draft; the
 * call's own card above the plan repeated the problems. A failed call belongs to the draft it
 * follows, up to that draft's plan card or the user's next message. A call that handed the plan to
 * a fallback model says what nothing else does, and stays. Read defensively: snapshot cards may
 * not be validated yet.
 */
export function toldByDraft(cards: readonly ChatCard[]): ReadonlySet<string> {
  const told = new Set<string>();
  let draft = false;
  for (const card of cards) {
    const c = card as unknown as Record<string, unknown>;
    if (c.kind === 'plan_draft') draft = true;
    else if (c.kind === 'plan' || (c.kind === 'text' && c.author === 'user')) draft = false;
    else if (draft && c.kind === 'tool_call' && c.status === 'error' && isPlanCall(c) && !(typeof c.error === 'string' && c.error.includes('the plan is asked of'))) told.add(String(c.id));
  }
  return told;
}

/** A call of the tool that proposes plans, by what its display says it is (the webview names no tool). */
function isPlanCall(c: Record<string, unknown>): boolean {
  const d = c.display as { kind?: unknown } | undefined;
  return !!d && typeof d === 'object' && d.kind === 'plan';
}

/** The latest model call's usage line ("gpt-4o · actor · 1.2k in · 300 out · 2.1 s"), for the header's hover; looked for near the end only. */
export function lastCallUsage(cards: readonly ChatCard[], describe: (c: { model: string; role: string; tokens_in: number; tokens_out: number; cost_usd?: number; latency_ms: number }) => string): string | undefined {
  for (let i = cards.length - 1, seen = 0; i >= 0 && seen < 400; i--, seen++) {
    const c = cards[i] as unknown as Record<string, unknown>;
    if (c.kind !== 'usage') continue;
    if (typeof c.model !== 'string' || typeof c.tokens_in !== 'number' || typeof c.tokens_out !== 'number' || typeof c.latency_ms !== 'number') return undefined;
    return describe(c as never);
  }
  return undefined;
}
