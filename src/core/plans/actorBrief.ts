import type { Plan } from '../../protocol';

/**
 * The Actor's brief: the approved plan as the user message that starts the run. The Actor never
 * saw the Planner's exploration, so everything it needs must be here (the Planner's prompt asks
 * for self-contained steps for this reason).
 */
export function actorBrief(plan: Plan, version: number, from = 1, carried: readonly number[] = []): string {
  const lines = [
    `Carry out approved plan v${version}. Goal: ${plan.goal}`,
  ];
  const kept = [...carried].sort((a, b) => a - b);
  // The usual case (a chain continued at k) reads as a range; a branching plan's kept steps are listed.
  const leading = kept.length > 0 && kept.every((n, i) => n === i + 1) && kept.length === from - 1;
  if (kept.length) lines.push(`${leading ? `Steps 1 to ${from - 1}` : `Step${kept.length === 1 ? '' : 's'} ${kept.join(', ')}`} ${kept.length === 1 && !leading ? 'was' : 'were'} carried out already; continue from step ${from}.`);
  if (plan.prerequisites.length) lines.push(`Prerequisites: ${plan.prerequisites.join('; ')}`);
  if (plan.risks.length) lines.push(`Risks to watch: ${plan.risks.join('; ')}`);
  lines.push('Steps:');
  for (const s of plan.steps) lines.push(stepLine(s));
  lines.push("Stay within each step's scope (its files and commands): anything else is an amendment the user must allow.");
  return lines.join('\n');
}

/** One step with its scope: what it may change and run, and the check that will judge it. */
function stepLine(s: Plan['steps'][number]): string {
  const files = ` Files: ${s.files.length ? s.files.join(', ') : 'none'}.`;
  const commands = ` Commands: ${s.commands?.length ? s.commands.join(' | ') : 'none'}.`;
  const check = s.check?.trim() ? ` Check (run after the step; exit 0 = done): ${s.check.trim()}.` : '';
  const tools = s.tools_needed.length ? ` Tools: ${s.tools_needed.join(', ')}.` : '';
  return `${s.step_number}. ${s.action}${s.reason ? ` (why: ${s.reason})` : ''}${files}${commands}${check}${tools}`;
}

/** The message the loop sends to start one step while executing a plan step by step. */
export function stepInstruction(plan: Plan, stepNumber: number): string {
  const s = plan.steps[stepNumber - 1];
  return `Do step ${stepNumber} of ${plan.steps.length} now, and only this step: ${stepLine(s).replace(/^\d+\. /, '')}\n` +
    'When it is done, reply with a one-line summary. If it cannot be done, call fail_step with the reason.';
}

/** The Actor's first message: which plan it is executing. */
export function executionAnnouncement(plan: Plan, version: number, from = 1): string {
  if (from > 1) return `Continuing plan v${version} from step ${from} of ${plan.steps.length}: ${plan.goal}.`;
  return `Executing plan v${version}: ${plan.goal} (${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}).`;
}

/**
 * The whole first message of a step run beside others, by an Actor of its own: the goal and its
 * step only (the seeds' worker sees the task detail, not the conversation). The other steps are
 * not shown: they are someone else's, and naming them invites doing them.
 */
export function branchBrief(plan: Plan, version: number, stepNumber: number): string {
  const lines = [`You carry out one step of approved plan v${version}. Goal: ${plan.goal}`];
  if (plan.prerequisites.length) lines.push(`Prerequisites: ${plan.prerequisites.join('; ')}`);
  if (plan.risks.length) lines.push(`Risks to watch: ${plan.risks.join('; ')}`);
  lines.push("Other steps run beside yours. Stay within your step's scope (its files and commands): anything else is an amendment the user must allow.");
  lines.push(stepInstruction(plan, stepNumber));
  return lines.join('\n');
}
