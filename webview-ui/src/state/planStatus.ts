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
  | { kind: 'executed'; done: number; unverified: number; failed: number; /** Steps the user's Stop ended: neither done nor failed. */ stopped: number; total: number; /** The first step that did not end done or unverified: where "Continue from step k" starts. */ next?: number };

export function planStatus(card: PlanCard): PlanStatus {
  if (card.plan === null) return { kind: 'invalid' };
  if (card.superseded) return { kind: 'superseded' };
  if (card.executing) return { kind: 'executing' };
  const steps = card.plan.steps;
  let done = 0;
  let unverified = 0;
  let failed = 0;
  let stopped = 0;
  let started = false;
  let next: number | undefined;
  for (const s of steps) {
    const st = card.step_states[String(s.step_number)];
    if (st === 'done') done++;
    else if (st === 'unverified') unverified++;
    else if (st === 'failed') failed++;
    else if (st === 'stopped') stopped++;
    if (st && st !== 'pending') started = true;
    if (next === undefined && st !== 'done' && st !== 'unverified') next = s.step_number;
  }
  return started ? { kind: 'executed', done, unverified, failed, stopped, total: steps.length, ...(next !== undefined ? { next } : {}) } : { kind: 'ready' };
}

/**
 * One line for an executed plan: "Executed ✓" only when every step is done (each with evidence),
 * otherwise how far it got and how many steps lack evidence.
 */
export function executedLabel(s: Extract<PlanStatus, { kind: 'executed' }>): string {
  if (s.done === s.total) return 'Executed ✓';
  const unverified = s.unverified > 0 ? `, ${s.unverified} unverified` : '';
  if (s.failed > 0) return `Execution failed (${s.done} of ${s.total} steps done${unverified})`;
  if (s.stopped > 0) return `Stopped (${s.done} of ${s.total} steps done${unverified})`;
  if (s.done + s.unverified === s.total) return `Executed, not verified (${s.done} of ${s.total} steps done${unverified})`;
  if (s.next !== undefined && s.done + s.unverified === s.next - 1) return `${s.done} of ${s.total} steps done${unverified}; step ${s.next} is next`;
  return `Execution ended (${s.done} of ${s.total} steps done${unverified})`;
}
