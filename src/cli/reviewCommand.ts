/**
 * `tandem review --plan FILE.json`: the Reviewer's verdict on a plan file. The file is checked like
 * any plan (an invalid one is not reviewed), then judged. Exit 0 when the verdict is ok; 1 when it is
 * not (revise) or no valid verdict came — the verdict, its reasons and concerns are printed either way.
 */
import type { Agent } from '../core/task/taskAgent';
import type { TurnOutcome } from '../protocol';
import type { PlanRecord } from '../core/plans/planRecord';
import { readPlanFile } from './planFile';

export interface ReviewIo {
  cwd: string;
  stderr: (s: string) => void;
}

export async function runReviewFile(agent: Agent, file: string, io: ReviewIo): Promise<{ outcome: TurnOutcome; exitCode?: number }> {
  const read = readPlanFile(file, io);
  if (!read) return { outcome: 'error', exitCode: 2 };
  const { abs, raw } = read;
  const record = await agent.planning.importPlan(raw, abs);
  if (!record.plan) {
    io.stderr(`tandem: the plan in ${abs} is not valid, so it was not reviewed:\n${record.errors.map((e) => `  - ${e}`).join('\n')}\n`);
    return { outcome: 'error', exitCode: 1 };
  }
  const outcome = await agent.act({ type: 'review_plan', card_id: record.cardId });
  if (outcome !== 'done') return { outcome };
  return { outcome, exitCode: verdictExit(record, io) };
}

/** 0 when the plan's verdict is ok; otherwise 1, with the verdict said on stderr. */
export function verdictExit(record: PlanRecord, io: ReviewIo): number {
  const review = record.review;
  if (review?.verdict?.verdict === 'ok') return 0;
  if (!review) {
    io.stderr(`tandem: plan v${record.version} was not reviewed.\n`);
    return 1;
  }
  if (!review.verdict) {
    io.stderr(`tandem: no valid verdict on plan v${record.version}: ${review.error ?? 'unknown'}\n`);
    return 1;
  }
  const concerns = review.verdict.concerns.map((c) => `  - ${c.step != null ? `step ${c.step}: ` : ''}${c.text}${c.file ? ` (${c.file}${c.line ? `:${c.line}` : ''})` : ''}`);
  io.stderr(`tandem: the Reviewer says ${review.verdict.verdict} on plan v${record.version}: ${review.verdict.reasons.join(' ')}\n${concerns.join('\n')}${concerns.length ? '\n' : ''}`);
  return 1;
}
