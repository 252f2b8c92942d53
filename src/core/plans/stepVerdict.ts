/**
 * How a plan step ended, from what happened while it ran. The rule, in order:
 * - **failed**: the Actor called `fail_step`, the step's turn did not end normally (error, stop,
 *   limit, an open question), or its check ran and did not exit 0 (a non-zero exit, a timeout);
 * - **unverified**: the step ended normally but something stands between it and evidence: one of
 *   its actions was rejected, refused or failed; it changed a file outside its declared `files`;
 *   the editor reports new errors in a file it changed; its check changed files; its check was not
 *   run (not approved); or it declared no check at all;
 * - **done**: none of the above, and its check exited 0 — the only road to ✓.
 * Why: a model's "done" is a claim, not evidence; a step whose command the user rejected must
 * never be shown with the same badge as one whose test passed.
 */
import type { CheckResult, StepEvidence, StepState } from '../../protocol';

/** One tool call made during the step, as it settled. */
export interface StepAction {
  tool: string;
  summary: string;
  status: 'done' | 'error' | 'refused' | 'rejected' | 'stopped';
}

/** The check's run: its result, or why it did not run at all. */
export type CheckRun = { ran: true; result: CheckResult; changed?: readonly string[] } | { ran: false; result: CheckResult; why: string };

export interface StepFacts {
  /** `fail_step`'s reason, or why the turn did not end normally. */
  failure?: string;
  actions: readonly StepAction[];
  /** Workspace-relative paths the step changed that its `files` do not cover. */
  outsideScope: readonly string[];
  /** Undefined when the step declared no check. */
  check?: CheckRun;
  /** New errors in the editor's problems of the files the step changed ("src/a.ts:3: …"); none where no editor reports them. */
  newErrors?: readonly string[];
}

export interface StepVerdict {
  state: Extract<StepState, 'done' | 'unverified' | 'failed'>;
  evidence: StepEvidence;
}

const STATUS_WORD: Record<Exclude<StepAction['status'], 'done'>, string> = {
  rejected: 'was rejected',
  refused: 'was refused',
  error: 'failed',
  stopped: 'was stopped',
};

export function stepVerdict(f: StepFacts): StepVerdict {
  const check = f.check?.result;
  const withCheck = (why: string[]): StepEvidence => (check ? { why, check } : { why });
  if (f.failure !== undefined) return { state: 'failed', evidence: withCheck([f.failure]) };
  const why: string[] = [];
  for (const a of f.actions) {
    if (a.status !== 'done') why.push(`${a.tool} (${a.summary}) ${STATUS_WORD[a.status]}`);
  }
  for (const p of f.outsideScope) why.push(`changed ${p}, which the step's files do not name`);
  for (const e of f.newErrors ?? []) why.push(`new error in the editor's problems: ${e}`);
  if (f.check?.ran) {
    const r = f.check.result;
    const touched = f.check.changed ?? [];
    if (touched.length) why.push(`the check \`${r.command}\` changed ${touched.slice(0, 10).join(', ')}${touched.length > 10 ? ` and ${touched.length - 10} more` : ''}; a check should only verify`);
    if (r.exit_code !== 0) {
      const how = r.exit_code === null ? 'did not finish' : `exited ${r.exit_code}`;
      return { state: 'failed', evidence: { why: [`the check \`${r.command}\` ${how}`, ...why], check: r } };
    }
  } else if (f.check) {
    why.push(`the check \`${f.check.result.command}\` was not run: ${f.check.why}`);
  } else {
    why.push('no check was declared');
  }
  return { state: why.length ? 'unverified' : 'done', evidence: withCheck(why.slice(0, 20)) };
}
