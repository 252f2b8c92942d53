import type { StepState } from '../../../src/protocol';
import type { ChatCard } from './localCards';
import { validated } from './decodeInbound';

export interface PlanProgress {
  version: number;
  /** The step running now (else the next one not done), 1-based position among the steps. */
  position: number;
  total: number;
  action: string;
  steps: { n: number; action: string; state: StepState }[];
  /** Every step running now (steps side by side run several at once), in step order. */
  running: { n: number; action: string }[];
}

/**
 * The plan being executed, for the header: which step runs ("3/5 · Update the tests") and every
 * step's state, so progress stays in view when the plan card has scrolled away. Only the latest
 * plan card can be executing; it is looked for from the end of the chat.
 */
export function planProgress(cards: readonly ChatCard[]): PlanProgress | null {
  for (let i = cards.length - 1; i >= 0; i--) {
    if (cards[i]!.kind !== 'plan') continue;
    const c = validated(cards[i]!);
    if (c.kind !== 'plan' || !c.executing || !c.plan) return null;
    const steps = c.plan.steps.map((s) => ({ n: s.step_number, action: s.action, state: c.step_states[String(s.step_number)] ?? 'pending' }));
    if (steps.length === 0) return null;
    let at = steps.findIndex((s) => s.state === 'running');
    if (at < 0) at = steps.findIndex((s) => s.state === 'pending');
    if (at < 0) at = steps.length - 1;
    const running = steps.filter((s) => s.state === 'running').map((s) => ({ n: s.n, action: s.action }));
    return { version: c.version, position: at + 1, total: steps.length, action: steps[at]!.action, steps, running };
  }
  return null;
}
