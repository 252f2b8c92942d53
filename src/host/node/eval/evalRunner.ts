/**
 * `tandem eval`'s work: every task × model assignment, `jobs` at a time, each in a fresh copy of
 * its repository with the agent's commands in the sandbox, through the user's own flow
 * (runEvalAgent.ts); then the task's verifier. Each result is written to its own file as soon as
 * the run ends, and a run whose file is already there is not run again: a killed eval resumes
 * where it stopped when started again with the same --out. The report (JSON, Markdown, HTML) is
 * written from those files after every run, so it is never more than one run behind.
 *
 * What the agent never gets: the verifier's command and files, the reference change, the results.
 * Only the prompt goes into the conversation; the copy holds only the repository; the task
 * folders, the results folder and a git task's source repository are hidden from every sandboxed
 * command (an empty folder in their place), and the file tools refuse paths outside the copy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EvalTask } from '../../../core/eval/evalTask';
import { metricsFromCards } from '../../../core/eval/evalMetrics';
import { runEvalAgent, type EvalFlow, type EvalAgentRun } from '../../../core/eval/runEvalAgent';
import { EvalApprover } from '../../../core/eval/evalApprover';
import { EVAL_REPORT_FORMAT, EVAL_RESULT_FORMAT, EvalTaskResult, FAILURE_TEXT, failureHeadline, summarize, type Assignment, type EvalReport, type FailureReason } from '../../../core/eval/evalReport';
import { evalMarkdown, seconds, usd } from '../../../core/eval/evalMarkdown';
import { evalHtml } from '../../../core/eval/evalHtml';
import { HeadlessAsker } from '../headlessAsker';
import type { AgentSettings } from '../../../core/settings/settings';
import type { CommandIsolation, CommandRunner } from '../../../core/ports/ports';
import { PRODUCT_REGISTRIES, type Registries } from '../../../core/registries/registries';
import { createNodeHost } from '../nodeHost';
import { NodeCommandRunner } from '../nodeCommandRunner';
import { streamLogger } from '../streamLogger';
import type { SandboxSettings } from '../sandbox/sandboxedCommand';
import { changedFiles, copyTaskRepository, layVerifierFiles, makeRunFolder } from './taskCopy';
import { git } from './git';
import { EvalProgress } from './evalProgress';
import { ESBUILD_ENV, findTypeScriptCompiler, noCompilerReason, TYPESCRIPT_ENV } from './typeScriptRunner';

export interface EvalRunOptions {
  tasks: readonly EvalTask[];
  assignments: readonly Assignment[];
  flow: EvalFlow;
  jobs: number;
  outDir: string;
  /** The agent's settings before the assignment's models and the task's limits are applied. */
  settings: AgentSettings;
  sandbox: SandboxSettings;
  /** Folders no command may see (task folders, results, source repositories). */
  hidden: readonly string[];
  env: NodeJS.ProcessEnv;
  stderr: (s: string) => void;
  signal: AbortSignal;
  /** Keep each copy after its run (to look at what the agent did). */
  keepCopies?: boolean;
  replans?: number;
  registries?: Registries;
  /** The user's project folders, where a compiler for TypeScript tasks may be installed (see typeScriptRunner.ts). */
  projects?: readonly string[];
  /** The TypeScript package of the editor running the eval, for TypeScript tasks (see typeScriptRunner.ts). */
  editorTypeScript?: string;
}

export interface EvalRunSummary {
  report: EvalReport;
  files: { json: string; markdown: string; html: string };
  interrupted: boolean;
}

const fileName = (s: string) => encodeURIComponent(s).replace(/%2F/g, '__');

export function resultFile(outDir: string, assignment: string, task: string): string {
  return path.join(outDir, 'results', fileName(assignment), `${fileName(task)}.json`);
}

/** A result kept from an earlier run of the same task, assignment and flow (anything else is run again). */
function keptResult(file: string, flow: EvalFlow): EvalTaskResult | undefined {
  try {
    const r = EvalTaskResult.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return r.success && r.data.flow === flow ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export async function runEval(o: EvalRunOptions): Promise<EvalRunSummary> {
  fs.mkdirSync(o.outDir, { recursive: true });
  const runs = o.tasks.flatMap((task) => o.assignments.map((assignment) => ({ task, assignment, file: resultFile(o.outDir, assignment.label, task.id) })));
  const results = new Map<string, EvalTaskResult>();
  for (const r of runs) {
    const kept = keptResult(r.file, o.flow);
    if (kept) results.set(r.file, kept);
  }
  const progress = new EvalProgress(runs.length, { count: results.size, passed: [...results.values()].filter((r) => r.passed).length }, o.stderr);
  const work = makeRunFolder(o.env);
  const files = { json: path.join(o.outDir, 'report.json'), markdown: path.join(o.outDir, 'report.md'), html: path.join(o.outDir, 'report.html') };
  const writeReport = (): EvalReport => {
    const report = buildReport(o, runs.flatMap((r) => results.get(r.file) ?? []));
    fs.writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(files.markdown, evalMarkdown(report));
    fs.writeFileSync(files.html, evalHtml(report));
    return report;
  };
  const queue = runs.filter((r) => !results.has(r.file));
  let next = 0;
  const worker = async () => {
    while (next < queue.length && !o.signal.aborted) {
      const r = queue[next++]!;
      const what = `${r.task.id} (${r.assignment.label})`;
      const copy = path.join(work, `${String(next).padStart(3, '0')}-${fileName(r.task.id)}`.slice(0, 120));
      const result = await runOne(r.task, r.assignment, copy, o);
      if (!o.keepCopies) fs.rmSync(copy, { recursive: true, force: true });
      // A run cut short by Ctrl-C is not a result: the next start runs it again.
      if (!result || o.signal.aborted) continue;
      fs.mkdirSync(path.dirname(r.file), { recursive: true });
      // Whole or not at all: a kill mid-write must not leave half a result that looks kept.
      fs.writeFileSync(`${r.file}.part`, `${JSON.stringify(result, null, 2)}\n`);
      fs.renameSync(`${r.file}.part`, r.file);
      results.set(r.file, result);
      writeReport();
      const why = failureHeadline(result.detail).slice(0, 120);
      const how = result.passed ? 'pass' : `fail (${FAILURE_TEXT[result.reason ?? 'error']}${why ? `: ${why}` : ''})`;
      progress.finished(`${what}: ${how}, ${usd(result.costUsd)}, ${seconds(result.wallMs)}`, result.passed);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.jobs, queue.length)) }, worker));
  } finally {
    if (!o.keepCopies) fs.rmSync(work, { recursive: true, force: true });
  }
  const report = writeReport();
  return { report, files, interrupted: o.signal.aborted };
}

function buildReport(o: EvalRunOptions, results: EvalTaskResult[]): EvalReport {
  let endpoint = o.settings.baseURL;
  try {
    endpoint = new URL(o.settings.baseURL).origin;
  } catch {
    /* shown as given */
  }
  return {
    format: EVAL_REPORT_FORMAT,
    createdAt: new Date().toISOString(),
    flow: o.flow,
    endpoint,
    tasks: o.tasks.map((t) => ({
      id: t.id,
      ...(t.spec.language ? { language: t.spec.language } : {}),
      ...(t.spec.source ? { source: [t.spec.source.project, t.spec.source.commit?.slice(0, 12), t.spec.source.license].filter(Boolean).join(' ') } : {}),
    })),
    assignments: summarize(o.assignments, results),
    results,
  };
}

/** The last lines of a command's output: what says why a check failed. */
const tail = (s: string, lines = 15) => s.trimEnd().split('\n').slice(-lines).join('\n');

async function runOne(task: EvalTask, assignment: Assignment, copy: string, o: EvalRunOptions): Promise<EvalTaskResult | undefined> {
  const started = Date.now();
  const finish = (passed: boolean, reason: FailureReason | undefined, detail: string | undefined, run?: EvalAgentRun, changed: string[] = []): EvalTaskResult => {
    const m = metricsFromCards(run?.cards ?? []);
    return {
      format: EVAL_RESULT_FORMAT,
      task: task.id,
      assignment: assignment.label,
      flow: o.flow,
      passed,
      ...(reason ? { reason } : {}),
      ...(detail ? { detail: detail.slice(0, 4_000) } : {}),
      wallMs: Date.now() - started,
      byRole: m.byRole,
      tokensIn: m.tokensIn,
      tokensOut: m.tokensOut,
      ...(m.costUsd !== undefined ? { costUsd: m.costUsd } : {}),
      modelRequests: m.modelRequests,
      toolCalls: m.toolCalls,
      failedToolCalls: m.failedToolCalls,
      refusedEdits: m.refusedEdits,
      amendments: m.amendments,
      replans: m.replans,
      verdicts: m.verdicts,
      ...(m.steps ? { steps: m.steps } : {}),
      changedFiles: changed,
      finishedAt: new Date().toISOString(),
    };
  };
  try {
    copyTaskRepository(task, copy);
  } catch (e) {
    return finish(false, 'setup_failed', `the copy could not be made: ${(e as Error).message}`);
  }
  const compiler = findTypeScriptCompiler(o.env, o.projects, undefined, o.editorTypeScript);
  if (task.spec.verify.typescript && !compiler) return finish(false, 'setup_failed', noCompilerReason(o.env));
  const logger = streamLogger((line) => o.stderr(`[${task.id}] ${line}`), 'error', o.settings.apiKey);
  const sandboxSettings: SandboxSettings = { ...o.sandbox, hiddenFolders: [...(o.sandbox.hiddenFolders ?? []), ...o.hidden] };
  const host = createNodeHost({
    roots: [copy],
    logger,
    sandbox: sandboxSettings,
    approver: new EvalApprover(),
    asker: new HeadlessAsker('default', logger),
  });
  const sandbox = await host.commands.sandboxStatus?.();
  if (!sandbox?.available) return finish(false, 'setup_failed', `commands cannot be sandboxed here (${sandbox && !sandbox.available ? sandbox.why : 'no sandbox'}); the eval runs nothing outside it`);
  const isolation: CommandIsolation = { roots: [copy], workspace: 'writable', network: false };
  for (const command of task.spec.setup) {
    const r = await host.commands.run(command, { cwd: copy, timeoutMs: 600_000, signal: o.signal, isolation });
    if (o.signal.aborted) return undefined;
    if (r.exitCode !== 0) return finish(false, 'setup_failed', `setup \`${command}\` exited ${r.exitCode ?? (r.timedOut ? 'on timeout' : 'killed')}:\n${tail(r.output)}`);
  }
  // Setup may build or install: the agent starts from what it left, committed.
  if (task.spec.setup.length) copyCommit(copy);
  const limits = task.spec.limits;
  const settings: AgentSettings = {
    ...o.settings,
    models: { ...assignment.models },
    approval: { mode: 'ask', autoApprove: { edit: true, create: true, delete: true, command: true }, planScope: true },
    limits: { ...o.settings.limits, maxToolCallsPerTurn: limits.toolCalls },
    taskBudgetUsd: limits.usd ?? 0,
  };
  let run: EvalAgentRun;
  try {
    run = await runEvalAgent(
      { host, settings: () => settings, workspace: copy, registries: o.registries ?? PRODUCT_REGISTRIES },
      { flow: o.flow, prompt: task.spec.prompt, timeLimitMs: limits.minutes * 60_000, replans: o.replans ?? 1, signal: o.signal },
    );
  } catch (e) {
    return finish(false, 'error', `the agent could not run: ${(e as Error).message}`);
  }
  if (o.signal.aborted) return undefined;
  const changed = changedFiles(copy);
  if (run.rejected && !run.stop) return finish(false, 'plan_rejected', `${run.rejected}; the plan was not executed`, run, changed);
  // The verifier's own runner: the same sandbox, plus what only it is given (the TypeScript compiler).
  const verifier = new NodeCommandRunner({
    sandbox: sandboxSettings,
    env: () => ({ [ESBUILD_ENV]: compiler?.env === ESBUILD_ENV ? compiler.dir : null, [TYPESCRIPT_ENV]: compiler?.env === TYPESCRIPT_ENV ? compiler.dir : null }),
  });
  const verified = await verify(task, copy, verifier, isolation, o.signal);
  if (o.signal.aborted) return undefined;
  if (verified.passed) return finish(true, undefined, undefined, run, changed);
  if (run.stop) {
    const what = run.stop === 'time' ? `the time limit of ${limits.minutes} min` : run.stop === 'budget' ? `the budget of ${usd(limits.usd)}` : `the limit of ${limits.toolCalls} tool calls per turn`;
    return finish(false, 'budget_hit', `stopped at ${what}${changed.length ? `; then the check failed:\n${verified.output}` : ''}`, run, changed);
  }
  if (!changed.length) {
    // An error before any step ran (the endpoint failed) is the reason; a plan that ran and changed nothing is no change.
    const steps = metricsFromCards(run.cards).steps;
    if (run.outcome === 'error' && !run.noPlan && !steps && run.lastError) return finish(false, 'error', run.lastError, run, changed);
    const why = run.noPlan
      ? `the Planner gave no valid plan${run.lastError ? ` (${run.lastError})` : ''}`
      : steps
        ? `the agent changed no file (${steps.done} of ${steps.total} plan steps done)`
        : 'the agent changed no file';
    return finish(false, 'no_change', `${why}; the check ${verified.output ? `failed:\n${verified.output}` : 'failed'}`, run, changed);
  }
  return finish(false, 'check_failed', verified.output, run, changed);
}

function copyCommit(copy: string): void {
  git(copy, ['add', '-A']);
  git(copy, ['commit', '-q', '--no-verify', '-m', 'After the task\'s setup']);
}

async function verify(task: EvalTask, copy: string, commands: CommandRunner, isolation: CommandIsolation, signal: AbortSignal): Promise<{ passed: boolean; output: string }> {
  try {
    layVerifierFiles(task, copy);
  } catch (e) {
    return { passed: false, output: (e as Error).message };
  }
  const r = await commands.run(task.spec.verify.command, { cwd: copy, timeoutMs: task.spec.verify.timeoutSeconds * 1000, signal, isolation });
  const how = r.exitCode === 0 ? 'passed' : r.timedOut ? `timed out after ${task.spec.verify.timeoutSeconds} s` : `exited ${r.exitCode ?? 'killed'}`;
  return { passed: r.exitCode === 0, output: `verifier ${how}:\n${tail(r.output)}` };
}
