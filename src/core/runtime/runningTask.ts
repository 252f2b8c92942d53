/**
 * One task runtime for every host. A host (the VS Code extension, the CLI, a test) gives its ports
 * and a sink for events; the runtime starts a new task or resumes a saved one and returns the
 * agent wired to the parts around it:
 *
 *   history      the recorder, fed every event (`onEvent`), when the host keeps history
 *   checkpoints  pre-images (`beforeChange`), post-images (`onToolCallSettled`), revert, notes to the model (`onTurnEnded`)
 *   budget       spending (`onUsage`), the stop-and-ask before a request
 *   context      fitting each request to the window (`fitContext`), condensing
 *
 *   const task = startTask({ host, settings: () => s, history }, { sink });   // or await resumeTask(ports, id, { sink })
 *   await task.agent.send('…');
 *   await task.close();
 *
 * `TaskRuntime` (taskRuntime.ts) keeps one current task for a host that starts new tasks and
 * resumes old ones while it runs, and routes the chat's task messages to it.
 */
import type { Card, HostEvent, RoleId } from '../../protocol';
import type { HostPorts } from '../ports/ports';
import type { AgentSettings } from '../settings/settings';
import { PRODUCT_REGISTRIES, type Registries } from '../registries/registries';
import type { Agent } from '../task/taskAgent';
import { wireAgent } from './wireAgent';
import type { AgentHooks } from '../turn/turnHooks';
import type { ResumeState } from '../task/agentApi';
import { DEFAULT_CHECKPOINT_LIMITS, type CheckpointLimits, type RevertResult } from '../checkpoints/checkpointStore';
import type { Summarizer } from '../context/contextFitter';
import { HistoryStore } from '../history/historyStore';
import type { TaskRecorder } from '../history/taskRecorder';
import { resumedUsage } from './resumedUsage';
import { rebuildMessages } from '../history/rebuildMessages';
import { combineHooks } from './combineHooks';
import { settleInterruptedCards } from './settleInterruptedCards';
import { TaskBudgetGuard } from './taskBudgetGuard';
import { TaskCheckpoints } from './taskCheckpoints';
import { TaskContextFitting, type ContextMeasure } from './taskContextFitting';
import type { TaskOutput } from './taskOutput';
import type { UserHooksSource } from '../userHooks/userHooks';
import type { FactBook } from '../facts/factBook';

/** What a host gives the runtime. */
export interface TaskPorts {
  host: HostPorts;
  /** The settings in force (read at each request; a new agent starts with them). */
  settings: () => AgentSettings;
  /** Where tasks are saved. Without it nothing is saved and no checkpoints are kept. */
  history?: HistoryStore;
  /** The workspace folder a task is recorded under (default: the first root). */
  workspace?: string;
  /** The roles and tools (default: the product's). */
  registries?: Registries;
  checkpointLimits?: CheckpointLimits;
  /** Defaults to the endpoint's summary model. */
  summarizer?: Summarizer;
  /** The user's own hook commands in force (read at each prompt and turn); none: no hook runs. */
  userHooks?: UserHooksSource;
  /** The workspace's facts (none, or `--no-facts`: none sent, none learned). */
  facts?: FactBook;
}

export interface TaskStart {
  /** Every event of the task, stamped (the webview bridge, the CLI printer, a test's list). */
  sink: (event: HostEvent) => void;
  /** A new task's role (default: the registry's first); a resumed task keeps the role it was saved in unless `keepRole`. */
  role?: RoleId;
  keepRole?: boolean;
  /** Each request as fitted to the model's window (the chat's context meter). */
  onContextMeasured?(m: ContextMeasure): void;
  /** Another window or terminal asked for this task (see history/taskLock.ts): stop, save, let go. */
  onTakeoverRequested?(): void;
  /** Resuming a task another live writer holds: ask it to hand the task over instead of failing. */
  takeOver?: boolean;
  /** The host's own observers, called after the task's parts; the task's context fitting is its own. */
  hooks?: Omit<AgentHooks, 'fitContext'>;
}

/** A started task: its agent, and what the host may ask of the parts around it. */
export class RunningTask {
  private closing: Promise<void> | undefined;

  constructor(
    readonly id: string,
    readonly agent: Agent,
    readonly resumed: boolean,
    private readonly parts: {
      recorder?: TaskRecorder;
      checkpoints?: TaskCheckpoints;
      budget: TaskBudgetGuard;
      context: TaskContextFitting;
    },
  ) {}

  get recorder(): TaskRecorder | undefined { return this.parts.recorder; }
  get checkpoints(): TaskCheckpoints | undefined { return this.parts.checkpoints; }
  get budget(): TaskBudgetGuard { return this.parts.budget; }
  get context(): TaskContextFitting { return this.parts.context; }

  /** The whole visible state, for a (re)loading view. */
  snapshot(): HostEvent {
    return this.agent.snapshot(this.id);
  }

  /** Tells the context meter how much of the window the task's conversation takes now, without asking the model (a resumed task). */
  async measureContext(): Promise<void> {
    const next = this.agent.nextRequest();
    await this.parts.context.measure(next.messages, next.model, next.tools);
  }

  /** "Revert this change" on a tool card; the outcome is said in the chat either way. */
  revertCall(callId: string): Promise<RevertResult> {
    return this.agent.files.revertCall(callId);
  }

  /** "Revert the whole task". */
  revertTask(): Promise<RevertResult> {
    return this.agent.files.revertTask();
  }

  /** The task summary's per-file "Revert…". */
  revertFile(display: string): Promise<RevertResult> {
    return this.agent.files.revertFile(display);
  }

  /** The agent's latest change that is not reverted yet ("Revert Last Change"). */
  lastChangeCallId(): string | undefined {
    return this.parts.checkpoints?.lastChangeCallId();
  }

  /** Waits for post-images still being taken. */
  async settled(): Promise<void> {
    await this.parts.checkpoints?.settled();
  }

  /** Waits for post-images (they are what makes a revert safe), then saves and compacts. Once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.settled();
      this.parts.recorder?.close();
    })();
    return this.closing;
  }
}

/** A new task. Synchronous: nothing is read, and nothing is written before its first card. */
export function startTask(ports: TaskPorts, start: TaskStart): RunningTask {
  let agentRef: Agent | undefined;
  const provenance = () => (agentRef?.planning.book.all() ?? []).map((r) => ({ cardId: r.cardId, provenance: r.provenance }));
  const recorder = ports.history?.create({ workspace: workspaceOf(ports), planProvenance: provenance, prices: () => ports.settings().prices, ...lockHandling(start) });
  return wire(ports, start, { id: recorder?.id ?? HistoryStore.newId(), recorder, role: start.role ?? (ports.registries ?? PRODUCT_REGISTRIES).roles.initial.id, bind: (a) => (agentRef = a) });
}

/** The saved task `idOrPrefix`, continued: the chat shows its cards and the model gets its earlier turns. */
export async function resumeTask(ports: TaskPorts, idOrPrefix: string, start: TaskStart): Promise<RunningTask> {
  if (!ports.history) throw new Error('This host keeps no history: there is no task to resume.');
  let agentRef: Agent | undefined;
  const provenance = () => (agentRef?.planning.book.all() ?? []).map((r) => ({ cardId: r.cardId, provenance: r.provenance }));
  const { recorder, task } = await ports.history.resume(idOrPrefix, { workspace: workspaceOf(ports), planProvenance: provenance, prices: () => ports.settings().prices, ...lockHandling(start), ...(start.takeOver ? { takeOver: true } : {}) });
  const u = task.meta.usage;
  const resume: ResumeState = {
    // A task saved mid-run shows its interrupted cards as ended (nothing of that run is alive now);
    // the model gets the conversation as it was.
    cards: settleInterruptedCards(task.cards),
    messages: rebuildMessages(task.cards, task.provenance),
    usage: { tokens_in: u.tokens_in, tokens_out: u.tokens_out, ...(u.cost_usd !== undefined ? { cost_usd: u.cost_usd } : {}) },
    idPrefix: `r${Date.now().toString(36)}-`,
    planProvenance: task.provenance,
  };
  const role = start.keepRole && start.role ? start.role : recorder.state.role;
  const running = wire(ports, start, {
    id: recorder.id,
    recorder,
    role,
    resume,
    spentUsd: recorder.state.usage(ports.settings().prices).cost_usd ?? 0,
    calls: task.cards.flatMap((c) => (c.kind === 'tool_call' ? [{ callId: c.call_id, cardId: c.id }] : [])),
    bind: (a) => (agentRef = a),
  });
  // The header's Turn and Task lines as they were when the task was saved (the snapshot carries them).
  const usage = resumedUsage(resume.cards, resume.usage ?? { tokens_in: 0, tokens_out: 0 });
  if (usage) running.agent.events.emit({ type: 'usage_total', ...usage });
  return running;
}

function lockHandling(start: TaskStart): { onTakeoverRequested?: () => void } {
  const handler = start.onTakeoverRequested;
  return handler ? { onTakeoverRequested: () => handler() } : {};
}

function workspaceOf(ports: TaskPorts): string | undefined {
  return ports.workspace ?? ports.host.fs.roots[0];
}

function wire(
  ports: TaskPorts,
  start: TaskStart,
  t: { id: string; recorder?: TaskRecorder; role: RoleId; resume?: ResumeState; spentUsd?: number; calls?: { callId: string; cardId: string }[]; bind(agent: Agent): void },
): RunningTask {
  let agent: Agent | undefined;
  const out: TaskOutput = {
    emit: (e) => {
      if (agent) agent.events.emit(e);
      else ports.host.logger.warn(`task ${t.id}: an event before the agent started was dropped (${e.type})`);
    },
    cards: (): readonly Card[] => agent?.cards() ?? [],
  };
  const checkpoints = t.recorder
    ? new TaskCheckpoints(t.recorder.dir, ports.checkpointLimits ?? DEFAULT_CHECKPOINT_LIMITS, { fs: ports.host.fs, logger: ports.host.logger, out, model: () => agent }, t.calls)
    : undefined;
  const budget = new TaskBudgetGuard({ settings: ports.settings, asker: ports.host.asker, out }, t.spentUsd ?? 0);
  const context = new TaskContextFitting({
    settings: ports.settings,
    logger: ports.host.logger,
    out,
    beforeRequest: (signal) => budget.beforeRequest(signal),
    countUsage: (u) => budget.count(u),
    checkpoints,
    role: () => agent?.role ?? t.role,
    ...(ports.summarizer ? { summarizer: ports.summarizer } : {}),
    ...(start.onContextMeasured ? { onMeasured: start.onContextMeasured } : {}),
  });
  const recorder = t.recorder;
  const history: AgentHooks | undefined = recorder ? { onEvent: (e) => recorder.onEvent(e) } : undefined;
  agent = wireAgent({
    host: ports.host,
    settings: ports.settings(),
    role: t.role,
    emit: start.sink,
    hooks: combineHooks(history, checkpoints?.hooks, budget.hooks, context.hooks, start.hooks),
    roles: (ports.registries ?? PRODUCT_REGISTRIES).roles,
    tools: (ports.registries ?? PRODUCT_REGISTRIES).tools(),
    taskId: t.id,
    ...(ports.userHooks ? { userHooks: ports.userHooks } : {}),
    ...(ports.facts ? { facts: ports.facts } : {}),
    ...(checkpoints ? { files: checkpoints } : {}),
    ...(t.resume ? { resume: t.resume } : {}),
  });
  // History records the role the agent starts in (any role of the registry; a stale one fell back to the first).
  recorder?.setRole(agent.role);
  t.bind(agent);
  return new RunningTask(t.id, agent, t.resume !== undefined, { recorder, checkpoints, budget, context });
}
