import * as z from 'zod';

/** The Planner's structured plan. `format_version` pins the shape for history and the CLI. */
export const PlanStep = z.object({
  step_number: z.number().int().min(1),
  action: z.string().min(1).max(2000),
  reason: z.string().max(2000),
  tools_needed: z.array(z.string().max(64)).max(12),
  estimated_time: z.string().max(64),
  /** The step's scope: the files it may change (workspace paths or globs) … */
  files: z.array(z.string().max(500)).max(50),
  /** … the commands it may run (whole command lines or prefixes; absent in plans written before scopes) … */
  commands: z.array(z.string().min(1).max(500)).max(20).optional(),
  /** … and the command whose exit code 0 is the evidence that the step worked (e.g. its test). */
  check: z.string().min(1).max(500).optional(),
  /**
   * The steps this one needs done first. Omitted: the previous step (so older plans keep their
   * meaning); `[]`: ready at once. Steps whose needs are met and whose files do not overlap may run
   * at the same time (see src/core/plans/graph/).
   */
  // No bounds in the schema (prompt budget): an unknown or repeated number is the validator's to name.
  depends_on: z.array(z.number().int()).optional(),
});
export type PlanStep = z.infer<typeof PlanStep>;

/** The most steps a plan may have (the validator refuses more before walking them; planLimits.ts). */
export const MAX_PLAN_STEPS = 50;

export const Plan = z.object({
  format_version: z.literal('1.0'),
  goal: z.string().min(1).max(2000),
  steps: z.array(PlanStep).max(MAX_PLAN_STEPS),
  estimated_total_time: z.string().max(64),
  risks: z.array(z.string().max(1000)).max(20),
  prerequisites: z.array(z.string().max(1000)).max(20),
});
export type Plan = z.infer<typeof Plan>;

/**
 * Where a step stands. A step ends `done` only with evidence (its check exited 0, none of its
 * actions was rejected or failed, its changes stayed inside its files); `unverified` when it ended
 * normally without that evidence; `failed` when it could not be done or its check failed.
 */
/** `stopped`: the user stopped the run during this step; neither done nor failed. */
export const StepState = z.enum(['pending', 'running', 'done', 'unverified', 'failed', 'stopped']);
export type StepState = z.infer<typeof StepState>;

/** What a step's check printed (capped), kept on the plan card as the step's evidence. */
export const CheckResult = z.object({
  command: z.string(),
  /** null when the check did not run to an exit code (rejected, timed out, stopped). */
  exit_code: z.number().int().nullable(),
  output: z.string(),
});
export type CheckResult = z.infer<typeof CheckResult>;

/** Why a step ended as it did: the reasons it is not done (empty when done) and its check's result. */
export const StepEvidence = z.object({
  why: z.array(z.string()).max(20),
  check: CheckResult.optional(),
});
export type StepEvidence = z.infer<typeof StepEvidence>;
