/**
 * What the Planner gets for a replan: the goal, the steps that ran with what they produced (their
 * check output, why they are not done), the steps that remain, why the run stopped, and the earlier
 * replans of this task. It proposes only the remaining work; the steps that ran are kept before it
 * as they ended (see composeReplan), so a replan never undoes or repeats finished work.
 */
import type { PlanStep, StepEvidence } from '../../protocol';
import type { PlanRecord } from './planRecord';
import type { ReplanCarry } from './planTurn';

export interface Replan {
  carry: ReplanCarry;
  /** The Planner's message (also shown as the user's turn). */
  message: string;
  /** Why the run stopped, one line: kept as the new version's feedback (and so in later replans' history). */
  why: string;
}

const OUTPUT_CHARS = 1500;

/** Builds the replan of `record` (the last executed version), or says why there is nothing to replan. */
export function replanOf(record: PlanRecord, history: readonly PlanRecord[]): Replan | { error: string } {
  const plan = record.plan;
  if (!plan) return { error: `Plan v${record.version} was never valid: revise it instead.` };
  const keep: ReplanCarry['keep'][number][] = [];
  let stoppedAt: PlanStep | undefined;
  for (const s of plan.steps) {
    const state = record.stepStates[String(s.step_number)];
    if (state === 'done' || state === 'unverified') {
      if (stoppedAt) break;
      keep.push({ step: s, state, ...(record.stepEvidence[String(s.step_number)] ? { evidence: record.stepEvidence[String(s.step_number)] } : {}) });
    } else {
      stoppedAt = s;
      break;
    }
  }
  const failed = plan.steps.find((s) => record.stepStates[String(s.step_number)] === 'failed');
  const reviewSaysReplan = Object.values(record.stepReviews ?? {}).some((r) => r.verdict?.verdict === 'replan');
  if (!failed && !reviewSaysReplan && !record.halted) return { error: `Plan v${record.version} has no failed step and no replan verdict: nothing to replan.` };
  const remaining = plan.steps.slice(keep.length);
  const why = failureReason(record, failed);
  const earlier = history.filter((r) => r.replanOf !== undefined && r.provenance.feedback);

  const lines = [
    `Replan: plan v${record.version} stopped. Propose plan v${history.length + 1} for the work that remains.`,
    `Goal: ${plan.goal}`,
    '',
    keep.length ? 'Steps already carried out (they stay as they are; do not repeat them):' : 'No step was completed.',
    ...keep.map((k) => `${k.step.step_number}. [${k.state}] ${k.step.action}${outputOf(k.evidence)}`),
    '',
    'Steps that remained:',
    ...remaining.map((s) => `${s.step_number}. [${record.stepStates[String(s.step_number)] ?? 'pending'}] ${s.action}${s.files.length ? ` (files: ${s.files.join(', ')})` : ''}${s.check ? ` (check: ${s.check})` : ''}${outputOf(record.stepEvidence[String(s.step_number)])}`),
    '',
    `Why it stopped: ${why}`,
  ];
  if (earlier.length) {
    lines.push('', 'Earlier replans of this task:', ...earlier.map((r) => `- v${r.version}: ${firstLine(r.provenance.feedback!)}`));
  }
  lines.push('', `Call propose_plan with only the remaining steps, numbered from 1: they are added after the ${keep.length} step(s) already carried out. Keep the goal unless it must change.`);
  return { carry: { of: record.version, keep }, message: lines.join('\n'), why: `Replan of v${record.version}: ${why}` };
}

function failureReason(record: PlanRecord, failed: PlanStep | undefined): string {
  const parts: string[] = [];
  if (failed) {
    const ev = record.stepEvidence[String(failed.step_number)];
    parts.push(`step ${failed.step_number} failed${ev?.why.length ? `: ${ev.why.join('; ')}` : ''}`);
  }
  for (const [n, r] of Object.entries(record.stepReviews ?? {})) {
    if (r.verdict?.verdict === 'replan') parts.push(`the Reviewer said replan after step ${n}: ${r.verdict.reasons.join('; ')}${r.verdict.concerns.length ? ` (concerns: ${r.verdict.concerns.map((c) => c.text).join('; ')})` : ''}`);
  }
  if (record.halted && !parts.length) parts.push(record.halted);
  return parts.join('. ') || 'unknown';
}

function outputOf(ev: StepEvidence | undefined): string {
  if (!ev) return '';
  const out: string[] = [];
  if (ev.why.length) out.push(`why not done: ${ev.why.join('; ')}`);
  if (ev.check) {
    const o = ev.check.output.length > OUTPUT_CHARS ? `…${ev.check.output.slice(-OUTPUT_CHARS)}` : ev.check.output;
    out.push(`check \`${ev.check.command}\` ${ev.check.exit_code === null ? 'did not finish' : `exited ${ev.check.exit_code}`}${o.trim() ? `, output:\n${indent(o)}` : ''}`);
  }
  return out.length ? `\n   ${out.join('\n   ')}` : '';
}

const indent = (s: string) => s.trimEnd().split('\n').map((l) => `     ${l}`).join('\n');
const firstLine = (s: string) => s.split('\n').find((l) => l.trim())?.slice(0, 300) ?? '';
