/**
 * The eval report: one result per task and model assignment, written as each task ends (so a
 * killed run resumes where it stopped) and gathered into a versioned JSON document that other
 * tools may read. A change that removes or renames a field is a new `format`.
 */
import * as z from 'zod';

export const EVAL_REPORT_FORMAT = 'tandem-eval-report/1';
export const EVAL_RESULT_FORMAT = 'tandem-eval-result/1';

/** Why a task did not pass. */
export const FAILURE_REASONS = ['no_change', 'check_failed', 'budget_hit', 'no_plan', 'plan_rejected', 'setup_failed', 'error'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const FAILURE_TEXT: Record<FailureReason, string> = {
  no_change: 'no change',
  check_failed: 'check failed',
  budget_hit: 'budget hit',
  no_plan: 'no valid plan',
  /** The Reviewer still objected after the revisions allowed: the plan was not executed (as in the chat, where only the user's Execute anyway runs past it). */
  plan_rejected: 'plan rejected',
  setup_failed: 'setup failed',
  error: 'error',
};

const RoleUsage = z.object({ tokensIn: z.number(), tokensOut: z.number(), costUsd: z.number().optional(), requests: z.number() });

export const EvalTaskResult = z.object({
  format: z.literal(EVAL_RESULT_FORMAT),
  task: z.string(),
  /** The model assignment's label, `planner=X,actor=Y`. */
  assignment: z.string(),
  flow: z.enum(['plan', 'act']),
  passed: z.boolean(),
  reason: z.enum(FAILURE_REASONS).optional(),
  /** What the reason means here: the verifier's last lines, the limit hit, the endpoint's error. */
  detail: z.string().optional(),
  wallMs: z.number(),
  byRole: z.record(z.string(), RoleUsage),
  tokensIn: z.number(),
  tokensOut: z.number(),
  costUsd: z.number().optional(),
  modelRequests: z.number(),
  toolCalls: z.number(),
  failedToolCalls: z.number(),
  refusedEdits: z.number(),
  amendments: z.number(),
  replans: z.number(),
  verdicts: z.array(z.string()),
  steps: z.object({ done: z.number(), total: z.number() }).optional(),
  changedFiles: z.array(z.string()),
  finishedAt: z.string(),
});
export type EvalTaskResult = z.infer<typeof EvalTaskResult>;

export const AssignmentSummary = z.object({
  assignment: z.string(),
  models: z.record(z.string(), z.string()),
  tasks: z.number(),
  passed: z.number(),
  passRate: z.number(),
  costUsd: z.number().optional(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  wallMs: z.number(),
  failures: z.record(z.string(), z.number()),
});
export type AssignmentSummary = z.infer<typeof AssignmentSummary>;

export const EvalReport = z.object({
  format: z.literal(EVAL_REPORT_FORMAT),
  createdAt: z.string(),
  flow: z.enum(['plan', 'act']),
  /** The endpoint's origin (never a key). */
  endpoint: z.string(),
  tasks: z.array(z.object({ id: z.string(), language: z.string().optional(), source: z.string().optional() })),
  assignments: z.array(AssignmentSummary),
  results: z.array(EvalTaskResult),
});
export type EvalReport = z.infer<typeof EvalReport>;

export interface Assignment {
  label: string;
  models: Record<string, string>;
}

/** Pass rate, cost, tokens and time per assignment, over the tasks that have a result. */
export function summarize(assignments: readonly Assignment[], results: readonly EvalTaskResult[]): AssignmentSummary[] {
  return assignments.map((a) => {
    const mine = results.filter((r) => r.assignment === a.label);
    const passed = mine.filter((r) => r.passed).length;
    const priced = mine.length > 0 && mine.every((r) => r.costUsd !== undefined);
    const failures: Record<string, number> = {};
    for (const r of mine) if (!r.passed && r.reason) failures[r.reason] = (failures[r.reason] ?? 0) + 1;
    return {
      assignment: a.label,
      models: a.models,
      tasks: mine.length,
      passed,
      passRate: mine.length ? passed / mine.length : 0,
      ...(priced ? { costUsd: mine.reduce((n, r) => n + (r.costUsd ?? 0), 0) } : {}),
      tokensIn: mine.reduce((n, r) => n + r.tokensIn, 0),
      tokensOut: mine.reduce((n, r) => n + r.tokensOut, 0),
      wallMs: mine.reduce((n, r) => n + r.wallMs, 0),
      failures,
    };
  });
}

/** `planner=X,actor=Y` from a role → model map, in the roles' order. */
export function assignmentLabel(models: Record<string, string>): string {
  return Object.entries(models).map(([r, m]) => `${r}=${m}`).join(',');
}

/** A short name for charts: the first role's model, then `role=model` for each role with another one. */
export function compactLabel(models: Record<string, string>): string {
  const entries = Object.entries(models);
  const first = entries[0]?.[1] ?? '';
  return [first, ...entries.slice(1).filter(([, m]) => m !== first).map(([r, m]) => `${r}=${m}`)].join(' · ');
}

/** The line that says why a result failed: the reason's own words, or the verifier's first line that reads as a failure. */
export function failureHeadline(detail: string | undefined): string {
  if (!detail) return '';
  const lines = detail.split('\n').map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  if (!/^verifier /.test(first)) return first.replace(/;? ?(then )?the check failed.*$/, '');
  return lines.slice(1).find((l) => /not ok|Error|FAIL|assert|Traceback|expected/i.test(l)) ?? first;
}

/** A report read from disk, or what is wrong with it. */
export function parseEvalReport(text: string): { report: EvalReport } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON (${(e as Error).message})` };
  }
  const r = EvalReport.safeParse(raw);
  if (r.success) return { report: r.data };
  return { error: r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ') };
}
