import type { Plan } from '../../protocol';

/**
 * What must survive condensing word for word, whatever the summary model writes: the plan in
 * force, every file the agent changed, the questions asked (answered or open) and the user's
 * decisions. Gathered from the task's cards and checkpoints, not from the model's prose.
 */
export interface TaskFacts {
  plan?: Plan;
  /** The plan as text when it never validated. */
  planText?: string;
  /** The plan's standing (version, step states and scopes, verdicts, current step), see planStateText. */
  planState?: string;
  touchedFiles: { path: string; change: 'modified' | 'created' | 'deleted' }[];
  /** Files the agent only read (from tool calls in the condensed turns). */
  readFiles?: string[];
  questions: { question: string; answer?: string; status: 'waiting' | 'answered' | 'cancelled' }[];
  decisions: string[];
}

export const emptyFacts = (): TaskFacts => ({ touchedFiles: [], questions: [], decisions: [] });

export const SUMMARY_MARKER = '[Context summary]';

function renderPlan(plan: Plan): string {
  const lines = [`Goal: ${plan.goal}`];
  for (const s of plan.steps) {
    lines.push(`${s.step_number}. ${s.action}${s.files.length ? ` (files: ${s.files.join(', ')})` : ''}`);
  }
  if (plan.risks.length) lines.push(`Risks: ${plan.risks.join('; ')}`);
  if (plan.prerequisites.length) lines.push(`Prerequisites: ${plan.prerequisites.join('; ')}`);
  return lines.join('\n');
}

/** The one message that replaces the condensed turns: structured facts first, then the model's summary. */
export function renderSummaryMessage(facts: TaskFacts, turns: number, summary: string): string {
  const out: string[] = [
    `${SUMMARY_MARKER} The ${turns} earliest turn${turns === 1 ? '' : 's'} of this task were condensed to fit the model's context window. The facts below are exact; the summary after them is prose.`,
  ];
  if (facts.plan) out.push(`## Plan in force\n${renderPlan(facts.plan)}`);
  else if (facts.planText) out.push(`## Plan (unvalidated text)\n${facts.planText}`);
  if (facts.planState) out.push(`## Plan state\n${facts.planState}`);
  out.push(
    `## Files changed so far\n${facts.touchedFiles.length ? facts.touchedFiles.map((f) => `- ${f.path} (${f.change})`).join('\n') : '- none'}`,
  );
  if (facts.readFiles?.length) out.push(`## Files read in the condensed turns\n${facts.readFiles.map((f) => `- ${f}`).join('\n')}`);
  const answered = facts.questions.filter((q) => q.status === 'answered');
  const open = facts.questions.filter((q) => q.status === 'waiting');
  if (answered.length) out.push(`## Questions answered\n${answered.map((q) => `- Q: ${q.question}\n  A: ${q.answer ?? ''}`).join('\n')}`);
  out.push(`## Open questions\n${open.length ? open.map((q) => `- ${q.question}`).join('\n') : '- none'}`);
  if (facts.decisions.length) out.push(`## Decisions\n${facts.decisions.map((d) => `- ${d}`).join('\n')}`);
  out.push(`## Summary of the condensed turns\n${summary.trim() || '(the summary model returned nothing)'}`);
  return out.join('\n\n');
}
