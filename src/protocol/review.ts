import * as z from 'zod';

/**
 * The Reviewer's structured answer about a plan or an executed step. `ok`: go on; `revise`: the
 * plan should change before it runs; `replan`: what happened calls for a new plan version. A
 * concern may point at a step, a file and a line. Optional fields are nullable so the strict JSON
 * schema (every property required) can carry them.
 */
export const ReviewConcern = z.object({
  step: z.number().int().min(1).max(50).nullable().optional(),
  file: z.string().max(500).nullable().optional(),
  line: z.number().int().min(1).nullable().optional(),
  text: z.string().min(1).max(2000),
});
export type ReviewConcern = z.infer<typeof ReviewConcern>;

export const ReviewVerdictKind = z.enum(['ok', 'revise', 'replan']);
export type ReviewVerdictKind = z.infer<typeof ReviewVerdictKind>;

/**
 * A durable fact about the project the review showed (kept across tasks), with the evidence it
 * rests on: a workspace file and its lines, or the step's check command whose output showed it.
 */
export const ReviewLearn = z.object({
  text: z.string().min(1).max(300),
  file: z.string().max(500).nullable().optional(),
  start_line: z.number().int().min(1).nullable().optional(),
  end_line: z.number().int().min(1).nullable().optional(),
  command: z.string().max(500).nullable().optional(),
});
export type ReviewLearn = z.infer<typeof ReviewLearn>;

export const ReviewVerdict = z.object({
  verdict: ReviewVerdictKind,
  reasons: z.array(z.string().min(1).max(2000)).min(1).max(20),
  concerns: z.array(ReviewConcern).max(30),
  learn: ReviewLearn.nullable().optional(),
});
export type ReviewVerdict = z.infer<typeof ReviewVerdict>;

/** One answer a structured request checked: what the model said and what was wrong with it. */
export const StructuredAttempt = z.object({
  model: z.string(),
  raw: z.string(),
  errors: z.array(z.string()),
  latency_ms: z.number().optional(),
  /** Why it was rejected: no JSON could be read from it (`parse`), or the JSON broke the schema or a check (`validation`). */
  failure: z.enum(['parse', 'validation', 'request']).optional(),
});
export type StructuredAttempt = z.infer<typeof StructuredAttempt>;

/**
 * Where a verdict came from, kept on the card (so in history): the model that gave it, the prompt's
 * version, the raw answer, every attempt with its validation errors, how many repairs and which
 * fallback models were tried.
 */
export const VerdictProvenance = z.object({
  model: z.string(),
  prompt_version: z.string(),
  raw: z.string(),
  attempts: z.array(StructuredAttempt),
  repairs: z.number().int(),
  fallbacks: z.array(z.string()),
});
export type VerdictProvenance = z.infer<typeof VerdictProvenance>;

/**
 * A verdict as the plan card shows it. `verdict` is null when no valid answer came (every repair and
 * fallback failed): the card says so and nothing is blocked. `overridden` once the user chose to go
 * on regardless.
 */
export const ReviewResult = z.object({
  verdict: ReviewVerdict.nullable(),
  error: z.string().optional(),
  /** A step review: the step it judged. */
  step: z.number().int().optional(),
  overridden: z.boolean().optional(),
  provenance: VerdictProvenance,
  ts: z.number(),
});
export type ReviewResult = z.infer<typeof ReviewResult>;

/** What changed from the previous plan version, as the card shows it. */
export const PlanVersionDiff = z.object({
  from_version: z.number().int().min(1),
  added: z.array(z.object({ step: z.number().int(), action: z.string() })),
  removed: z.array(z.object({ step: z.number().int(), action: z.string() })),
  edited: z.array(z.object({
    step: z.number().int(),
    /** The step's number in the previous version (steps move when others are added or removed). */
    from_step: z.number().int(),
    changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
  })),
  /** Steps carried over unchanged (done steps a replan keeps are among them). */
  unchanged: z.number().int(),
});
export type PlanVersionDiff = z.infer<typeof PlanVersionDiff>;

/**
 * How one model fared with structured answers (plans and verdicts) in this task: answers checked,
 * how many could not be read as JSON, how many broke the schema or a check, and the mean latency of
 * the answers whose latency is known.
 */
export const ModelReliability = z.object({
  answers: z.number().int(),
  parse_failures: z.number().int(),
  validation_failures: z.number().int(),
  mean_latency_ms: z.number().optional(),
});
export type ModelReliability = z.infer<typeof ModelReliability>;

/** Tokens and cost of one slice of a plan's work (a role, a step). */
export const UsageSlice = z.object({
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  cost_usd: z.number().optional(),
  requests: z.number().int(),
});
export type UsageSlice = z.infer<typeof UsageSlice>;

export const PlanUsage = z.object({
  by_role: z.record(z.string(), UsageSlice),
  by_step: z.record(z.string(), UsageSlice),
});
export type PlanUsage = z.infer<typeof PlanUsage>;
