import type { PlanCard } from '../../../src/protocol';

/**
 * Where a plan card stands, from what the host told us (`executing`, `step_states`). A plan whose
 * steps have moved past "pending" and that is no longer executing has been run: offering the same
 * one-click Execute again would re-run every edit and command, so the card says how it went instead.
 */
export type PlanStatus =
  | { kind: 'invalid' }
  | { kind: 'superseded' }
  | { kind: 'ready' }
  | { kind: 'executing' }
  | { kind: 'executed'; done: number; failed: number; total: number };

export function planStatus(card: PlanCard): PlanStatus {
  if (card.plan === null) return { kind: 'invalid' };
  if (card.superseded) return { kind: 'superseded' };
  if (card.executing) return { kind: 'executing' };
  const steps = card.plan.steps;
  let done = 0;
  let failed = 0;
  let started = false;
  for (const s of steps) {
    const st = card.step_states[String(s.step_number)];
    if (st === 'done') done++;
    else if (st === 'failed') failed++;
    if (st && st !== 'pending') started = true;
  }
  return started ? { kind: 'executed', done, failed, total: steps.length } : { kind: 'ready' };
}

/** One line for an executed plan: "Executed ✓", or how far it got. */
export function executedLabel(s: Extract<PlanStatus, { kind: 'executed' }>): string {
  if (s.done === s.total && s.failed === 0) return 'Executed ✓';
  if (s.failed > 0) return `Execution failed (${s.done} of ${s.total} steps done)`;
  return `Execution ended (${s.done} of ${s.total} steps done)`;
}
