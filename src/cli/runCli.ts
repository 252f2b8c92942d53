/**
 * `tandem run`: one turn of the agent on a workspace, headless. Composes the Node host with the
 * approver/asker the flags and the terminal call for, prints events, and maps the outcome to an
 * exit code (0 done, 1 error, 2 usage, 3 waiting on a question or the tool-call limit, 130 Ctrl-C).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TurnOutcome } from '../core/agent/agentApi';
import { approvalFromFlag } from '../core/approvalPolicy';
import { HeadlessAsker, formatQuestion } from '../core/questions/headlessAsker';
import { defaultSettings, DEFAULT_LIMITS, type AgentSettings } from '../core/settings';
import type { HostEvent } from '../protocol';
import { createNodeHost } from '../host/node/nodeHost';
import { streamLogger } from '../host/node/streamLogger';
import { TerminalPrompt } from '../host/node/terminalPrompt';
import { TtyApprover } from '../host/node/ttyApprover';
import { TtyAsker } from '../host/node/ttyAsker';
import { parseArgs, type RunArgs } from './args';
import { TextPrinter } from './textPrinter';
import { visibleControls } from '../protocol/visibleControls';
import { usage } from './usage';
import { PRODUCT_REGISTRIES, type Registries } from '../core/registries';
import { extractHistoryFlags, historyDirFor, runHistoryCommand, withHistoryEnv } from './history';
import { HistoryStore } from '../core/history/historyStore';
import { resumeTask, startTask, type RunningTask, type TaskPorts } from '../core/runtime/runningTask';
import { extractPlanFlags, runPlanCommand, runPlanFile } from './planCommand';

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

export const EXIT = { done: 0, error: 1, usage: 2, waiting: 3, interrupted: 130 } as const;

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

export function settingsFrom(args: RunArgs, env: NodeJS.ProcessEnv, isTty: boolean): AgentSettings {
  const model = args.model ?? env.TANDEM_MODEL ?? 'gpt-4o-mini';
  return defaultSettings({
    baseURL: args.baseURL ?? env.TANDEM_BASE_URL ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: env.TANDEM_API_KEY ?? env.OPENAI_API_KEY ?? '',
    // --model/$TANDEM_MODEL is every role's model (a role without its own uses the first one's).
    models: { [PRODUCT_REGISTRIES.roles.initial.id]: model },
    approval: approvalFromFlag(args.approve, isTty),
    limits: {
      ...DEFAULT_LIMITS,
      maxToolCallsPerTurn: Math.max(1, intEnv(env, 'TANDEM_MAX_TOOL_CALLS', DEFAULT_LIMITS.maxToolCallsPerTurn)),
      requestIdleTimeoutMs: Math.max(1, intEnv(env, 'TANDEM_IDLE_TIMEOUT_MS', DEFAULT_LIMITS.requestIdleTimeoutMs)),
      maxRetries: intEnv(env, 'TANDEM_MAX_RETRIES', DEFAULT_LIMITS.maxRetries),
    },
  });
}

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
export async function runCli(io: CliIo, registries: Registries = PRODUCT_REGISTRIES): Promise<number> {
  const USAGE = usage(registries.roles);
  // `tandem history …`, and `run --resume/--history-dir/--no-history` (src/cli/history.ts).
  if (io.argv[0] === 'history') return runHistoryCommand(io);
  const hist = extractHistoryFlags(io.argv);
  if ('error' in hist) {
    io.stderr(`tandem: ${hist.error}\n\n${USAGE}`);
    return EXIT.usage;
  }
  // `tandem plan … --out FILE` and `run --plan FILE` (src/cli/planCommand.ts) become plain `run` arguments.
  const planMode = extractPlanFlags(hist.argv, registries.roles);
  if ('error' in planMode) {
    io.stderr(`tandem: ${planMode.error}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const parsed = parseArgs(planMode.argv, registries.roles);
  if (parsed.kind === 'help') {
    io.stdout(USAGE);
    return EXIT.done;
  }
  if (parsed.kind === 'error') {
    io.stderr(`tandem: ${parsed.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const args = parsed;
  const ws = path.resolve(io.cwd, args.workspace ?? '.');
  if (!fs.existsSync(ws) || !fs.statSync(ws).isDirectory()) {
    io.stderr(`tandem: --workspace ${args.workspace ?? '.'} is not a folder\n\n${USAGE}`);
    return EXIT.usage;
  }
  const settings = withHistoryEnv(settingsFrom(args, io.env, io.isTty), io.env);
  const level = (io.env.TANDEM_LOG as 'debug' | 'info' | 'warn' | 'error' | 'off' | undefined) ?? 'warn';
  // Everything shown to a person passes through visibleControls: the model's text, commands and
  // paths must not drive the terminal (see protocol/visibleControls.ts). --json stays raw JSON.
  const shownOut = (s: string) => io.stdout(visibleControls(s));
  const shownErr = (s: string) => io.stderr(visibleControls(s));
  const logger = streamLogger(shownErr, ['debug', 'info', 'warn', 'error', 'off'].includes(level) ? level : 'warn', settings.apiKey);

  const promptOut = { write: (s: string) => (shownErr(s), true) } as unknown as NodeJS.WritableStream;
  const terminal = io.isTty ? new TerminalPrompt(io.stdin ?? process.stdin, promptOut) : undefined;
  const headlessAsker = new HeadlessAsker(args.answerDefault ? 'default' : 'none', logger);
  const asker = terminal && !args.answerDefault ? new TtyAsker(terminal, shownErr) : headlessAsker;
  const host = createNodeHost({
    roots: [ws],
    logger,
    asker,
    ...(terminal && settings.approval.mode === 'ask' ? { approver: new TtyApprover(terminal, shownErr) } : {}),
  });

  const printer = new TextPrinter(shownOut, shownErr);
  const emit = args.json ? (e: HostEvent) => io.stdout(`${JSON.stringify(e)}\n`) : (e: HostEvent) => printer.handle(e);
  // A resumed task keeps its role unless --role says otherwise.
  const roleGiven = hist.argv.some((a) => a === '--role' || a.startsWith('--role='));
  let task: RunningTask;
  try {
    const ports: TaskPorts = {
      host,
      settings: () => settings,
      workspace: ws,
      registries,
      ...(hist.noHistory ? {} : { history: new HistoryStore(historyDirFor(ws, io.env, hist.historyDir && path.resolve(io.cwd, hist.historyDir))) }),
    };
    const start = { sink: emit, role: args.role, keepRole: roleGiven };
    task = hist.resume ? await resumeTask(ports, hist.resume, start) : startTask(ports, start);
  } catch (err) {
    io.stderr(`tandem: ${err instanceof Error ? err.message : String(err)}\n`);
    return hist.resume ? EXIT.usage : EXIT.error;
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
    if (planMode.mode === 'plan') ({ outcome, exitCode: exitOverride } = await runPlanCommand(agent, args.prompt, planMode.out, planIo));
    else if (planMode.mode === 'execute') ({ outcome, exitCode: exitOverride } = await runPlanFile(agent, planMode.file, planIo));
    else outcome = await agent.send(args.prompt);
  } finally {
    unregister?.();
    terminal?.close();
    await task.close();
  }
  if (task.recorder && !args.json) io.stderr(`\n[task ${task.id} saved: tandem run --resume ${task.id} "…"]\n`);
  if (outcome === 'waiting' && headlessAsker.unanswered.length) {
    shownErr(`\n${formatQuestion(headlessAsker.unanswered[headlessAsker.unanswered.length - 1]!)}\n`);
  } else if (outcome === 'waiting' || outcome === 'limit') {
    io.stderr(`\ntandem: stopped at the limit of tool calls per turn (set TANDEM_MAX_TOOL_CALLS to allow more).\n`);
  }
  return exitOverride !== undefined && !interrupted ? exitOverride : exitFor(outcome, interrupted);
}
