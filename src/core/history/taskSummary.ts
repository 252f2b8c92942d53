import type { Card, StepEvidence, SummaryCard } from '../../protocol';
import { firstFailureLine } from '../../protocol/failureLine';

/**
 * "Step 2's check failed: `npm test` exited 1: AssertionError: 190 !== 180" (the first line of its
 * output that says why, quoted once here), or the step's first reason when its check did not fail it.
 */
function failedStepReason(step: number, evidence: StepEvidence | undefined): string {
  const check = evidence?.check;
  if (check && check.exit_code !== 0) {
    const why = firstFailureLine(check.output);
    return `Step ${step}'s check failed: \`${check.command}\` ${check.exit_code === null ? 'did not finish' : `exited ${check.exit_code}`}${why ? `: ${why}` : ''}`;
  }
  return `Step ${step} failed${evidence?.why[0] ? `: ${evidence.why[0]}` : ''}`;
}

type Touched = { path: string; change: 'modified' | 'created' | 'deleted' }[];

/**
 * The summary card for a run that just ended, or undefined when the run neither changed a file nor
 * ran a command (a question answered in words needs no summary). The run is everything after the
 * user's last message; the files are all the task changed and has not reverted (from checkpoints),
 * with the `+N −M` of the task's approved edits to each.
 */
export function buildTaskSummary(cards: readonly Card[], touched: Touched, outcome: SummaryCard['outcome'], id: string, now = Date.now()): SummaryCard | undefined {
  let start = 0;
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i]!;
    if (c.kind === 'text' && c.author === 'user') { start = i; break; }
  }
  const run = cards.slice(start);
  const commands: SummaryCard['commands'] = [];
  let changedInRun = false;
  let checked = false;
  for (const c of run) {
    if (c.kind !== 'tool_call') continue;
    // A step's check is listed once, with passed / failed, under the steps (`checks`): not again, bare, here.
    if (c.check_step !== undefined) checked = true;
    else if (c.approval?.kind === 'command' && (c.exit || c.status === 'done' || c.status === 'error')) commands.push({ command: c.approval.command ?? c.summary, ...(c.exit ? { exit: c.exit } : {}) });
    if (c.status === 'done' && c.approval && c.approval.kind !== 'command') changedInRun = true;
  }
  if (!changedInRun && commands.length === 0 && !checked) return undefined;

  const stat = new Map<string, { added: number; removed: number }>();
  let cost: number | undefined;
  let tokensIn = 0;
  let tokensOut = 0;
  for (const c of cards) {
    if (c.kind === 'usage') {
      tokensIn += c.tokens_in;
      tokensOut += c.tokens_out;
      if (c.cost_usd !== undefined) cost = (cost ?? 0) + c.cost_usd;
    }
    if (c.kind !== 'tool_call' || c.status !== 'done' || c.reverted || !c.approval?.path) continue;
    const s = stat.get(c.approval.path) ?? { added: 0, removed: 0 };
    s.added += c.approval.added ?? 0;
    s.removed += c.approval.removed ?? 0;
    stat.set(c.approval.path, s);
  }
  const files = touched.map((f) => ({ ...f, ...(stat.get(f.path) ?? {}) }));

  // The plan executed in this run, if any: how its steps ended, their checks, and why it stopped short.
  let steps: SummaryCard['steps'];
  let checks: NonNullable<SummaryCard['checks']> = [];
  let why: Pick<SummaryCard, 'reason' | 'plan_id' | 'failed_step'> = {};
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i]!;
    if (c.kind !== 'plan' || !c.plan) continue;
    const states = Object.values(c.step_states);
    if (states.some((s) => s !== 'pending')) {
      steps = {
        done: states.filter((s) => s === 'done').length,
        failed: states.filter((s) => s === 'failed').length,
        unverified: states.filter((s) => s === 'unverified').length,
        stopped: states.filter((s) => s === 'stopped').length,
        total: c.plan.steps.length,
      };
      checks = c.plan.steps.flatMap((s) => {
        const check = c.step_evidence?.[String(s.step_number)]?.check;
        return check ? [{ step: s.step_number, command: check.command, exit_code: check.exit_code, output: check.output }] : [];
      });
      const failed = c.plan.steps.find((s) => c.step_states[String(s.step_number)] === 'failed');
      if (failed) why = { reason: failedStepReason(failed.step_number, c.step_evidence?.[String(failed.step_number)]), plan_id: c.id, failed_step: failed.step_number };
    }
    break;
  }
  // One file or none and no plan: a line says it; the whole card is for plan runs and wider changes.
  const runFiles = new Set(run.flatMap((c) => (c.kind === 'tool_call' && c.status === 'done' && c.approval?.path ? [c.approval.path] : [])));
  const compact = !steps && runFiles.size <= 1 && commands.length <= 1;
  return {
    kind: 'summary', id, outcome, files, commands,
    ...(steps ? { steps } : {}),
    ...(checks.length ? { checks } : {}),
    ...why,
    ...(compact ? { compact: true } : {}),
    ...(cost !== undefined ? { cost_usd: cost } : {}),
    tokens_in: tokensIn, tokens_out: tokensOut, ts: now,
  };
}
