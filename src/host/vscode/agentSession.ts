import type { ChatSession, HostEvent, HostUiMessage, PanelOutbound, RoleId, Unsubscribe, WebviewMessage } from '../../protocol';
import type { AgentApi, AgentHooks, ResumeState, TurnOutcome } from '../../core/agent/agentApi';
import { Agent } from '../../core/agent/agent';
import type { HostPorts } from '../../core/ports';
import type { AgentSettings } from '../../core/settings';
import type { Tool } from '../../core/tools/tool';
import { Listeners } from '../../core/events/listeners';
import { HostMessageHandler, isHostHandled, setupMessage, setupNeeded } from './hostMessages';
import type { DiffApprover } from './diffApprover';
import type { PanelQuestionAsker } from './questionAsker';
import type { ApiKeyStore } from './secrets';
import { settleInterruptedCards } from './resumedCards';

export interface AgentSessionDeps {
  host: HostPorts;
  approver: DiffApprover;
  asker: PanelQuestionAsker;
  keys: ApiKeyStore;
  settings: AgentSettings;
  hooks?: AgentHooks;
  /** The tool registry (default: the core's). */
  tools?: readonly Tool[];
  /** Called with each new agent (a new task), e.g. so history can record it. */
  onAgent?(agent: Agent, taskNumber: number): void;
  /** History/checkpoints/context/budget for each new task. */
  newTaskBinding?(ctx: { host: HostPorts; settings: () => AgentSettings }): TaskBinding;
}

/** What a task's history binding offers the session (implemented by core/history/TaskSession). */
export interface TaskBinding {
  readonly id: string;
  readonly hooks: AgentHooks;
  readonly resumeState?: ResumeState;
  readonly resumedRole?: RoleId;
  tap(sink: (e: HostEvent) => void): (e: HostEvent) => void;
  attach(agent: Agent): void;
  revertCall(callId: string): Promise<unknown>;
  revertTask(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The chat backed by the real agent: webview messages become Agent calls (send, execute, revise,
 * role, stop, continue), approvals and answers go to the waiting approver/asker, and the agent's
 * events go out to the panel. New task starts a fresh Agent. It also implements AgentApi by
 * delegation, so the palette commands drive the same agent the chat shows.
 */
export class AgentSession implements ChatSession, AgentApi {
  private readonly outbound = new Listeners<PanelOutbound>();
  private readonly roleChanged = new Listeners<RoleId>();
  private readonly handler: HostMessageHandler;
  private agent!: Agent;
  private settings: AgentSettings;
  private tasks = 0;

  /** The settings in force (history resumes a task with them). */
  get currentSettings(): AgentSettings { return this.settings; }

  constructor(readonly deps: AgentSessionDeps) {
    this.settings = deps.settings;
    this.handler = new HostMessageHandler({
      approver: deps.approver,
      asker: deps.asker,
      keys: deps.keys,
      logger: deps.host.logger,
      postUi: (msg) => this.outbound.fire(msg),
    });
    this.startAgent('planner');
  }

  get role(): RoleId { return this.agent.role; }
  get current(): Agent { return this.agent; }

  onOutbound(listener: (msg: PanelOutbound) => void): Unsubscribe { return this.outbound.add(listener); }
  onRoleChanged(listener: (role: RoleId) => void): Unsubscribe { return this.roleChanged.add(listener); }

  private binding: TaskBinding | undefined;

  get task(): TaskBinding | undefined { return this.binding; }

  private startAgent(role: RoleId, binding?: TaskBinding): void {
    this.tasks++;
    const task = this.tasks;
    void this.binding?.close();
    this.binding = binding ?? this.deps.newTaskBinding?.({ host: this.deps.host, settings: () => this.settings });
    // Events of an agent replaced by New task must not reach the new task's view.
    const sink = (e: HostEvent) => { if (task === this.tasks) this.onEvent(e); };
    this.agent = new Agent({
      host: this.deps.host,
      settings: this.settings,
      role: this.binding?.resumedRole ?? role,
      hooks: this.binding?.hooks ?? this.deps.hooks,
      tools: this.deps.tools,
      emit: this.binding ? this.binding.tap(sink) : sink,
      // A task saved mid-run shows its interrupted cards as ended (nothing of that run is alive now).
      ...(this.binding?.resumeState ? { resume: { ...this.binding.resumeState, cards: settleInterruptedCards(this.binding.resumeState.cards) } } : {}),
    });
    this.binding?.attach(this.agent);
    this.deps.onAgent?.(this.agent, task);
  }

  /** Continue a saved task (History → Resume): the chat shows its cards and the agent has its context. */
  resumeTask(binding: TaskBinding): void {
    this.agent.stop();
    this.startAgent('planner', binding);
    this.roleChanged.fire(this.agent.role);
    this.outbound.fire(this.agent.snapshot(this.taskId()));
  }

  private onEvent(e: HostEvent): void {
    this.outbound.fire(e);
    if (e.type === 'role_changed') this.roleChanged.fire(e.role);
  }

  private taskId(): string { return this.binding?.id ?? `task-${this.tasks}`; }

  private post(msg: HostUiMessage): void { this.outbound.fire(msg); }

  // ---- AgentApi (palette commands) ----
  setRole(role: RoleId, reason?: string): void { this.agent.setRole(role, reason); }
  send(text: string): Promise<TurnOutcome> { return this.agent.send(text); }
  /**
   * Retry after an error card: the agent re-runs the failed turn on the conversation as it stands,
   * so the user's message is neither shown nor sent twice (re-sending the last text did both).
   */
  retry(): Promise<TurnOutcome> { return this.agent.retry(); }
  executePlan(planCardId: string): Promise<TurnOutcome> { return this.agent.executePlan(planCardId); }
  revisePlan(planCardId: string, feedback: string): Promise<TurnOutcome> { return this.agent.revisePlan(planCardId, feedback); }
  continueAfterLimit(allow: boolean): void { this.agent.continueAfterLimit(allow); }
  stop(): void { this.agent.stop(); }
  cards() { return this.agent.cards(); }
  updateSettings(settings: AgentSettings): void {
    this.settings = settings;
    this.agent.updateSettings(settings);
    void this.recheckSetup();
  }

  /** Whether the chat was told to show the setup card and has not been told it is done. */
  private setupShown = false;

  /**
   * The setup card asked for at `ready` may be stale: in a remote window (code-server) the user's
   * machine-scoped settings reach the extension host after activation, and a key can be set from
   * the palette. When the settings change and setup is no longer needed, the card is closed.
   */
  private async recheckSetup(): Promise<void> {
    if (!this.setupShown || (await setupNeeded(this.deps.keys))) return;
    this.setupShown = false;
    this.post({ type: 'setup_done' });
  }

  /** New task: stop the old agent (its pending approvals end as rejected) and start clean in the Planner. */
  newTask(): void {
    this.agent.stop();
    this.startAgent('planner');
    this.roleChanged.fire(this.agent.role);
    this.outbound.fire(this.agent.snapshot(this.taskId()));
  }

  // ---- ChatSession (webview messages, already validated by the bridge) ----
  async handle(msg: WebviewMessage): Promise<void> {
    if (isHostHandled(msg)) {
      // Saving from the card closes it when everything is written (connection_result); a setup_done
      // after the first of its settings would close it while the models are still being saved.
      if (msg.type === 'save_settings') this.setupShown = false;
      await this.handler.handle(msg);
      return;
    }
    switch (msg.type) {
      case 'ready': {
        this.outbound.fire(this.agent.snapshot(this.taskId()));
        const setup = await setupMessage(this.deps.keys);
        if (setup) { this.setupShown = true; this.post(setup); }
        return;
      }
      case 'send': await this.send(msg.text); return;
      case 'execute_plan': await this.agent.executePlan(msg.card_id); return;
      case 'revise_plan': await this.agent.revisePlan(msg.card_id, msg.feedback); return;
      case 'set_role': this.agent.setRole(msg.role, 'switched by you'); return;
      case 'stop': this.agent.stop(); return;
      case 'continue': this.agent.continueAfterLimit(msg.allow); return;
      case 'new_task': this.newTask(); return;
      case 'revert_call': await this.binding?.revertCall(msg.call_id); return;
      case 'revert_task': await this.binding?.revertTask(); return;
      case 'retry': await this.retry(); return;
    }
  }
}
