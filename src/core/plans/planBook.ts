/**
 * The task's plans: every version with its provenance and step states, and the plan cards that
 * show them. A new version supersedes the older ones (they stay visible, collapsed). Nothing can
 * be executed from a record whose `plan` is null.
 */
import type { Card, HostEventInput, Plan, StepEvidence, StepState } from '../../protocol';
import type { PlanProvenance, PlanRecord } from './planRecord';

/** The slice of the event stream plans need (`EventStream` satisfies it). */
export interface PlanUi {
  addCard(card: Card): void;
  patchCard(id: string, patch: Record<string, unknown>): void;
  emit(event: HostEventInput): unknown;
  newId(kind?: string): string;
}

export class PlanBook {
  private readonly records: PlanRecord[] = [];

  constructor(private readonly ui: PlanUi, private readonly now: () => number = Date.now) {}

  /** Shows a new plan version (valid or not) and supersedes the previous ones. */
  publish(result: { plan: Plan | null; errors: string[]; provenance: PlanProvenance }): PlanRecord {
    for (const r of this.records) {
      if (!r.superseded) {
        r.superseded = true;
        this.ui.patchCard(r.cardId, { superseded: true });
      }
    }
    const record: PlanRecord = {
      cardId: this.ui.newId('plan'),
      version: this.records.length + 1,
      plan: result.plan,
      errors: result.errors,
      provenance: result.provenance,
      stepStates: result.plan ? Object.fromEntries(result.plan.steps.map((s) => [String(s.step_number), 'pending' as StepState])) : {},
      stepEvidence: {},
      superseded: false,
    };
    this.records.push(record);
    this.ui.addCard({
      kind: 'plan',
      id: record.cardId,
      version: record.version,
      plan: record.plan,
      // An unvalidated plan is shown as the model wrote it; the card says it could not be validated.
      ...(record.plan ? {} : { raw_text: result.provenance.raw }),
      errors: record.errors,
      step_states: { ...record.stepStates },
      ts: result.provenance.createdAt || this.now(),
    });
    return record;
  }

  /**
   * Puts back the records of a resumed task (history keeps them with their provenance), so Execute
   * and Revise work on the restored cards. Emits nothing: the cards come back with the snapshot.
   */
  restore(records: readonly PlanRecord[]): void {
    this.records.length = 0;
    for (const r of records) this.records.push({ ...r, stepStates: { ...r.stepStates }, stepEvidence: { ...(r.stepEvidence ?? {}) } });
  }

  get(cardId: string): PlanRecord | undefined {
    return this.records.find((r) => r.cardId === cardId);
  }

  latest(): PlanRecord | undefined {
    return this.records[this.records.length - 1];
  }

  all(): readonly PlanRecord[] {
    return this.records;
  }

  /**
   * Records a step's state (and, once it ended, its evidence) and patches the card — whole maps,
   * because patches are shallow. An ended step always carries evidence; `reason` alone becomes its why.
   */
  setStepState(cardId: string, stepNumber: number, state: StepState, reason?: string, evidence?: StepEvidence): void {
    const r = this.get(cardId);
    if (!r) return;
    const key = String(stepNumber);
    r.stepStates[key] = state;
    if (state === 'running' || state === 'pending') delete r.stepEvidence[key];
    else r.stepEvidence[key] = evidence ?? { why: reason ? [reason] : [] };
    this.ui.patchCard(cardId, { step_states: { ...r.stepStates }, step_evidence: { ...r.stepEvidence } });
    const why = r.stepEvidence[key]?.why.join('; ') || reason;
    if (state === 'running') this.ui.emit({ type: 'step_started', plan_id: cardId, step_number: stepNumber });
    else if (state === 'done') this.ui.emit({ type: 'step_done', plan_id: cardId, step_number: stepNumber });
    else if (state === 'failed') this.ui.emit({ type: 'step_failed', plan_id: cardId, step_number: stepNumber, ...(why ? { reason: why } : {}) });
    else if (state === 'unverified') this.ui.emit({ type: 'step_unverified', plan_id: cardId, step_number: stepNumber, reason: why || 'no evidence' });
  }

  setExecuting(cardId: string, executing: boolean): void {
    if (this.get(cardId)) this.ui.patchCard(cardId, { executing });
  }

  /** Resets step states before a (re-)execution. */
  resetSteps(cardId: string): void {
    const r = this.get(cardId);
    if (!r?.plan) return;
    r.stepStates = Object.fromEntries(r.plan.steps.map((s) => [String(s.step_number), 'pending' as StepState]));
    r.stepEvidence = {};
    this.ui.patchCard(cardId, { step_states: { ...r.stepStates }, step_evidence: {} });
  }
}
