import type { HostEvent, RoleId, WebviewHandlers } from '../../protocol';
import type { Agent } from '../task/taskAgent';
import { resumeTask, startTask, type RunningTask, type TaskPorts, type TaskStart } from './runningTask';
import type { ContextMeasure } from './taskContextFitting';
import { TASK_ACTIONS, taskRow, type RuntimeActionType, type TaskActionMessage, type TaskActionType } from '../task/userActions';
import { resumeRefusal, type ResumeRefusal } from './resumeRefusal';
import { reopenTask, type OpenTaskMemory, type ReopenOutcome } from './reopenTask';

/** How long New Task waits for the workbench to store that no task is open (forgetOpenTask). */
const FORGET_WAIT_MS = 2000;


/** How long a stopped run may take to settle before its task is saved and handed over. */
const HANDOVER_SETTLE_MS = 3_000;

/**
 * The current task of a host that starts new tasks and resumes saved ones while it runs (the
 * VS Code chat), with the chat's task messages routed to it. Events of a task that was replaced
 * never reach the view of the one that replaced it.
 */
export class TaskRuntime {
  private current: RunningTask;
  private generation = 0;

  constructor(
    private readonly ports: TaskPorts,
    private readonly out: {
      /** Every event of the current task. */
      onEvent(event: HostEvent): void;
      /** A new or resumed task replaced the previous one (its snapshot is for the view). */
      onTaskChanged?(task: RunningTask): void;
      /** Each request of the current task as fitted to the model's window. */
      onContextMeasured?(m: ContextMeasure): void;
      /** A message whose row is queued while a turn runs (a send) met a busy task: the chat keeps it for later. */
      onQueued?(msg: TaskActionMessage): void;
      /** A saved task could not be opened (held by another window, gone, unreadable): the user is told why. */
      onResumeRefused?(r: ResumeRefusal): void;
      /** Another window took this task over: it is saved and stopped, and this view is read-only (`undefined`: editable again). */
      onReadOnly?(reason: string | undefined): void;
    },
    /** Where the window keeps which task it has open, so a reload opens it again (`reopen`). */
    private readonly memory?: OpenTaskMemory,
  ) {
    this.remembered = memory?.get();
    const s = this.sinkFor(++this.generation);
    this.current = startTask(ports, this.startOf(s));
  }

  private startOf(s: { sink: (e: HostEvent) => void; generation: number }, takeOver = false): TaskStart {
    const measured = this.out.onContextMeasured;
    return {
      sink: s.sink,
      ...(measured ? { onContextMeasured: (m: ContextMeasure) => { if (s.generation === this.generation) measured(m); } } : {}),
      onTakeoverRequested: () => { if (s.generation === this.generation) void this.handOver(); },
      ...(takeOver ? { takeOver: true } : {}),
    };
  }

  /** Why the current task is read-only (another window took it over), if it is. */
  private readOnly: string | undefined;
  get readOnlyReason(): string | undefined { return this.readOnly; }

  /** Another window asked for the current task: stop its run, save it, let it go; this view keeps its cards, read-only. */
  private async handOver(): Promise<void> {
    const task = this.current;
    task.agent.stop();
    for (let waited = 0; task.agent.busy && waited < HANDOVER_SETTLE_MS; waited += 100) await new Promise((r) => setTimeout(r, 100));
    await task.close();
    if (task !== this.current) return;
    this.readOnly = 'This task was opened in another window, which continues it. Nothing here is saved any more.';
    this.ports.host.logger.info(`task ${task.id}: handed over to another window`);
    this.out.onReadOnly?.(this.readOnly);
  }

  get task(): RunningTask { return this.current; }
  get agent(): Agent { return this.current.agent; }

  /** A sink that passes events on while its task is the current one (`generation` is set when it becomes current). */
  private sinkFor(generation: number): { sink: (e: HostEvent) => void; generation: number } {
    const holder = {
      generation,
      sink: (e: HostEvent) => {
        if (holder.generation !== this.generation) return;
        // A new task is saved from its first card on: from then, it is the one to open again.
        if (e.type === 'card_added') this.remember(this.current.id);
        this.out.onEvent(e);
      },
    };
    return holder;
  }

  /** Stops the current task (its pending approvals end as rejected), saves it, and starts clean in the Planner. */
  newTask(): RunningTask {
    const s = this.sinkFor(-1);
    return this.replace(startTask(this.ports, this.startOf(s)), s);
  }

  /** New Task as the user asks for it (the chat's button, the command): the window forgets the old task first (forgetOpenTask). */
  async openNewTask(): Promise<RunningTask> {
    await this.forgetOpenTask();
    return this.newTask();
  }

  /** Continues the saved task `idOrPrefix`: the chat shows its cards and the agent has its context. */
  async resume(idOrPrefix: string, opts: { takeOver?: boolean } = {}): Promise<RunningTask> {
    this.resuming++;
    try {
      // The task just switched away from may still be saving and letting go of its lock: it is this
      // window's own, so wait for that rather than call it open elsewhere.
      await this.previousClosed;
      // Opened first: a task locked by another window leaves the current one as it is.
      const s = this.sinkFor(-1);
      return this.replace(await resumeTask(this.ports, idOrPrefix, this.startOf(s, opts.takeOver)), s);
    } finally {
      this.resuming--;
    }
  }

  /** Resumes in flight (the chat's, or the start-up's). */
  private resuming = 0;

  /**
   * At start-up: opens the task this window had open when it closed or reloaded (reopenTask.ts).
   * Resolves after the first try, with its outcome; `retried` when a held task stops being retried.
   */
  async reopen(): Promise<{ outcome: ReopenOutcome; retried: Promise<ReopenOutcome> }> {
    const first = this.current;
    return reopenTask(this.memory?.get(), {
      resume: (id) => this.resume(id),
      untouched: () => this.current === first && first.agent.cards().length === 0 && this.resuming === 0,
      refused: (r) => this.out.onResumeRefused?.(r),
      forget: () => this.remember(undefined),
      logger: this.ports.host.logger,
    });
  }

  /** The task last remembered as open here (undefined: an empty one). */
  private remembered: string | undefined;

  private remember(id: string | undefined): void {
    if (!this.memory || this.remembered === id) return;
    this.remembered = id;
    Promise.resolve(this.memory.set(id)).catch((e: unknown) => this.ports.host.logger.warn(`remembering the open task: ${String(e)}`));
  }

  /**
   * New Task from the chat: the window forgets the task it had open before the chat shows the empty
   * one. The editor's state is written by the workbench (a message away); shown first, a reload
   * right after New Task could come before the write and open the old task again. Never waits
   * longer than a moment for a workbench that does not answer.
   */
  private async forgetOpenTask(): Promise<void> {
    if (!this.memory || (this.remembered === undefined && this.memory.get() === undefined)) return;
    this.remembered = undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const written = Promise.resolve(this.memory.set(undefined)).catch((e: unknown) => this.ports.host.logger.warn(`forgetting the open task: ${String(e)}`));
    await Promise.race([written, new Promise<void>((r) => { timer = setTimeout(r, FORGET_WAIT_MS); })]);
    clearTimeout(timer);
  }

  /** The task replaced last is saved and closed (its history entry is up to date) once this settles. */
  previousClosed: Promise<void> = Promise.resolve();

  private replace(next: RunningTask, sink: { generation: number }): RunningTask {
    this.current.agent.stop();
    this.previousClosed = this.current.close().catch(() => undefined);
    sink.generation = ++this.generation;
    this.current = next;
    if (this.readOnly !== undefined) {
      this.readOnly = undefined;
      this.out.onReadOnly?.(undefined);
    }
    // A new task is remembered once it has a card (it is saved from then on); a resumed one at once.
    this.remember(next.resumed ? next.id : undefined);
    this.out.onTaskChanged?.(this.current);
    // A resumed task's meter shows its conversation against the window before the next request.
    if (next.resumed) void next.measureContext().catch((e: unknown) => this.ports.host.logger.warn(`context of task ${next.id}: ${String(e)}`));
    return this.current;
  }

  /** The settings changed: the current agent uses them from its next request. */
  settingsChanged(): void {
    this.current.agent.updateSettings(this.ports.settings());
  }

  /**
   * The chat's messages for the task and the runtime, from the user-action table: each task
   * message goes through its row's gate on the current task's agent; a new or resumed task
   * replaces the current one.
   */
  readonly handlers: Pick<WebviewHandlers, TaskActionType | RuntimeActionType> = {
    ...(Object.fromEntries(TASK_ACTIONS.map((type) => [type, (m: TaskActionMessage) => this.dispatch(m)])) as Pick<WebviewHandlers, TaskActionType>),
    new_task: async () => { await this.openNewTask(); },
    resume_task: async (m) => {
      if (m.task_id === this.current.id && this.readOnly === undefined) return;
      await this.resume(m.task_id, { takeOver: m.take_over === true }).catch((e: unknown) => {
        this.ports.host.logger.warn(`resume ${m.task_id}: ${String(e)}`);
        // Opened meanwhile by the start-up's own try (reopenTask.ts): nothing to tell.
        if (this.current.id === m.task_id && this.readOnly === undefined) return;
        this.out.onResumeRefused?.(resumeRefusal(m.task_id, e));
      });
    },
  };

  /** One task message to the current task (a queued kind that meets a busy task goes back to the chat's queue). */
  private async dispatch(m: TaskActionMessage): Promise<void> {
    if (this.readOnly !== undefined) {
      // Nothing here may touch the task another window now writes: say so again rather than act.
      this.out.onReadOnly?.(this.readOnly);
      return;
    }
    if (taskRow(m.type).queueWhenBusy && this.agent.busy && this.out.onQueued) {
      this.out.onQueued(m);
      return;
    }
    await this.agent.act(m);
  }

  setRole(role: RoleId, reason?: string): void {
    this.agent.setRole(role, reason);
  }

  /** Saves the current task (on deactivate, at exit). */
  close(): Promise<void> {
    return this.current.close();
  }
}
