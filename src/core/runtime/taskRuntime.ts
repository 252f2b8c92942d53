import type { HostEvent, RoleId, WebviewHandlers } from '../../protocol';
import type { Agent } from '../agent/agent';
import { resumeTask, startTask, type RunningTask, type TaskPorts, type TaskStart } from './runningTask';
import type { ContextMeasure } from './taskContextFitting';

/** The chat messages that act on the task (the others are the host's: approvals, answers, setup). */
export type TaskMessageType = 'send' | 'execute_plan' | 'revise_plan' | 'review_plan' | 'replan' | 'set_role' | 'stop' | 'continue' | 'retry' | 'new_task' | 'revert_call' | 'revert_task' | 'revert_file' | 'edit_message';

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
    },
  ) {
    const s = this.sinkFor(++this.generation);
    this.current = startTask(ports, this.startOf(s));
  }

  private startOf(s: { sink: (e: HostEvent) => void; generation: number }): TaskStart {
    const measured = this.out.onContextMeasured;
    return { sink: s.sink, ...(measured ? { onContextMeasured: (m: ContextMeasure) => { if (s.generation === this.generation) measured(m); } } : {}) };
  }

  get task(): RunningTask { return this.current; }
  get agent(): Agent { return this.current.agent; }

  /** A sink that passes events on while its task is the current one (`generation` is set when it becomes current). */
  private sinkFor(generation: number): { sink: (e: HostEvent) => void; generation: number } {
    const holder = {
      generation,
      sink: (e: HostEvent) => { if (holder.generation === this.generation) this.out.onEvent(e); },
    };
    return holder;
  }

  /** Stops the current task (its pending approvals end as rejected), saves it, and starts clean in the Planner. */
  newTask(): RunningTask {
    const s = this.sinkFor(-1);
    return this.replace(startTask(this.ports, this.startOf(s)), s);
  }

  /** Continues the saved task `idOrPrefix`: the chat shows its cards and the agent has its context. */
  async resume(idOrPrefix: string): Promise<RunningTask> {
    // Opened first: a task locked by another window leaves the current one as it is.
    const s = this.sinkFor(-1);
    return this.replace(await resumeTask(this.ports, idOrPrefix, this.startOf(s)), s);
  }

  private replace(next: RunningTask, sink: { generation: number }): RunningTask {
    this.current.agent.stop();
    void this.current.close();
    sink.generation = ++this.generation;
    this.current = next;
    this.out.onTaskChanged?.(this.current);
    return this.current;
  }

  /** The settings changed: the current agent uses them from its next request. */
  settingsChanged(): void {
    this.current.agent.updateSettings(this.ports.settings());
  }

  /** The chat's task messages, routed to the current task. */
  readonly handlers: Pick<WebviewHandlers, TaskMessageType> = {
    send: async (m) => { await this.agent.send(m.text); },
    execute_plan: async (m) => { await this.agent.executePlan(m.card_id, m.from_step !== undefined ? { fromStep: m.from_step } : {}); },
    revise_plan: async (m) => { await this.agent.revisePlan(m.card_id, m.feedback, m.step_comments ?? []); },
    review_plan: async (m) => { await this.agent.reviewPlan(m.card_id); },
    replan: async (m) => { await this.agent.replan(m.card_id); },
    set_role: (m) => this.setRole(m.role, 'switched by you'),
    stop: () => this.agent.stop(),
    continue: (m) => this.agent.continueAfterLimit(m.allow),
    // Retry re-runs the failed turn on the conversation as it stands: the user's message is neither shown nor sent twice.
    retry: async () => { await this.agent.retry(); },
    new_task: () => { this.newTask(); },
    revert_call: async (m) => { await this.current.revertCall(m.call_id); },
    revert_task: async () => { await this.current.revertTask(); },
    revert_file: async (m) => { await this.current.revertFile(m.path); },
    edit_message: async (m) => { await this.current.editMessage(m.card_id, m.text, m.files); },
  };

  setRole(role: RoleId, reason?: string): void {
    this.agent.setRole(role, reason);
  }

  /** Saves the current task (on deactivate, at exit). */
  close(): Promise<void> {
    return this.current.close();
  }
}
