/**
 * Plan records for a task resumed from history: rebuilt from its plan cards (the plan, errors,
 * step states, superseded) and the provenance history kept for each. A card whose provenance
 * was not kept still gets a record (so Execute works) with a provenance that says so.
 */
import type { Card, PlanCard } from '../../protocol';
import type { PlanProvenance, PlanRecord } from './planRecord';

export function recordsFromCards(cards: readonly Card[], provenance: Readonly<Record<string, PlanProvenance>> = {}): PlanRecord[] {
  return cards
    .filter((c): c is PlanCard => c.kind === 'plan')
    .map((c) => ({
      cardId: c.id,
      version: c.version,
      plan: c.plan,
      errors: [...c.errors],
      // A step left running when the task was saved never finished: back to pending.
      stepStates: Object.fromEntries(Object.entries(c.step_states).map(([k, v]) => [k, v === 'running' ? 'pending' : v])),
      stepEvidence: { ...(c.step_evidence ?? {}) },
      superseded: !!c.superseded,
      ...(c.review ? { review: c.review } : {}),
      ...(c.step_reviews ? { stepReviews: { ...c.step_reviews } } : {}),
      ...(c.replan_of !== undefined ? { replanOf: c.replan_of } : {}),
      ...(c.changes ? { changes: c.changes } : {}),
      ...(c.halted ? { halted: c.halted } : {}),
      ...(c.one_at_a_time ? { oneAtATime: c.one_at_a_time } : {}),
      ...(c.usage ? { usage: c.usage } : {}),
      provenance: provenance[c.id] ?? {
        model: '(not kept)', raw: c.raw_text ?? JSON.stringify(c.plan), path: 'tool', attempts: [], repairs: 0, createdAt: c.ts,
      },
    }));
}
