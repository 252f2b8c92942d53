/**
 * `tandem eval`: measure the user's own models, role by role, on real tasks (evalRunner.ts), and
 * `tandem eval compare A.json B.json`: what changed between two reports, task by task.
 * Its own flags (parsed here with node:util, strict); the endpoint and key come from the same
 * environment as `tandem run` (settingsFromEnv.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PRODUCT_REGISTRIES, type Registries } from '../../core/registries/registries';
import { assignmentLabel, parseEvalReport, type Assignment } from '../../core/eval/evalReport';
import { compareReports } from '../../core/eval/evalCompare';
import { EVAL_FLOWS, type EvalFlow } from '../../core/eval/runEvalAgent';
import { percent, usd } from '../../core/eval/evalMarkdown';
import type { EvalTask } from '../../core/eval/evalTask';
import { settingsFromEnv } from '../settingsFromEnv';
import { sandboxSettingsFromEnv } from '../sandboxEnv';
import { loadSuite } from '../../host/node/eval/evalTasks';
import { builtinSuite, PACKED_SUITE } from '../../host/node/eval/builtinSuite';
import { dataHome } from '../../core/history/storageDir';
import { buildGitTasks } from '../../host/node/eval/fromGit';
import { gitSourceOf } from '../../host/node/eval/taskCopy';
import { runEval } from '../../host/node/eval/evalRunner';

export interface EvalIo {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout(s: string): void;
  stderr(s: string): void;
  onInterrupt?(handler: () => void): () => void;
}

export const EVAL_USAGE = `Usage: tandem eval [options]                     run the built-in suite (or --suite DIR) and write a report
       tandem eval --from-git N [options]          tasks from the last N commits that change code and tests
       tandem eval compare A.json B.json           what changed between two reports, task by task

Each task runs in a fresh copy of its repository, with every command in the sandbox, through the
flow a user gets (a plan the Reviewer passes is approved automatically), then its verifier (exit 0
= passed). The verifier and the reference change never reach the agent.

Options:
  --suite DIR               a folder of task folders (each with task.json; default: the built-in suite)
  --tasks GLOB              only tasks whose id matches (repeatable; * ** ?), e.g. --tasks 'js/*'
  --from-git N              make N tasks from this repository's history instead of a suite
  --repo DIR                with --from-git: the repository (default: the current directory)
  --test-command CMD        with --from-git: the command that runs the tests
                            (default: npm test when package.json has a test script, make test)
  --flow plan|act           plan: Planner, Reviewer, then the Actor step by step (default);
                            act: the Actor alone
  --models ROLE=M,ROLE=M    a model assignment, e.g. planner=gpt-4o,actor=qwen2.5-coder;
                            repeat to compare assignments (roles not named use the first model)
  --jobs N                  run N tasks at a time (default 1)
  --out DIR                 where results and the report go (default ./tandem-eval);
                            run again with the same --out to resume after a kill
  --replans N               replans after a failed step, and revisions after the Reviewer
                            objects to a plan (plan flow; default 1); a plan it still objects
                            to is not executed (the task fails: plan rejected)
  --base-url URL            the endpoint (default $TANDEM_BASE_URL)
  --keep                    keep each task's copy (under $TANDEM_EVAL_WORK_DIR or the temp folder)
  -h, --help                show this help

Report: DIR/report.json (format tandem-eval-report/1), report.md, report.html; one file per
result under DIR/results/. Progress and an estimate of the time left go to stderr.

TypeScript tasks compile with Tandem's own esbuild, else an esbuild or typescript package of the
current folder's project, or the package folder $TANDEM_EVAL_ESBUILD or $TANDEM_EVAL_TYPESCRIPT names.
The built-in suite of an install is unpacked into the data folder ($TANDEM_DATA_DIR) on first use.

Exit codes: 0 the eval ran (whatever passed), 1 an error, 2 bad usage, 130 Ctrl-C (results kept);
compare: 0, or 1 when a task that passed in A fails in B.
`;

/** `planner=a,actor=b` → every role's model (roles not named: the first model named). */
export function parseAssignment(text: string, registries: Registries): Assignment | string {
  const models: Record<string, string> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1) return `--models takes ROLE=MODEL pairs separated by commas (got "${part}")`;
    const role = part.slice(0, eq).trim();
    if (!registries.roles.has(role)) return `--models: unknown role "${role}" (roles: ${registries.roles.ids.join(', ')})`;
    models[role] = part.slice(eq + 1).trim();
  }
  const first = Object.values(models)[0];
  if (!first) return '--models needs at least one ROLE=MODEL';
  const all: Record<string, string> = {};
  for (const id of registries.roles.ids) all[id] = models[id] ?? first;
  return { label: assignmentLabel(all), models: all };
}

export async function runEvalCommand(io: EvalIo, registries: Registries = PRODUCT_REGISTRIES): Promise<number> {
  const argv = io.argv.slice(1);
  if (argv[0] === 'compare') return compare(argv.slice(1), io);
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        suite: { type: 'string' }, tasks: { type: 'string', multiple: true }, 'from-git': { type: 'string' }, repo: { type: 'string' },
        'test-command': { type: 'string' }, flow: { type: 'string' }, models: { type: 'string', multiple: true }, jobs: { type: 'string' },
        out: { type: 'string' }, replans: { type: 'string' }, 'base-url': { type: 'string' }, keep: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return usageError(io, (e as Error).message.split('\n')[0]!);
  }
  if (values.help) {
    io.stdout(EVAL_USAGE);
    return 0;
  }
  const flow = (values.flow as string | undefined) ?? 'plan';
  if (!(EVAL_FLOWS as readonly string[]).includes(flow)) return usageError(io, `--flow must be plan or act (got "${flow}")`);
  const jobs = Number(values.jobs ?? '1');
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 32) return usageError(io, `--jobs needs a whole number from 1 to 32 (got "${values.jobs}")`);
  const replans = Number(values.replans ?? '1');
  if (!Number.isInteger(replans) || replans < 0 || replans > 5) return usageError(io, `--replans needs a whole number from 0 to 5 (got "${values.replans}")`);
  const fromGit = values['from-git'] as string | undefined;
  if (fromGit !== undefined && !/^[1-9][0-9]{0,2}$/.test(fromGit)) return usageError(io, `--from-git needs a number of commits from 1 to 999 (got "${fromGit}")`);
  if (fromGit !== undefined && values.suite) return usageError(io, '--from-git and --suite cannot be combined (the tasks come from one or the other)');
  if (fromGit === undefined && (values.repo || values['test-command'])) return usageError(io, '--repo and --test-command go with --from-git N');

  const { settings } = settingsFromEnv(io.env, { baseURL: values['base-url'] as string | undefined }, false, registries.roles);
  const assignments: Assignment[] = [];
  for (const text of (values.models as string[] | undefined) ?? [`${registries.roles.initial.id}=${settings.models[registries.roles.initial.id]}`]) {
    const a = parseAssignment(text, registries);
    if (typeof a === 'string') return usageError(io, a);
    if (assignments.some((b) => b.label === a.label)) return usageError(io, `--models ${text} is given twice`);
    assignments.push(a);
  }

  const outDir = path.resolve(io.cwd, (values.out as string | undefined) ?? 'tandem-eval');
  let tasks: EvalTask[];
  const hidden = [outDir];
  if (fromGit !== undefined) {
    const repo = path.resolve(io.cwd, (values.repo as string | undefined) ?? '.');
    try {
      tasks = buildGitTasks(repo, Number(fromGit), path.join(outDir, 'from-git'), values['test-command'] as string | undefined);
    } catch (e) {
      io.stderr(`tandem eval: ${(e as Error).message}\n`);
      return 1;
    }
    io.stderr(`tandem eval: ${tasks.length} task${tasks.length === 1 ? '' : 's'} from ${repo}'s history${tasks.length < Number(fromGit) ? ` (asked for ${fromGit}: no more commits change both code and tests)` : ''}\n`);
  } else {
    let suite: string | undefined;
    try {
      // The built-in one: a checkout's eval-suite/, else the pack beside the bundle, unpacked into the data folder.
      suite = values.suite ? path.resolve(io.cwd, values.suite as string) : builtinSuite(__dirname, dataHome(io.env));
    } catch (e) {
      io.stderr(`tandem eval: ${(e as Error).message}\n`);
      return 1;
    }
    if (!suite) return usageError(io, 'this install of Tandem has no built-in suite: name one with --suite DIR');
    const loaded = loadSuite(suite, (values.tasks as string[] | undefined) ?? []);
    if ('error' in loaded) return usageError(io, loaded.error);
    tasks = loaded;
    hidden.push(suite);
    if (!values.suite) hidden.push(path.join(__dirname, path.dirname(PACKED_SUITE)));
  }
  for (const t of tasks) {
    hidden.push(t.dir);
    const source = gitSourceOf(t);
    if (source) hidden.push(source);
  }

  const abort = new AbortController();
  const unregister = io.onInterrupt?.(() => {
    io.stderr('\ntandem eval: stopping; finished results are kept (run again with the same --out to resume)\n');
    abort.abort();
  });
  io.stderr(`tandem eval: ${tasks.length} task${tasks.length === 1 ? '' : 's'} × ${assignments.length} assignment${assignments.length === 1 ? '' : 's'}, flow ${flow}, ${jobs} at a time → ${outDir}\n`);
  try {
    const r = await runEval({
      tasks, assignments, flow: flow as EvalFlow, jobs, outDir, settings, sandbox: sandboxSettingsFromEnv(io.env), hidden,
      env: io.env, stderr: io.stderr, signal: abort.signal, keepCopies: values.keep === true, replans, registries, projects: [io.cwd],
    });
    for (const a of r.report.assignments) io.stdout(`${a.assignment}: ${a.passed}/${a.tasks} passed (${percent(a.passRate)}), cost ${usd(a.costUsd)}, tokens ${a.tokensIn} in / ${a.tokensOut} out\n`);
    io.stdout(`report: ${r.files.html}\n        ${r.files.markdown}\n        ${r.files.json}\n`);
    return r.interrupted ? 130 : 0;
  } catch (e) {
    io.stderr(`tandem eval: ${(e as Error).message}\n`);
    return 1;
  } finally {
    unregister?.();
  }
}

function usageError(io: EvalIo, message: string): number {
  io.stderr(`tandem eval: ${message}\n\n${EVAL_USAGE}`);
  return 2;
}

function compare(args: readonly string[], io: EvalIo): number {
  if (args.length !== 2) return usageError(io, 'compare needs two report files: tandem eval compare A.json B.json');
  const reports = [];
  for (const f of args) {
    const file = path.resolve(io.cwd, f);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      io.stderr(`tandem eval compare: cannot read ${file}: ${(e as Error).message}\n`);
      return 2;
    }
    const r = parseEvalReport(text);
    if ('error' in r) {
      io.stderr(`tandem eval compare: ${file} is not an eval report: ${r.error}\n`);
      return 2;
    }
    reports.push(r.report);
  }
  const c = compareReports(reports[0]!, reports[1]!);
  io.stdout(`${c.lines.join('\n')}\n`);
  return c.regressions ? 1 : 0;
}
