import type { Plan, PlanUsage, PlanVersionDiff, ReviewResult, StepEvidence, StepState } from '../../protocol';

/** How the plan reached us: `propose_plan` arguments, a `json_schema` answer, JSON extracted from text, a file, an amendment during execution, or the user's own edit. */
export type PlanPath = 'tool' | 'json_schema' | 'extraction' | 'file' | 'amendment' | 'user_edit';

/** One answer from the model that was checked: what it said and what was wrong with it. */
export interface PlanAttempt {
  raw: string;
  path: PlanPath;
  errors: string[];
  at: number;
  /** The model that answered (absent in records from before fallback models). */
  model?: string;
  /** Why it was rejected: no JSON could be read (`parse`), or it broke the schema or a check (`validation`). */
  failure?: 'parse' | 'validation';
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
  /** The system prompt's version (role and hash of its text) the plan was asked with. */
  promptVersion?: string;
  /** Models of the role's fallback list that were asked after the first one's repairs ran out. */
  fallbacks?: string[];
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
  /** The Reviewer's verdict on this version. */
  review?: ReviewResult;
  /** The Reviewer's verdicts on executed steps, by step number. */
  stepReviews?: Record<string, ReviewResult>;
  /** The version this one replans (its done steps were carried over as done). */
  replanOf?: number;
  /** What changed from the previous valid version. */
  changes?: PlanVersionDiff;
  /** Why the last execution stopped early without a failed step. */
  halted?: string;
  /** Why steps that could run side by side run one at a time here, as its card says it. */
  oneAtATime?: string;
  /** Tokens and cost of this version's work, per role and per step. */
  usage?: PlanUsage;
}
