/**
 * What the conversation tools (propose_plan, fail_step) need of the task's plans. Declared on the tools'
 * side so tools stay below plans (scripts/lint/layers.mjs); the task's `Planning` provides it, checked
 * by the compiler where the tool context is built.
 */

/** The outcome of submitting a plan, as much of it as propose_plan tells the model. */
export type PlanSubmissionOutcome =
  | { status: 'accepted' | 'rejected' | 'closed'; record: { version: number; errors: readonly string[] } }
  | { status: 'repair'; errors: readonly string[]; prompt: string }
  | { status: 'fallback'; model: string; errors: readonly string[] };

/** The plan turn open right now (a role that plans is answering). */
export interface OpenPlanTurn {
  readonly done: boolean;
  readonly attempts: readonly unknown[];
  submit(raw: string, value: unknown, path: 'tool'): Promise<PlanSubmissionOutcome>;
}

export interface PlanningPort {
  readonly currentTurn: OpenPlanTurn | undefined;
  /** Set while an approved plan executes (fail_step is offered only then). */
  readonly execution: unknown;
  /** Marks the running step failed; false when no step is running. */
  failCurrentStep(reason: string): boolean;
  /** Files a command changed while a step runs (found by comparing the workspace): they count as the step's changes. */
  noteCommandChanges?(absPaths: readonly string[]): Promise<void>;
}
