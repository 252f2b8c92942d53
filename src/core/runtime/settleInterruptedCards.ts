import type { Card } from '../../protocol';

const INTERRUPTED = 'Interrupted: the task was closed before this call finished.';

/**
 * A task saved while it ran (VS Code closed or reloaded mid-turn) comes back with cards frozen in
 * their running states: a plan still "executing" (Execute disabled for good), a step "running", a
 * tool call "needs approval" whose Approve nothing waits for any more. Nothing of that run is alive
 * after a resume, so those cards are shown as what they are: ended.
 */
export function settleInterruptedCards(cards: readonly Card[]): Card[] {
  return cards.map((c) => {
    if (c.kind === 'plan' && (c.executing || Object.values(c.step_states).includes('running'))) {
      const steps = Object.fromEntries(Object.entries(c.step_states).map(([k, v]) => [k, v === 'running' ? 'pending' : v]));
      return { ...c, executing: false, step_states: steps };
    }
    if (c.kind === 'tool_call' && (c.status === 'pending' || c.status === 'running' || c.status === 'approved')) {
      return { ...c, status: 'error', error: c.error ?? INTERRUPTED };
    }
    if (c.kind === 'text' && c.streaming) return { ...c, streaming: false };
    if (c.kind === 'question' && c.status === 'waiting') return { ...c, status: 'cancelled' };
    return c;
  });
}
