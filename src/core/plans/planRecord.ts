import type { Plan, StepEvidence, StepState } from '../../protocol';

/** How the plan reached us: `propose_plan` arguments, a `json_schema` answer, or JSON extracted from text. */
export type PlanPath = 'tool' | 'json_schema' | 'extraction' | 'file';

/** One answer from the model that was checked: what it said and what was wrong with it. */
export interface PlanAttempt {
  raw: string;
  path: PlanPath;
  errors: string[];
  at: number;
}

/**
 * Provenance kept with each plan version: the raw model output, the model, every
 * validation error and repair attempt, and when. History persists it with the task.
 */
export interface PlanProvenance {
  model: string;
  /** The raw output the final result came from (the valid plan's JSON text, or the last invalid answer). */
  raw: string;
  path: PlanPath;
  /** Every answer checked for this version, in order; attempts[0] is the first, later ones are repairs. */
  attempts: PlanAttempt[];
  /** Repairs requested (attempts after the first). */
  repairs: number;
  createdAt: number;
  /** The Revise feedback this version answers, if any. */
  feedback?: string;
}

export interface PlanRecord {
  cardId: string;
  version: number;
  /** null when it never validated: Execute is disabled and nothing may run from it. */
  plan: Plan | null;
  errors: string[];
  provenance: PlanProvenance;
  stepStates: Record<string, StepState>;
  /** Per ended step: its evidence, or why it is not done. */
  stepEvidence: Record<string, StepEvidence>;
  superseded: boolean;
}
