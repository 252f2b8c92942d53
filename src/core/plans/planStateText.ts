import type { PlanCard } from '../../protocol';

/**
 * The plan's standing in words, for what survives condensing: which version is in force (of how
 * many, and what it replans), each step's state with its scope and why it is not done, the
 * Reviewer's verdicts and the step being worked on. Read from the card, as the chat shows it.
 */
export function planStateText(card: PlanCard, versions: number): string {
  const plan = card.plan;
  if (!plan) return `Plan v${card.version} of ${versions} (never validated).`;
  const lines = [`Plan v${card.version} of ${versions}${card.replan_of !== undefined ? `, replanning v${card.replan_of}` : ''}${card.executing ? ', being executed' : ''}.`];
  for (const s of plan.steps) {
    const n = String(s.step_number);
    const state = card.step_states[n] ?? 'pending';
    const scope = [
      s.files.length ? `files ${s.files.join(', ')}` : '',
      s.commands?.length ? `commands ${s.commands.join('; ')}` : '',
      s.check ? `check \`${s.check}\`` : '',
    ].filter(Boolean).join('; ');
    const why = card.step_evidence?.[n]?.why.length ? ` — ${card.step_evidence[n]!.why.join('; ')}` : '';
    const review = card.step_reviews?.[n]?.verdict;
    lines.push(`- step ${n} [${state}]${scope ? ` (${scope})` : ''}${why}${review ? ` — Reviewer: ${review.verdict} (${review.reasons.join(' ')})` : ''}`);
  }
  const current = plan.steps.find((s) => card.step_states[String(s.step_number)] === 'running')
    ?? plan.steps.find((s) => { const st = card.step_states[String(s.step_number)]; return st !== 'done' && st !== 'unverified'; });
  if (current) lines.push(`Current step: ${current.step_number}.`);
  if (card.review?.verdict) lines.push(`Reviewer on v${card.version}: ${card.review.verdict.verdict}${card.review.overridden ? ' (overridden by the user)' : ''} — ${card.review.verdict.reasons.join(' ')}`);
  if (card.halted) lines.push(card.halted);
  return lines.join('\n');
}
