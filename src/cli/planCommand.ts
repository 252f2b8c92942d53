/**
 * The plan hand-off on the command line:
 *   tandem plan [run flags] "<prompt>" --out FILE.json   the Planner's validated plan, written to FILE
 *   tandem run --role actor --plan FILE.json [flags]     the Actor executes that plan, step by step
 * args.ts parses both (and says which role each allows); `runPlanCommand`/`runPlanFile` do the work
 * once the agent exists.
 */
import * as path from 'node:path';
import type { Agent } from '../core/task/taskAgent';
import type { TurnOutcome } from '../protocol';
import { readPlanFile, writePlanFile } from './planFile';
import type { PlanRecord } from '../core/plans/planRecord';
import { verdictExit } from './reviewCommand';
import type { Amendment } from '../protocol';
import { EXIT } from './commands';
import { carryDoneSteps, lastRunVersion } from '../core/plans/carryDoneSteps';
import { isPlanUsageProblem } from '../core/plans/planLimits';

export interface PlanIo {
  cwd: string;
  stderr: (s: string) => void;
}

/**
 * `tandem plan`: one Planner turn that must end in a plan. Exit code override: 1 when no plan
 * validated (the errors are printed; nothing is written), otherwise the turn's own outcome.
 */
export async function runPlanCommand(agent: Agent, prompt: string, out: string, io: PlanIo, attach: readonly string[] = []): Promise<{ outcome: TurnOutcome; exitCode?: number }> {
  const before = agent.planning.book.latest();
  const outcome = await agent.send(prompt, { requirePlan: true, attach });
  const record = agent.planning.book.latest();
  if (outcome !== 'done') return { outcome };
  if (!record || record === before) {
    io.stderr('tandem: the Planner ended without a plan.\n');
    return { outcome, exitCode: 1 };
  }
  if (!record.plan) {
    io.stderr(`tandem: this plan could not be validated (after ${record.provenance.repairs} repair${record.provenance.repairs === 1 ? '' : 's'}):\n${record.errors.map((e) => `  - ${e}`).join('\n')}\nNothing was written.\n`);
    return { outcome, exitCode: 1 };
  }
  const file = path.resolve(io.cwd, out);
  writePlanFile(file, record);
  io.stderr(`tandem: plan v${record.version} (${record.plan.steps.length} steps) written to ${file}\n`);
  return { outcome };
}

/**
 * `tandem run --role actor --plan FILE.json`: the file's plan is validated like a model's (a plan
 * that fails is never executed: exit 1 with the errors), then executed step by step. In a resumed
 * task (`--resume ID`) it is a new version of the task's plan that continues the last run: the
 * steps that run did (same number, same action, their needs done too) stay done and are not run
 * again, whatever their number; the others run (carryDoneSteps.ts).
 */
export async function runPlanFile(agent: Agent, file: string, io: PlanIo, opts: { onlyStep?: number } = {}): Promise<{ outcome: TurnOutcome; exitCode?: number }> {
  const read = readPlanFile(file, io);
  if (!read) return { outcome: 'error', exitCode: 2 };
  const { abs, raw } = read;
  const previous = lastRunVersion(agent.planning.book.all());
  const record = await agent.planning.importPlan(raw, abs);
  if (!record.plan) {
    io.stderr(`tandem: the plan in ${abs} is not valid, so it was not executed:\n${record.errors.map((e) => `  - ${e}`).join('\n')}\n`);
    // A graph that cannot run (a cycle, an unknown or self reference) or a plan over the size limits is a usage error of the file: exit 2, named above.
    return { outcome: 'error', exitCode: record.errors.some(isPlanUsageProblem) ? EXIT.usage : 1 };
  }
  let fromStep: number | undefined;
  // --step N (a job of its own): every other step counts as run elsewhere; only N runs.
  if (opts.onlyStep !== undefined) {
    const n = opts.onlyStep;
    if (!record.plan.steps.some((s) => s.step_number === n)) {
      io.stderr(`tandem: --step ${n}: the plan in ${abs} has no step ${n}\n`);
      return { outcome: 'error', exitCode: EXIT.usage };
    }
    const elsewhere = { why: [`run by a job of its own (tandem run --step), not here`] };
    agent.planning.book.keepDoneSteps(record.cardId, Object.fromEntries(record.plan.steps.filter((s) => s.step_number !== n).map((s) => [String(s.step_number), elsewhere])));
    fromStep = n;
  } else if (previous) {
    const done = carryDoneSteps(previous, record);
    const kept = Object.keys(done.evidence);
    if (kept.length) {
      agent.planning.book.keepDoneSteps(record.cardId, done.evidence);
      io.stderr(`tandem: plan v${record.version} keeps step${kept.length === 1 ? '' : 's'} ${kept.join(', ')} as done in v${previous.version}${done.next === undefined ? '; every step is done, nothing to run' : `; it continues at step ${done.next}`}\n`);
      if (done.next === undefined) return { outcome: 'done' };
      fromStep = done.next;
    }
  }
  const outcome = await agent.act({ type: 'execute_plan', card_id: record.cardId, ...(fromStep !== undefined ? { from_step: fromStep } : {}) });
  // An amendment added to the plan makes a newer version: the run is judged on the one it ended on.
  const executed = agent.planning.book.get(agent.planning.lastExecutedCardId ?? record.cardId) ?? record;
  // Review before executing (--review plan): a verdict other than ok means nothing ran; say the verdict.
  const ran = Object.values(executed.stepStates).some((s) => s !== 'pending');
  if (!ran && executed.review && outcome === 'done') return { outcome, exitCode: verdictExit(executed, io) };
  if (executed.halted) io.stderr(`tandem: ${executed.halted}\n`);
  return { outcome, ...planRunExit(executed, outcome, io) };
}

/**
 * A message to a resumed plan task (`tandem run --resume ID "Continue"`) works outside the plan, so
 * it cannot finish a step: while the task's last run left a step not done, the run exits 1 (never
 * 0), says which steps and how to continue the plan. A turn that did not end normally keeps its own code.
 */
export function unfinishedPlanExit(agent: Agent, taskId: string, outcome: TurnOutcome, io: PlanIo): number | undefined {
  if (outcome !== 'done') return undefined;
  const run = lastRunVersion(agent.planning.book.all());
  if (!run?.plan) return undefined;
  const notDone = run.plan.steps.filter((s) => run.stepStates[String(s.step_number)] !== 'done');
  if (notDone.length === 0) return undefined;
  const lines = notDone.map((s) => `  step ${s.step_number} ${run.stepStates[String(s.step_number)] ?? 'pending'}: ${s.action.slice(0, 100)}`);
  io.stderr(`tandem: plan v${run.version} of this task is not done (${run.plan.steps.length - notDone.length} of ${run.plan.steps.length} steps done):\n${lines.join('\n')}\n  A message does not carry out plan steps; to continue the plan: tandem run --resume ${taskId} --plan FILE.json (it continues at step ${notDone[0]!.step_number}).\n`);
  return 1;
}

/** What a headless run prints when it stopped on an amendment (exit 3). */
export function formatAmendment(a: Amendment): string {
  const add = [...(a.add.files ?? []).map((f) => `files: ${f}`), ...(a.add.commands ?? []).map((c) => `commands: ${c}`)];
  return [
    `tandem: stopped on an amendment to plan v${a.plan_version}: ${a.text}.`,
    "  Only a person can allow an action outside the step's scope; no --approve flag does.",
    add.length ? `  To allow it, add it to step ${a.step_number} of the plan file (${add.join('; ')}) and run again, or run with a terminal to decide.` : '  Run with a terminal to decide.',
  ].join('\n');
}

/**
 * A plan run succeeds (exit 0) only when every step ended done, with evidence. A run that ended
 * normally with a step unverified — or failed — exits 1 and says which steps and why; a run that
 * stopped or waits keeps its own exit code (130, 3).
 */
function planRunExit(record: PlanRecord, outcome: TurnOutcome, io: PlanIo): { exitCode?: number } {
  if (!record.plan || (outcome !== 'done' && outcome !== 'error')) return {};
  const notDone = record.plan.steps.filter((s) => record.stepStates[String(s.step_number)] !== 'done');
  if (notDone.length === 0) return {};
  const lines = notDone.map((s) => {
    const n = String(s.step_number);
    const why = record.stepEvidence[n]?.why ?? [];
    return `  step ${n} ${record.stepStates[n] ?? 'pending'}${why.length ? `: ${why.join('; ')}` : ''}`;
  });
  io.stderr(`tandem: plan v${record.version} is not done (${record.plan.steps.length - notDone.length} of ${record.plan.steps.length} steps done with evidence):\n${lines.join('\n')}\n`);
  return { exitCode: 1 };
}
