/**
 * What the Reviewer is shown. Each role gets only the context it needs: for a plan, the plan; for
 * an executed step, the goal, that step with its scope, its diff, its check's output and how it
 * ended — never the chat, so it judges the result and not the Actor's account of it.
 */
import type { Plan, PlanStep, ReviewVerdict, StepEvidence, StepState } from '../../protocol';

export function planReviewBrief(plan: Plan, version: number): string {
  return [
    `Review plan v${version} before it is executed. Is it complete, correct, safe and checkable? Does each step stay within its declared files and commands, and has each a check that would prove it worked?`,
    'Verdict: ok, or revise (say what to change, as concerns on the steps). Do not answer replan: nothing has run yet.',
    '',
    'The plan (JSON):',
    JSON.stringify(plan),
  ].join('\n');
}

export interface StepFactsForReview {
  goal: string;
  step: PlanStep;
  total: number;
  state: StepState;
  evidence?: StepEvidence;
  /** Unified diff of what the step changed (capped); empty when it changed nothing. */
  diff: string;
}

export function stepReviewBrief(f: StepFactsForReview): string {
  const s = f.step;
  const scope = [
    `files: ${s.files.length ? s.files.join(', ') : '(none declared)'}`,
    `commands: ${s.commands?.length ? s.commands.join('; ') : '(none declared)'}`,
    `check: ${s.check?.trim() || '(none declared)'}`,
  ];
  const check = f.evidence?.check;
  return [
    `Review step ${s.step_number} of ${f.total}, which was just executed. Goal of the plan: ${f.goal}`,
    'Verdict: ok (the step did what it should; the plan can go on) or replan (the result shows the remaining plan will not work as written). Do not answer revise.',
    '',
    `Step ${s.step_number}: ${s.action}`,
    ...(s.reason ? [`Why: ${s.reason}`] : []),
    `Scope: ${scope.join(' | ')}`,
    `It ended: ${f.state}${f.evidence?.why.length ? ` (${f.evidence.why.join('; ')})` : ''}`,
    check ? `Check \`${check.command}\` ${check.exit_code === null ? 'did not finish' : `exited ${check.exit_code}`}. Output:\n${check.output || '(no output)'}` : 'No check ran.',
    '',
    f.diff ? `Diff of the step:\n${f.diff}` : 'The step changed no files.',
  ].join('\n');
}

/** The verdict must fit what was asked: a plan review never says replan, a step review never revise; concerns name real steps. */
export function verdictChecks(kind: 'plan' | 'step', stepCount: number, commands: readonly string[] = []): (v: ReviewVerdict) => string[] {
  return (v) => {
    const errors: string[] = [];
    // A learned fact must cite its evidence: a file and its lines, or a command whose output was shown here.
    const l = v.learn;
    if (l) {
      if (l.file && l.command) errors.push('learn: cite a file with its lines, or the check command, not both');
      else if (l.file) {
        if (l.start_line == null) errors.push('learn: give start_line (and end_line) of the lines in learn.file that show the fact');
        else if (l.end_line != null && l.end_line < l.start_line) errors.push('learn: end_line is before start_line');
      } else if (l.command) {
        if (!commands.includes(l.command.trim())) errors.push(commands.length ? `learn: command must be the check whose output you were shown (${commands.map((c) => `\`${c}\``).join(', ')})` : 'learn: no command output was shown in this review; cite a file and its lines');
      } else errors.push('learn: a fact needs a citation: file with start_line and end_line, or the check command');
    }
    if (kind === 'plan' && v.verdict === 'replan') errors.push('verdict: a plan that has not run cannot need a replan; answer ok or revise');
    if (kind === 'step' && v.verdict === 'revise') errors.push('verdict: after a step ran the answer is ok or replan');
    for (const c of v.concerns) {
      if (c.step != null && c.step > stepCount) errors.push(`concerns: step ${c.step} does not exist (the plan has ${stepCount} steps)`);
    }
    return errors;
  };
}
