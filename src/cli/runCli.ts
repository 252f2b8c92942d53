/**
 * `tandem run`: one turn of the agent on a workspace, headless. Composes the Node host with the
 * approver/asker the flags and the terminal call for, prints events, and maps the outcome to an
 * exit code (0 done, 1 error, 2 usage, 3 waiting on a question, a plan amendment or the tool-call limit, 130 Ctrl-C).
 */
import { describeLeftover } from '../core/planRuns/describeLeftover';
import { NodeStepWorkspaces } from '../host/node/nodeStepWorkspaces';
import { runApplyCommand } from './applyCommand';
import { finishStepJob, prepareStepJob, type StepJob } from './stepJob';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TurnOutcome } from '../protocol';
import { HeadlessAsker, formatQuestion } from '../host/node/headlessAsker';
import type { HostEvent } from '../protocol';
import { createNodeHost } from '../host/node/nodeHost';
import { sandboxSettingsFromEnv } from './sandboxEnv';
import { streamLogger } from '../host/node/streamLogger';
import { TerminalPrompt } from '../host/node/terminalPrompt';
import { TtyApprover } from '../host/node/ttyApprover';
import { TtyAsker } from '../host/node/ttyAsker';
import { parseArgs } from './args';
import { runEvalCommand } from './eval/evalCommand';
import { EXIT } from './commands';
import { settingsFromEnv } from './settingsFromEnv';
import { startCliMcp } from './mcpServers';
import { McpHub } from '../core/mcp/mcpHub';
import { withMcp } from '../core/mcp/withMcp';
import { TextPrinter } from './textPrinter';
import { visibleControls } from '../protocol/visibleControls';
import { factsUsage, historyUsage, usage } from './usage';
import { runFactsCommand } from './factsCommand';
import { cliFactBook } from './cliFacts';
import { PRODUCT_REGISTRIES, type Registries } from '../core/registries/registries';
import { withReadOnlyShell } from '../core/registries/readOnlyShell';
import { historyDirFor, runHistoryCommand } from './history';
import { HistoryStore } from '../core/history/historyStore';
import { resumeTask, startTask, type RunningTask, type TaskPorts } from '../core/runtime/runningTask';
import { runReviewFile } from './reviewCommand';
import { formatAmendment, runPlanCommand, runPlanFile, unfinishedPlanExit } from './planCommand';
import { checkAttachFiles } from './attachFiles';
import { readHookFiles } from './hookFiles';
import { UserHooks } from '../core/userHooks/userHooks';
import { NodeHookProcess } from '../host/node/nodeHookProcess';

export interface CliIo {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTty: boolean;
  cwd: string;
  /** Where terminal answers come from (default process.stdin); prompts go to `stderr`. */
  stdin?: NodeJS.ReadableStream;
  /** Registers a Ctrl-C handler; returns an unregister function. */
  onInterrupt?(handler: () => void): () => void;
}

export { EXIT };

function exitFor(outcome: TurnOutcome, interrupted: boolean): number {
  if (interrupted) return EXIT.interrupted;
  switch (outcome) {
    case 'done':
      return EXIT.done;
    case 'waiting':
    case 'limit':
      return EXIT.waiting;
    case 'stopped':
      return EXIT.interrupted;
    default:
      return EXIT.error;
  }
}

/** `registries`: the roles and tools to run with (the product's; a test may pass a role of its own). */
export async function runCli(io: CliIo, given: Registries = PRODUCT_REGISTRIES): Promise<number> {
  // TANDEM_READONLY_SHELL=1: roles that change nothing (the Planner) may run commands in a read-only sandbox.
  const registries = io.env.TANDEM_READONLY_SHELL === '1' ? withReadOnlyShell(given) : given;
  // `tandem eval` has its own flags and help (cli/eval/evalCommand.ts).
  if (io.argv[0] === 'eval') return runEvalCommand(io, registries);
  const args = parseArgs(io.argv, registries.roles);
  const USAGE = usage(registries.roles);
  if (args.kind === 'help') {
    io.stdout(args.command === 'history' ? historyUsage(registries.roles) : args.command === 'facts' ? factsUsage(registries.roles) : USAGE);
    return EXIT.done;
  }
  if (args.kind === 'error') {
    // Through visibleControls: the message may quote an argument, and arguments come from anywhere.
    io.stderr(visibleControls(`tandem: ${args.message}\n\n${args.command === 'history' ? historyUsage(registries.roles) : args.command === 'facts' ? factsUsage(registries.roles) : USAGE}`));
    return EXIT.usage;
  }
  if (args.kind === 'history') return runHistoryCommand(args, io);
  if (args.kind === 'facts') return runFactsCommand(args, io);
  if (args.kind === 'apply') return runApplyCommand(args, { cwd: io.cwd, stdout: (s) => io.stdout(visibleControls(s)), stderr: (s) => io.stderr(visibleControls(s)) });
  const ws = path.resolve(io.cwd, args.workspace ?? '.');
  if (!fs.existsSync(ws) || !fs.statSync(ws).isDirectory()) {
    io.stderr(`tandem: --workspace ${args.workspace ?? '.'} is not a folder\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { settings, logLevel } = settingsFromEnv(io.env, args, io.isTty, registries.roles);
  // --review plan|steps|all: the Reviewer judges the plan before it runs and/or every executed step.
  if (args.review === 'plan' || args.review === 'all') settings.reviewPlans = true;
  if (args.review === 'steps' || args.review === 'all') settings.reviewSteps = 'every_step';
  if (args.parallel !== undefined) settings.parallelSteps = args.parallel;
  if (args.onFailure !== undefined) settings.onStepFailure = args.onFailure;
  // Everything shown to a person passes through visibleControls: the model's text, commands and
  // paths must not drive the terminal (see protocol/visibleControls.ts). --json stays raw JSON.
  const shownOut = (s: string) => io.stdout(visibleControls(s));
  const shownErr = (s: string) => io.stderr(visibleControls(s));
  const logger = streamLogger(shownErr, logLevel, settings.apiKey);
  // Steps run side by side get copy-on-write views where Linux allows, else worktrees (TANDEM_STEP_WORKSPACES=worktree
  // asks for those); TANDEM_WORKTREES_DIR: where their folders go (default: a private folder in /dev/shm or the temp folder).
  const stepWorkspaces = new NodeStepWorkspaces({ logger, env: io.env, ...(io.env.TANDEM_WORKTREES_DIR ? { dir: io.env.TANDEM_WORKTREES_DIR } : {}) });
  // --step N: the step runs in a workspace of its own (`root`), made once its dependencies' patches are applied.
  let job: StepJob | undefined;
  if (args.step !== undefined) {
    const prepared = await prepareStepJob(fs.realpathSync(ws), args.step, args.applyPatches ?? [], stepWorkspaces, { cwd: io.cwd, stdout: shownOut, stderr: shownErr });
    if ('code' in prepared) return prepared.code;
    job = prepared;
  }
  const root = job?.made.root ?? ws;

  const promptOut = { write: (s: string) => (shownErr(s), true) } as unknown as NodeJS.WritableStream;
  const terminal = io.isTty ? new TerminalPrompt(io.stdin ?? process.stdin, promptOut) : undefined;
  const headlessAsker = new HeadlessAsker(args.answerDefault ? 'default' : 'none', logger);
  const asker = terminal && !args.answerDefault ? new TtyAsker(terminal, shownErr) : headlessAsker;
  const host = createNodeHost({
    roots: [root],
    logger,
    // A step job's commands: the workspace's dependency folders read-only, its secret files hidden (as for a step beside another).
    sandbox: { ...sandboxSettingsFromEnv(io.env), ...(job ? { readOnlyFolders: job.made.readOnlyFolders, hideSecretsIn: [ws] } : {}) },
    asker,
    stepWorkspaces,
    ...(terminal && settings.approval.mode === 'ask' ? { approver: new TtyApprover(terminal, shownErr) } : {}),
  });

  // Said once per run: blanket approval does not reach commands when they cannot be sandboxed.
  if (settings.approval.autoApprove.command || settings.approval.planScope) {
    const sandbox = await host.commands.sandboxStatus?.();
    if (sandbox && !sandbox.available) shownErr(`tandem: no sandbox for commands (${sandbox.why}); --approve ${settings.approval.planScope ? 'plan' : 'all'} does not cover them, so each command needs a person's approval\n`);
  }

  settings.mcpAllowedTools = args.allowTools ?? [];
  let mcp: McpHub | undefined;
  if (args.mcpConfig?.length) {
    const started = await startCliMcp(args.mcpConfig, { cwd: io.cwd, workspace: root, env: io.env, logger, say: shownErr });
    if (!(started instanceof McpHub)) {
      io.stderr(`tandem: ${started.error}\n\n${USAGE}`);
      return EXIT.usage;
    }
    mcp = started;
  }
  const withServers = mcp ? withMcp(registries, mcp) : registries;
  // --attach names files by the current folder; each must be a readable file inside the workspace (after symlinks) and not ignored.
  const attach = await checkAttachFiles(host, root, args.attach.map((f) => path.resolve(io.cwd, f)));
  if ('error' in attach) {
    shownErr(`tandem: ${attach.error}\n`);
    return EXIT.usage;
  }

  // --hooks: exactly the files named, never a repository's own unnamed.
  const hookCommands = args.hooks?.length ? readHookFiles(args.hooks, io.cwd, shownErr) : [];
  if ('error' in hookCommands) {
    shownErr(`tandem: ${hookCommands.error}\n\n${USAGE}`);
    await mcp?.dispose();
    return EXIT.usage;
  }
  const userHooks = hookCommands.length ? new UserHooks({ commands: hookCommands, process: new NodeHookProcess(io.env), cwd: root, logger }) : undefined;

  // Step worktrees a crashed or killed run left behind (a live run's are kept) go on the next start, whatever it runs;
  // the changes a step had made there, never applied, are kept as a patch next to the history, and the user is told where.
  const keepIn = path.join(historyDirFor(ws, io.env, args.historyDir && path.resolve(io.cwd, args.historyDir)), 'interrupted-steps');
  for (const l of (await host.stepWorkspaces?.sweep(ws, keepIn)) ?? []) shownErr(`tandem: ${describeLeftover(l)}\n`);

  const printer = new TextPrinter(shownOut, shownErr);
  const emit = args.json ? (e: HostEvent) => io.stdout(`${JSON.stringify(e)}\n`) : (e: HostEvent) => printer.handle(e);
  // A resumed task keeps its role unless --role says otherwise.
  let task: RunningTask;
  // The workspace's facts, beside its history (--no-facts: none sent, none learned; --no-history: sent, none learned).
  const factBook = args.noFacts ? undefined : cliFactBook({ workspace: root, historyDir: historyDirFor(ws, io.env, args.historyDir && path.resolve(io.cwd, args.historyDir)), fs: host.fs, env: io.env, secret: settings.apiKey, learning: !args.noHistory });
  const factsBefore = factBook?.facts('workspace').length ?? 0;
  try {
    const ports: TaskPorts = {
      host,
      settings: () => settings,
      workspace: root,
      registries: withServers,
      ...(userHooks ? { userHooks: () => userHooks } : {}),
      ...(factBook ? { facts: factBook } : {}),
      ...(args.noHistory ? {} : { history: new HistoryStore(historyDirFor(ws, io.env, args.historyDir && path.resolve(io.cwd, args.historyDir))) }),
    };
    const start = { sink: emit, role: args.role, keepRole: args.roleGiven };
    task = args.resume ? await resumeTask(ports, args.resume, start) : startTask(ports, start);
  } catch (err) {
    io.stderr(`tandem: ${err instanceof Error ? err.message : String(err)}\n`);
    await mcp?.dispose();
    return args.resume ? EXIT.usage : EXIT.error;
  }
  const agent = task.agent;

  let interrupted = false;
  const unregister = io.onInterrupt?.(() => {
    interrupted = true;
    agent.stop();
  });
  let outcome: TurnOutcome;
  let exitOverride: number | undefined;
  try {
    const planIo = { ...io, stderr: shownErr };
    if (args.mode === 'plan') ({ outcome, exitCode: exitOverride } = await runPlanCommand(agent, args.prompt, args.out!, planIo, attach.files));
    else if (args.mode === 'execute') ({ outcome, exitCode: exitOverride } = await runPlanFile(agent, args.planFile!, planIo, job ? { onlyStep: job.step } : {}));
    else if (args.mode === 'review') ({ outcome, exitCode: exitOverride } = await runReviewFile(agent, args.planFile!, planIo));
    else {
      outcome = await agent.send(args.prompt, { attach: attach.files });
      // A resumed plan task never exits 0 while a step of its plan is not done.
      if (args.resume) exitOverride = unfinishedPlanExit(agent, task.id, outcome, planIo);
    }
  } finally {
    unregister?.();
    terminal?.close();
    await task.close();
    // The servers' processes end with the run.
    await mcp?.dispose();
  }
  if (job) {
    const executed = agent.planning.book.get(agent.planning.lastExecutedCardId ?? '') ?? agent.planning.book.latest();
    const code = await finishStepJob(job, executed, args.emitPatch!, { cwd: io.cwd, stdout: shownOut, stderr: shownErr });
    if (code !== undefined) exitOverride = code;
  }
  // This run's learning took the facts past the maximum: consolidating is offered, once (the editor's notification).
  const factsAfter = factBook?.facts('workspace').length ?? 0;
  if (factBook && factsAfter > factsBefore && factsAfter > factBook.settings.max) {
    io.stderr(`» ${factsAfter} facts about this workspace, past TANDEM_FACTS_MAX (${factBook.settings.max}): tandem facts consolidate proposes merging and dropping some (nothing changes without --apply).\n`);
  }
  if (task.recorder && !args.json) io.stderr(`\n[task ${task.id} saved: tandem run --resume ${task.id} "…"]\n`);
  const amendment = outcome === 'waiting' ? agent.planning.refusedAmendment : undefined;
  if (amendment) {
    shownErr(`\n${formatAmendment(amendment)}\n`);
  } else if (outcome === 'waiting' && headlessAsker.unanswered.length) {
    shownErr(`\n${formatQuestion(headlessAsker.unanswered[headlessAsker.unanswered.length - 1]!)}\n`);
  } else if (outcome === 'waiting' || outcome === 'limit') {
    io.stderr(`\ntandem: stopped at the limit of tool calls per turn (set TANDEM_MAX_TOOL_CALLS to allow more).\n`);
  }
  return exitOverride !== undefined && !interrupted ? exitOverride : exitFor(outcome, interrupted);
}
