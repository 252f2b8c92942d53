import { dispatchWebviewMessage, type ChatSession, type HostEvent, type HostUiMessage, type PanelOutbound, type RoleId, type Unsubscribe, type WebviewHandlers, type WebviewMessage } from '../../protocol';
import type { Agent } from '../../core/task/taskAgent';
import type { HostPorts } from '../../core/ports/ports';
import type { AgentSettings } from '../../core/settings/settings';
import type { Registries } from '../../core/registries/registries';
import type { HistoryStore } from '../../core/history/historyStore';
import type { UserHooksSource } from '../../core/userHooks/userHooks';
import type { FactBook } from '../../core/facts/factBook';
import type { RunningTask } from '../../core/runtime/runningTask';
import { TaskRuntime } from '../../core/runtime/taskRuntime';
import type { OpenTaskMemory } from '../../core/runtime/reopenTask';
import { Listeners } from '../../core/events/listeners';
import { hostMessageHandlers, setupMessage, setupNeeded } from './hostMessages';
import type { HostActionType } from '../../core/task/userActions';
import type { DiffApprover } from './diffApprover';
import type { PanelQuestionAsker } from './questionAsker';
import type { ApiKeyStore } from './secrets';
import { openWorkspaceFile } from './openWorkspaceFile';
import { allowRuleFor } from '../../core/policy/approvalPolicy';
import { PRODUCT_REGISTRIES } from '../../core/registries/registries';
import { allowCommands, disallowCommand, setRoleModel } from './chatPreferences';
import { listModels } from './connection';
import { recentTaskEntries } from './recentTaskEntries';

export interface AgentSessionDeps {
  host: HostPorts;
  approver: DiffApprover;
  asker: PanelQuestionAsker;
  keys: ApiKeyStore;
  settings: AgentSettings;
  /** The tool registry (default: the core's). */
  /** The roles and tools (default: the product's). */
  registries?: Registries;
  /** Where tasks are saved (with their checkpoints); without it nothing is saved. */
  history?: HistoryStore;
  /** The `@` picker's workspace path search (none: the picker offers only problems, git, terminal, selection). */
  mentionSearch?: { search(query: string): Promise<string[]> };
  /** The user's hooks in force as a turn starts (userHooksSource.ts). */
  userHooks?: UserHooksSource;
  /** The workspace's facts (none without a workspace folder or history). */
  facts?: FactBook;
  /** Which task the chat has open, kept across reloads: the task open when the window closed opens again. */
  openTask?: OpenTaskMemory;
  /** The facts changed here (a Learned card's Forget): the Facts view shows it. */
  onFactsChanged?(): void;
}

/**
 * The chat in the editor: the core's task runtime on the VS Code ports, one handler for every
 * webview message — the task's and the runtime's from the user-action table (through the
 * runtime), the rest (the table's host rows: approvals, answers, setup, files, pickers) here —
 * and the agent's events out to the panel. The palette commands drive `current`, the same agent
 * the chat shows.
 */
export class AgentSession implements ChatSession {
  private readonly outbound = new Listeners<PanelOutbound>();
  private readonly roleChanged = new Listeners<RoleId>();
  private readonly runtime: TaskRuntime;
  private readonly handlers: WebviewHandlers;
  private settings: AgentSettings;
  /** The start-up's first try to open the task this window had open (reopenTask.ts). */
  private readonly reopening: Promise<void>;
  /** Whether the chat was told to show the setup card and has not been told it is done. */
  private setupShown = false;

  /** The settings in force (history resumes a task with them). */
  get currentSettings(): AgentSettings { return this.settings; }

  constructor(readonly deps: AgentSessionDeps) {
    this.settings = deps.settings;
    this.runtime = new TaskRuntime(
      { host: deps.host, settings: () => this.settings, ...(deps.history ? { history: deps.history } : {}), ...(deps.registries ? { registries: deps.registries } : {}), ...(deps.userHooks ? { userHooks: deps.userHooks } : {}), ...(deps.facts ? { facts: deps.facts } : {}) },
      {
        onEvent: (e) => this.onEvent(e),
        onTaskChanged: (task) => {
          this.roleChanged.fire(task.agent.role);
          this.outbound.fire(task.snapshot());
          this.meter = undefined;
          // Listed once the task left behind is saved: else it is missing from the list, or out of date.
          void this.runtime.previousClosed.then(() => this.postRecentTasks());
        },
        onContextMeasured: (m) => {
          this.meter = { type: 'context_meter', model: m.model, used: m.used, window: Math.max(1, m.window), known: m.known };
          this.post(this.meter);
        },
        // The webview queues while the agent runs; a send that still meets a busy agent (a race) goes
        // back to that queue rather than into a "still working" error card that loses the text.
        onQueued: (m) => { if (m.type === 'send') this.post({ type: 'send_deferred', text: m.text }); },
        onResumeRefused: (r) => this.post({ type: 'task_unavailable', task_id: r.taskId, reason: r.reason, take_over: r.canTakeOver }),
        onReadOnly: (reason) => this.post(reason === undefined ? { type: 'read_only' } : { type: 'read_only', reason }),
      },
      deps.openTask,
    );
    // The task that was open when the window closed or reloaded opens again (it is read from disk:
    // activation does not wait for it; a chat that loads meanwhile waits for the first try).
    this.reopening = deps.history ? this.runtime.reopen().then(() => undefined, (e: unknown) => deps.host.logger.warn(`reopening the last task: ${String(e)}`)) : Promise.resolve();
    const host = hostMessageHandlers({ approver: deps.approver, asker: deps.asker, keys: deps.keys, logger: deps.host.logger });
    // Every row the user-action table gives the editor (`by: 'host'`), and only those: a host row
    // without a handler here, or a handler for a message that is not a host row, does not compile.
    const hostRows: Pick<WebviewHandlers, HostActionType> = {
      ...host,
      ready: async () => {
        await this.reopening;
        return this.runtime.task.snapshot() as Extract<HostEvent, { type: 'snapshot' }>;
      },
      // Saving from the card closes it when everything is written (connection_result); a setup_done
      // after the first of its settings would close it while the models are still being saved.
      save_settings: (msg) => {
        this.setupShown = false;
        return host.save_settings(msg);
      },
      // "Open diff" on a card whose proposal is no longer open: the change as it was made, from the checkpoints.
      open_diff: async (msg) => {
        if (deps.approver.proposedUri(msg.call_id)) return host.open_diff(msg);
        await this.openDecidedDiff(msg.call_id);
      },
      open_file_diff: async (msg) => {
        const start = await this.runtime.task.checkpoints?.store.textAtStart(msg.path);
        if (!start || start.before === undefined) { deps.host.logger.warn(`open_file_diff ${msg.path}: no checkpoint of it in this task`); return; }
        await deps.approver.showTexts(`${msg.path}: since the task started ↔ now`, start.path, start.before, undefined);
      },
      open_file: async (msg) => { await openWorkspaceFile(msg.path, deps.host.fs.roots, deps.host.logger); },
      // Always answered, even when the search fails: the picker waits for an answer to each query.
      mention_search: async (msg) => {
        const paths = await Promise.resolve(deps.mentionSearch?.search(msg.query)).catch((e: unknown) => {
          deps.host.logger.warn(`mention search "${msg.query}" failed: ${e instanceof Error ? e.message : String(e)}`);
          return [];
        });
        return { type: 'mention_results', query: msg.query, paths: paths ?? [] };
      },
      // Always allow: the entries come from the card's own command as the core parsed it, never
      // from the webview; the command waiting on the card is approved with it.
      allow_command: async (msg) => {
        const card = this.runtime.agent.cards().find((c) => c.kind === 'tool_call' && c.call_id === msg.call_id);
        // Only what the card offered (its approval's allow entries, judged with the command's real folder when asked).
        const rule = card?.kind === 'tool_call' && card.approval?.allow?.entries?.length ? allowRuleFor(card.approval, deps.host.fs.roots) : undefined;
        if (!card || card.kind !== 'tool_call' || !rule?.entries?.length) { deps.host.logger.warn(`allow_command for ${msg.call_id}: no command that can be allow-listed`); return; }
        const entries = await allowCommands(rule.entries);
        deps.host.logger.info(`allow-list: added ${rule.entries.join(' | ')}`);
        if (card.status === 'pending') deps.approver.approve(msg.call_id);
        return { type: 'allow_list', entries };
      },
      remove_allowed_command: async (msg) => {
        const entries = await disallowCommand(msg.entry);
        deps.host.logger.info(`allow-list: removed ${msg.entry}`);
        return { type: 'allow_list', entries };
      },
      set_model: async (msg) => {
        if (!(await setRoleModel(msg.role, msg.model, this.roles))) return;
        // The settings watcher brings the new model to the agent; the picker shows it at once.
        return this.modelsMessage({ ...this.settings.models, [msg.role]: msg.model.trim() });
      },
      // A Learned card's Forget: the fact goes from the workspace's facts; the card stays, marked forgotten.
      forget_fact: (msg) => {
        const r = deps.facts?.remove(msg.fact_id);
        if (!r || 'why' in r) deps.host.logger.warn(`forget_fact ${msg.fact_id}: ${r ? r.why : 'no facts in this window'}`);
        this.markFactForgotten(msg.fact_id);
        deps.onFactsChanged?.();
      },
      set_api_key: async () => {
        // Asked from an error card: the endpoint refused the key (401), so one is needed whatever its URL.
        const setup = await setupMessage(deps.keys, { force: true, keyNeeded: true });
        if (setup) this.setupShown = true;
        return setup;
      },
    };
    this.handlers = { ...this.runtime.handlers, ...hostRows };
  }

  get role(): RoleId { return this.runtime.agent.role; }
  get current(): Agent { return this.runtime.agent; }
  /** The task the chat shows. */
  get task(): RunningTask { return this.runtime.task; }
  /** Why this window may not act on its task (another window took it over), if so. */
  get readOnlyReason(): string | undefined { return this.runtime.readOnlyReason; }

  onOutbound(listener: (msg: PanelOutbound) => void): Unsubscribe { return this.outbound.add(listener); }
  onRoleChanged(listener: (role: RoleId) => void): Unsubscribe { return this.roleChanged.add(listener); }

  /** Continue a saved task (History → Resume): the chat shows its cards and the agent has its context. */
  async resumeTask(idOrPrefix: string, opts: { takeOver?: boolean } = {}): Promise<void> {
    await this.runtime.resume(idOrPrefix, opts);
  }

  /** New task: stop the old agent (its pending approvals end as rejected) and start clean in the Planner. */
  async newTask(): Promise<void> {
    await this.runtime.openNewTask();
  }

  private async openDecidedDiff(callId: string): Promise<void> {
    // A step run beside others changed its own copy: its proposal as approved, not the workspace's file.
    if (await this.deps.approver.showStepProposal(callId)) return;
    const changes = (await this.runtime.task.checkpoints?.store.callTexts(callId)) ?? [];
    const shown = changes.filter((c) => c.before !== undefined && c.after !== undefined);
    if (shown.length === 0 && (await this.deps.approver.showRejected(callId))) return;
    if (shown.length === 0) { this.deps.host.logger.warn(`open_diff for ${callId}: no recorded change to show`); return; }
    for (const c of shown) await this.deps.approver.showTexts(`${c.display}: before ↔ after (Tandem's change)`, c.path, c.before!, c.after!);
  }

  /** The empty chat lists the workspace's latest saved tasks (other than this one) to resume with one click. */
  private async postRecentTasks(): Promise<void> {
    if (!this.deps.history) return;
    try {
      const current = this.runtime.task.id;
      const tasks = [...(await this.deps.history.list())].sort((a, b) => b.updated - a.updated)
        .filter((t) => t.id !== current).slice(0, 5);
      this.post({ type: 'recent_tasks', tasks: recentTaskEntries(tasks) });
    } catch (e) {
      this.deps.host.logger.warn(`recent tasks: ${String(e)}`);
    }
  }

  /** Every Learned card of the chat's task that holds this fact says it is forgotten (from the card, or the Facts view). */
  markFactForgotten(factId: string): void {
    const agent = this.runtime.agent;
    for (const c of agent.cards()) {
      if (c.kind === 'learned' && c.fact.id === factId && !c.forgotten) agent.events.patchCard(c.id, { forgotten: true });
    }
  }

  private onEvent(e: HostEvent): void {
    this.outbound.fire(e);
    if (e.type === 'role_changed') this.roleChanged.fire(e.role);
  }

  private post(msg: HostUiMessage): void { this.outbound.fire(msg); }

  private get roles() { return (this.deps.registries ?? PRODUCT_REGISTRIES).roles; }

  /** The last request's share of the window, re-sent to a reloaded chat. */
  private meter: Extract<HostUiMessage, { type: 'context_meter' }> | undefined;
  /** The endpoint's models, asked once per endpoint (the picker's list). */
  private available: { baseURL: string; models: Promise<string[]> } | undefined;

  private modelsMessage(byRole: Partial<Record<string, string>>): Extract<HostUiMessage, { type: 'models' }> {
    const only = Object.fromEntries(this.roles.list.map((r) => [r.id, byRole[r.id] ?? '']));
    return { type: 'models', by_role: only, available: this.availableNow ?? [] };
  }
  private availableNow: string[] | undefined;

  /** The picker's state: each role's model, and (once the endpoint answered) the models it lists. */
  private async postModels(): Promise<void> {
    const s = this.settings;
    if (this.available?.baseURL !== s.baseURL) {
      this.availableNow = undefined;
      this.available = {
        baseURL: s.baseURL,
        models: listModels(s.baseURL, s.apiKey).then((r) => (r.ok ? r.models : []), () => []),
      };
    }
    this.post(this.modelsMessage(s.models));
    const asked = this.available;
    const models = await asked.models;
    if (this.available !== asked) return;
    this.availableNow = models;
    this.post(this.modelsMessage(this.settings.models));
  }

  /** What the chat shows beside the cards: the allow-list, the models, the context meter. */
  private postPreferences(): void {
    this.post({ type: 'allow_list', entries: this.settings.commandAllowList });
    void this.postModels();
    if (this.meter) this.post(this.meter);
  }

  /** The setup card, when nothing is configured yet. */
  private async offerSetup(): Promise<void> {
    const setup = await setupMessage(this.deps.keys);
    if (!setup) return;
    this.setupShown = true;
    this.post(setup);
  }

  /** The current task's Stop (the editor's and the tests' shortcut to `current.stop()`). */
  stop(): void { this.current.stop(); }
  cards() { return this.current.cards(); }
  updateSettings(settings: AgentSettings): void {
    this.settings = settings;
    this.runtime.settingsChanged();
    this.postPreferences();
    void this.recheckSetup();
  }

  /**
   * The setup card asked for at `ready` may be stale: in a remote window (code-server) the user's
   * machine-scoped settings reach the extension host after activation, and a key can be set from
   * the palette. When the settings change and setup is no longer needed, the card is closed; when
   * it has become needed (an endpoint that wants a key, and none stored), it is shown.
   */
  private async recheckSetup(): Promise<void> {
    const needed = await setupNeeded(this.deps.keys);
    if (needed && !this.setupShown) {
      // Switched to an endpoint that needs a key while none is stored: ask now, not after a 401.
      await this.offerSetup();
      return;
    }
    if (!this.setupShown || needed) return;
    this.setupShown = false;
    this.post({ type: 'setup_done' });
  }

  // ---- ChatSession (webview messages, already validated by the bridge) ----
  async handle(msg: WebviewMessage): Promise<void> {
    await dispatchWebviewMessage(this.handlers, msg, (reply) => this.outbound.fire(reply));
    // A (re)loaded chat that has nothing configured yet gets the setup card, after its snapshot.
    if (msg.type === 'ready') {
      const readOnly = this.runtime.readOnlyReason;
      if (readOnly !== undefined) this.post({ type: 'read_only', reason: readOnly });
      void this.postRecentTasks();
      this.postPreferences();
      await this.offerSetup();
    }
  }
}
