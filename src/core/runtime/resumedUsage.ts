import type { Card } from '../../protocol';

interface Totals { tokens_in: number; tokens_out: number; cost_usd?: number }

/**
 * The usage a resumed task's header shows before its next request: the task's totals as saved, and
 * the last turn's — every request after the user's last message, read from its usage cards. Without
 * them the header's Turn and Task were gone after a resume until the model was asked again.
 * Undefined when the task never asked a model.
 */
export function resumedUsage(cards: readonly Card[], task: Totals): { turn: Totals; task: Totals } | undefined {
  if (task.tokens_in === 0 && task.tokens_out === 0) return undefined;
  let from = 0;
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i]!;
    if (c.kind === 'text' && c.author === 'user') { from = i + 1; break; }
  }
  const turn: Totals = { tokens_in: 0, tokens_out: 0 };
  for (const c of cards.slice(from)) {
    if (c.kind !== 'usage') continue;
    turn.tokens_in += c.tokens_in;
    turn.tokens_out += c.tokens_out;
    if (c.cost_usd !== undefined) turn.cost_usd = (turn.cost_usd ?? 0) + c.cost_usd;
  }
  return { turn, task: { ...task } };
}
