/**
 * The agent of one task: its conversation, its role, its cards and its plans. Implements `AgentApi`
 * for the VS Code panel, the CLI and tests. Every user action passes one gate (`act`, from the
 * user-action table in userActions.ts); the plan actions live in taskPlans.ts and the turn itself
 * in core/turn. Everything the user sees leaves through `emit` as stamped `HostEvent`s; `cards()`
 * is rebuilt from those very events.
 */
import { PROMPT_BLOCKED } from '../history/rebuildMessages';
import { resolveMentions } from '../mentions/resolveMentions';
import { withAttachments } from '../mentions/attachmentText';
import type { AgentState, Attachment, Card, HostEvent, RoleId, TurnOutcome, RoleRegistry } from '../../protocol';
import { EventStream } from '../events';
import { LlmClient, LlmError } from '../llm';
import { QuestionUnanswerable, type HostPorts } from '../ports/ports';
import { ReadTracker } from '../tools/readTracker';
import { PRODUCT_ROLES, type RoleDef } from '../roles/roles';
import { modelFor, type AgentSettings } from '../settings/settings';
import type { ToolCatalog } from '../tools/tool';
import type { ToolRegistry } from '../tools/toolRegistry';
import { EXPLORER_TOOLS, productToolRegistry } from '../tools';
import { Explorers } from '../turn/explorers';
import { WorkspacePaths } from '../workspace/workspacePaths';
import { UsageMeter } from '../cost/usageMeter';
import { Planning } from '../plans/planning';
import { insideWorkspace } from '../plans/validatePlan';
import type { PolicyInput } from '../policy/approvalPolicy';

import { requestPlan, type PlanCompleter, type PlanMessage } from '../plans/requestPlan';
import type { ReplanCarry } from '../plans/planTurn';
import { Reviewer } from '../review/reviewer';
import { promptVersion } from '../roles/promptVersion';
import { llmPlanCompleter } from '../plans/llmPlanCompleter';
import { recordsFromCards } from '../plans/recordsFromCards';
import { rebuildMessages } from '../history/rebuildMessages';
import type { AgentApi, AgentOptions } from './agentApi';
import type { AgentHooks } from '../turn/turnHooks';
import { emitUsage, runTurn, systemPromptFor } from '../turn/turnLoop';
import { LimitQuestion } from '../turn/limitQuestion';
import { isTurnHalt } from '../context/turnHalt';
import { Conversation, type ConversationMessage } from '../context/conversation';
import type { ChatMessage } from '../context/chatMessage';
import { answerTokensFor } from '../context/modelWindows';
import { ProjectKnowledge } from '../knowledge/projectKnowledge';
import { TaskFactSection } from '../facts/taskFactSection';
import { learnFromVerdict } from '../facts/learnFromVerdict';
import { contentText } from '../context/chatMessage';
import { TaskPlans, type PlannerMessage } from './taskPlans';
import type { StepBranch } from '../planRuns/planGraphRun';
import { BUSY, ROLE_NEEDS, taskRow, type ActionTarget, type TaskActionMessage, type TaskActionResult, type TaskActionType, type TaskFiles } from './userActions';
import type { RevertResult } from '../checkpoints/checkpointStore';
import type { HookScope, UserHooks } from '../userHooks/userHooks';
import { maskSecret } from '../secrets/secretMask';
import { whyOneAtATime } from '../planRuns/whyOneAtATime';

/** A task that keeps no checkpoints (history is off): nothing can be reverted, and nothing changed is known. */
const NO_CHECKPOINTS: RevertResult = { ok: false, message: 'This task keeps no checkpoints (history is off), so nothing can be reverted.', conflicts: [] };
export const NO_TASK_FILES: TaskFiles = {
  revertCall: async () => NO_CHECKPOINTS,
  revertTask: async () => NO_CHECKPOINTS,
  revertFile: async () => NO_CHECKPOINTS,
  revertCalls: async () => NO_CHECKPOINTS,
  filesChangedBy: () => [],
  settled: async () => {},
};

/** Where one turn works: the task's own conversation and workspace, or a plan step's (see `branchTurn`). */
interface TurnScope {
  events: EventStream;
  conversation: Conversation;
  host: HostPorts;
  paths: WorkspacePaths;
  reads: ReadTracker;
  planning: Planning;
  hooks: AgentHooks;
  /** The task's checkpoints see its changes (not those in a step's worktree: its apply-back is the checkpointed change). */
  checkpoints: boolean;
  setState(state: AgentState, detail?: string): void;
  /** A step's own agent beside others: its end runs the user's SubagentStop hooks, not Stop. */
  subagent?: boolean;
}

export class Agent implements AgentApi {
  private _role: RoleId;
  private settings: AgentSettings;
  private llm: LlmClient;
  readonly events: EventStream;
  readonly planning: Planning;
  /** Execute, Review, Replan and Revise. */
  readonly plans: TaskPlans;
  /** The task's checkpoints (the runtime's), for the revert actions and Edit & resend. */
  readonly files: TaskFiles;
  /** The roles this agent knows (the product's unless the caller passes its own). */
  readonly roles: RoleRegistry<RoleDef>;
  /** The tools in force; providers may be added or change their tools while the task runs. */
  readonly tools: ToolRegistry;
  private readonly paths: WorkspacePaths;
  private readonly reads = new ReadTracker();
  private readonly usage: UsageMeter;
  /** The model's conversation: every change to it goes through its own methods. */
  private readonly talk = new Conversation();
  private readonly hooks: AgentHooks;
  private readonly reviewer: Reviewer;
  private running: AbortController | undefined;
  /** A message's mentions are being read (before its turn starts): a second send must wait like during a run. */
  private attaching = false;
  private state: AgentState = 'idle';
  private stateDetail: string | undefined;
  /** The tool-call limit's question, while one waits. */
  private readonly limit: LimitQuestion;
  /** What the last turn was and how it ended, so `retry` can run it again without re-adding the user message. */
  private lastTurn: { kind: 'message'; text: string; role: RoleId; feedback?: string; requirePlan?: boolean; replan?: ReplanCarry } | { kind: 'plan' } | undefined;
  private lastOutcome: TurnOutcome | undefined;
  /** AGENTS.md and the other instruction files, and skills: read once per task, shown once in the chat. */
  private readonly knowledge: ProjectKnowledge;
  /** The `explore` tool's child agents; `dropExplore` takes the tool out again when the setting turns them off. */
  private readonly explorers: Explorers;
  private dropExplore: (() => void) | undefined;
  /** The user's SessionStart hooks run before this agent's first prompt. */
  private sessionStarted = false;
  /** The user's hooks for the turn in flight: asked of the host as each turn starts (the editor may ask first whether to trust a repository's). */
  private userHooks: UserHooks | undefined;
  /** A session id for hooks when the task has no id (history off). */
  private readonly hookSession = `tandem-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(private readonly opts: AgentOptions) {
    this.roles = opts.roles ?? PRODUCT_ROLES;
    // A role that is not (or no longer) in the registry — e.g. from an old history file — starts where a new task does.
    this._role = opts.role && this.roles.has(opts.role) ? opts.role : this.roles.initial.id;
    this.settings = opts.settings;
    // Every request's usage is also counted on the plan card (per role, per step) and against a step's budget.
    this.hooks = { ...opts.hooks, onUsage: (u) => { this.plans.countUsage(u); opts.hooks?.onUsage?.(u); } };
    this.files = opts.files ?? NO_TASK_FILES;
    const onEvent = opts.hooks?.onEvent;
    // Recorded before it is shown: a step the user (or a script reading --json) saw end done is saved
    // done, even when the process is killed right after (resume must not run it again).
    this.events = new EventStream(onEvent ? (e) => { onEvent(e); opts.emit(e); } : opts.emit, opts.resume?.idPrefix ?? 'c');
    this.limit = new LimitQuestion({ events: this.events, asker: opts.host.asker, setState: (state) => this.setState(state) });
    this.tools = opts.tools ?? productToolRegistry();
    this.paths = new WorkspacePaths(opts.host.fs);
    this.usage = new UsageMeter(opts.settings.prices, opts.resume?.usage);
    if (opts.resume) {
      // A resumed task: its cards are already on screen/in history (not re-emitted); the model gets the earlier turns.
      this.events.store.apply({ type: 'snapshot', seq: 0, cards: opts.resume.cards, role: this._role });
      this.talk.restore(opts.resume.messages);
    }
    this.llm = this.makeClient();
    // Facts first rank those citing files the task's first message names.
    const facts = opts.facts && new TaskFactSection(opts.facts, this.events, () => contentText(this.talk.messages.find((m) => m.role === 'user')?.content));
    this.knowledge = new ProjectKnowledge({ fs: opts.host.fs, settings: () => this.settings.knowledge, ui: this.events, logger: opts.host.logger, ...(facts ? { facts } : {}) });
    // load_skill is offered once the task's skills are found (none: nothing is added to the prompt).
    this.tools.add(this.knowledge.skills);
    this.explorers = new Explorers({
      parent: () => this.roleDef,
      settings: () => this.settings,
      llm: () => this.llm,
      host: opts.host,
      paths: this.paths,
      tools: this.tools,
      policy: () => this.policyInput(),
      events: this.events,
      usage: this.usage,
      hooks: this.hooks,
      userHooks: () => (this.userHooks ? { hooks: this.userHooks, scope: () => this.hookScope() } : undefined),
    });
    this.offerExplore();
    this.planning = new Planning(this.events, {
      logger: opts.host.logger,
      structuredOutputs: opts.settings.structuredOutputs,
      planRepairTries: opts.settings.limits.planRepairTries,
      isInside: insideWorkspace(this.paths),
      stepTools: () => this.catalog().stepTools,
      diagnostics: opts.host.diagnostics,
      whyOneAtATime: () => whyOneAtATime(opts.host),
    });
    // The cards a plan step's run adds carry its step (the chat's lanes, approvals by step, --json).
    this.events.stepOf = () => this.planning.runningStep();
    // A resumed task's plans stay executable and revisable (their cards came back with the snapshot).
    if (opts.resume) {
      const lastPlan = [...opts.resume.cards].reverse().find((c) => c.kind === 'plan' && c.reliability);
      this.planning.book.restore(recordsFromCards(opts.resume.cards, opts.resume.planProvenance), lastPlan?.kind === 'plan' ? lastPlan.reliability : undefined);
    }
    this.reviewer = new Reviewer({
      roles: this.roles,
      settings: () => this.settings,
      llm: () => this.llm,
      structured: this.planning.structured,
      logger: opts.host.logger,
      promptContext: () => this.catalog(),
      onUsage: (u) => emitUsage(this.events, this.usage, { ...u, outcome: 'review' }, this.hooks.onUsage),
      onRetry: (notice) => this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', note: 'retry', text: notice.message, ts: Date.now() }),
      ...(opts.facts ? { learn: learnFromVerdict(opts.facts, this.events, opts.taskId) } : {}),
    });
    this.plans = new TaskPlans({
      events: this.events,
      planning: this.planning,
      reviewer: this.reviewer,
      roles: this.roles,
      host: opts.host,
      usage: this.usage,
      conversation: this.talk,
      settings: () => this.settings,
      policy: () => this.policyInput(),
      setRole: (role, reason) => this.setRole(role, reason),
      setState: (state, detail) => this.setState(state, detail),
      errorCard: (message) => this.errorCard(message),
      exclusive: (body) => this.exclusive(body),
      turn: (signal) => this.turn(signal),
      branchTurn: (b, signal) => this.branchTurn(b, signal),
      checkpoints: {
        beforeChange: (abs, callId) => this.hooks.beforeChange?.(abs, callId) ?? Promise.resolve(),
        settled: (call) => this.hooks.onToolCallSettled?.(call),
      },
      plannerTurn: (m) => this.plannerTurn(m),
      planRunStarted: () => { this.lastTurn = { kind: 'plan' }; },
    });
  }

  get role(): RoleId {
    return this._role;
  }

  private get roleDef(): RoleDef {
    return this.roles.get(this._role);
  }

  /** What prompts and schemas take from the tool registry, as it stands now. */
  private catalog(): ToolCatalog {
    return { stepTools: this.tools.stepTools(this.roles) };
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * The one gate of every user action (its row in the user-action table): why it cannot run now,
   * or undefined. A row that needs the task idle is refused while a turn runs, or while a message's
   * mentions are being read before its turn; a row that needs a role is refused when no role here does that.
   */
  private refusal(type: TaskActionType): string | undefined {
    const row = taskRow(type);
    if (row.idle && (this.running || this.attaching)) return BUSY;
    if (row.needs && !this.roles[row.needs]) return ROLE_NEEDS[row.needs];
    return undefined;
  }

  /** Whether `type` passes its row's gate now; when it does not, its refusal is shown as an error card. */
  private passesGate(type: TaskActionType): boolean {
    const why = this.refusal(type);
    if (why) this.errorCard(why);
    return why === undefined;
  }

  /** Runs `action` after the gate of its row; a refusal is an error card and the outcome `error`. */
  private async gated(type: TaskActionType, action: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    return this.passesGate(type) ? action() : 'error';
  }

  /** What the table's handlers act on: this agent, past the gate. */
  private readonly target: ActionTarget = ((agent: Agent): ActionTarget => ({
    send: (text) => agent.sendNow(text),
    retry: () => agent.retryNow(),
    editMessage: (cardId, text, files) => agent.editMessageNow(cardId, text, files),
    setRole: (role, reason) => agent.setRole(role, reason),
    stop: () => agent.stop(),
    continueAfterLimit: (allow) => agent.continueAfterLimit(allow),
    get plans() { return agent.plans; },
    get files() { return agent.files; },
  }))(this);

  /**
   * A user action: its row's gate, then its handler. The one way in for the chat (through the task
   * runtime), the CLI, the palette and tests alike; a refusal is an error card and the result `error`.
   */
  async act<K extends TaskActionType>(msg: Extract<TaskActionMessage, { type: K }>): TaskActionResult<K> {
    if (!this.passesGate(msg.type)) return 'error';
    const row = taskRow(msg.type);
    return (row.run as (t: ActionTarget, m: TaskActionMessage) => Promise<unknown> | void)(this.target, msg) as Awaited<TaskActionResult<K>>;
  }

  /** The conversation as sent to the model (without the system prompt), read-only. */
  get conversation(): readonly ConversationMessage[] {
    return this.talk.messages;
  }

  /** Notes for the model between turns (a revert): they go in before the next user message. */
  noteToModel(notes: readonly string[]): void {
    this.talk.appendNotes(notes);
  }

  private makeClient(): LlmClient {
    const s = this.settings;
    return new LlmClient({ baseURL: s.baseURL, apiKey: s.apiKey, maxRetries: s.limits.maxRetries, idleTimeoutMs: s.limits.requestIdleTimeoutMs, firstTokenTimeoutMs: s.limits.firstOutputTimeoutMs, requestDeadlineMs: s.limits.requestDeadlineMs, logger: this.opts.host.logger });
  }

  updateSettings(settings: AgentSettings): void {
    this.settings = settings;
    this.llm = this.makeClient();
    this.usage.setPrices(settings.prices);
    this.planning.update({ structuredOutputs: settings.structuredOutputs, planRepairTries: settings.limits.planRepairTries });
    this.offerExplore();
  }

  /** `explore` is in the registry exactly while the setting has explorers on (default: on). */
  private offerExplore(): void {
    const on = this.settings.explorers?.enabled !== false;
    if (on && !this.dropExplore) this.dropExplore = this.tools.add(EXPLORER_TOOLS);
    else if (!on && this.dropExplore) {
      this.dropExplore();
      this.dropExplore = undefined;
    }
  }

  setRole(role: RoleId, reason?: string): void {
    if (role === this._role) return;
    const to = this.roles.find(role);
    if (!to) {
      this.errorCard(`There is no role "${role}" here (roles: ${this.roles.ids.join(', ')}).`);
      return;
    }
    // The turn in flight was started under the old role; never let it continue under the new one.
    if (this.running) {
      const from = this.roleDef.label;
      this.stop();
      this.systemNote(`Stopped the ${from}'s run: switched to the ${to.label}.`);
    }
    this._role = role;
    this.events.emit({ type: 'role_changed', role, ...(reason ? { reason } : {}) });
  }

  stop(): void {
    this.running?.abort();
    this.limit.answer(false);
  }

  continueAfterLimit(allow: boolean): void {
    this.limit.answer(allow);
  }

  cards(): Card[] {
    return this.events.cards();
  }

  snapshot(taskId?: string): HostEvent {
    return this.events.snapshot(this._role, taskId);
  }

  /**
   * A user message. Its `@` mentions (and `attach`: files the CLI's --attach names) are read now and
   * attached once, with the editor's context line when the host gives one; the card keeps them.
   * The `send` row with what only the CLI asks for (a plan required, files attached); through the
   * same gate as `act({ type: 'send' })`.
   */
  send(text: string, opts: { requirePlan?: boolean; attach?: readonly string[] } = {}): Promise<TurnOutcome> {
    return this.gated('send', () => this.sendNow(text, opts));
  }

  private async sendNow(text: string, opts: { requirePlan?: boolean; attach?: readonly string[] } = {}): Promise<TurnOutcome> {
    this.attaching = true;
    let attachments: Attachment[] = [];
    try {
      const resolved = await resolveMentions(text, { host: this.opts.host, paths: this.paths }, { extraFiles: opts.attach, withEditorContext: true });
      for (const r of resolved.reads) this.reads.record(r.real, r.text);
      attachments = resolved.attachments;
    } catch (e) {
      // Reading the mentions failed as a whole: the message still goes, without them (logged).
      this.opts.host.logger.warn(`mentions not attached: ${(e as Error).message}`);
    } finally {
      this.attaching = false;
    }
    this.events.addCard({ kind: 'text', id: this.events.newId('user'), author: 'user', text, role: this._role, ...(attachments.length ? { attachments } : {}), ts: Date.now() });
    const sent = withAttachments(text, attachments);
    this.lastTurn = { kind: 'message', text: sent, role: this._role, requirePlan: opts.requirePlan };
    return this.exclusive(async (signal) => this.turnWithPlanning(sent, signal, { requirePlan: opts.requirePlan }));
  }

  /** Revise and Replan: the user's card to the Planner, then its turn, which must end with a plan. */
  private plannerTurn(m: PlannerMessage): Promise<TurnOutcome> {
    this.events.addCard({ kind: 'text', id: this.events.newId('user'), author: 'user', text: m.text, role: m.role, ts: Date.now() });
    this.lastTurn = { kind: 'message', text: m.text, role: m.role, feedback: m.feedback, requirePlan: true, ...(m.replan ? { replan: m.replan } : {}) };
    return this.exclusive(async (signal) => this.turnWithPlanning(m.text, signal, { feedback: m.feedback, requirePlan: true, ...(m.replan ? { replan: m.replan } : {}) }));
  }

  /**
   * Edit & resend on the user message `cardId`: the task goes back to just before it (that card and
   * every card after it are dropped, the plans are those of the cards kept, the model's
   * conversation is rebuilt from them, and the role the message was sent to is back in force), the
   * files the dropped turns changed are reverted (`files: 'revert'`; when that is refused nothing at
   * all happens, and the chat says why) or kept as they are, the chat and the model are told which,
   * and `text` goes out in its place.
   */
  private async editMessageNow(cardId: string, text: string, files: 'revert' | 'keep'): Promise<TurnOutcome> {
    const card = this.events.card(cardId);
    if (card?.kind !== 'text' || card.author !== 'user') {
      this.errorCard('That message cannot be edited: it is not one of your messages in this task.');
      return 'error';
    }
    const dropped = this.cards().slice(this.cards().findIndex((c) => c.id === cardId));
    const callIds = new Set(dropped.flatMap((c) => (c.kind === 'tool_call' ? [c.call_id] : [])));
    await this.files.settled();
    const changed = this.files.filesChangedBy(callIds);
    let note: { text: string; kind?: 'revert' } | undefined;
    if (changed.length > 0 && files === 'revert') {
      const r = await this.files.revertCalls(callIds, { action: 'edit_message', target: cardId });
      if (!r.ok) return 'error';
      note = { kind: 'revert', text: `You edited an earlier message: the files changed after it were put back (${r.message.replace(/^Reverted /, '').replace(/\.$/, '')}).` };
    } else if (changed.length > 0) {
      note = { text: `You edited an earlier message; the files changed after it were kept as they are now: ${changed.join(', ')}.` };
    }
    // The checkpoints were waited on: a turn started meanwhile (another click) must not be cut under it.
    if (!this.passesGate('edit_message')) return 'error';
    const cards = this.cards();
    const at = cards.findIndex((c) => c.id === cardId);
    const sentAs = (cards[at] as { role?: RoleId }).role;
    const kept = cards.slice(0, at);
    const provenance = Object.fromEntries(this.planning.book.all().map((r) => [r.cardId, r.provenance] as const));
    this.planning.book.restore(recordsFromCards(kept, provenance));
    this.lastTurn = undefined;
    this.lastOutcome = undefined;
    if (sentAs && this.roles.has(sentAs)) this.setRole(sentAs, 'Edit & resend');
    this.events.emit({ type: 'snapshot', cards: kept, role: this._role, ...(this.opts.taskId ? { task_id: this.opts.taskId } : {}) });
    if (note) this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', text: note.text, ...(note.kind ? { note: note.kind } : {}), ts: Date.now() });
    this.talk.restore(rebuildMessages(this.cards()));
    return this.sendNow(text);
  }

  private async retryNow(): Promise<TurnOutcome> {
    const last = this.lastTurn;
    if (!last || (this.lastOutcome !== 'error' && this.lastOutcome !== 'stopped')) {
      this.errorCard('Nothing to retry: the last turn did not fail or stop.');
      return 'error';
    }
    if (last.kind === 'plan') {
      // A plan run is a sequence of steps whose state ended with the run; re-running one turn would skip that bookkeeping.
      this.errorCard('Nothing to retry here: a plan run ended. Execute the plan again to re-run it.');
      return 'error';
    }
    // A revision belongs to the Planner; a plain message runs under the role it was sent to.
    if (last.role !== this._role) this.setRole(last.role, 'Retry');
    // The user message is already in the conversation (and on screen): the turn resumes from it as it stands.
    return this.exclusive(async (signal) => this.turnWithPlanning(last.text, signal, { feedback: last.feedback, requirePlan: last.requirePlan, alreadySent: true, ...(last.replan ? { replan: last.replan } : {}) }));
  }

  /** Runs `body` as the one turn in flight; always ends with `turn_ended` and `idle`. */
  private async exclusive(body: (signal: AbortSignal) => Promise<TurnOutcome>): Promise<TurnOutcome> {
    const controller = new AbortController();
    this.running = controller;
    let outcome: TurnOutcome = 'error';
    try {
      // The hooks in force for this turn, whatever starts it (a message, a plan run, a retry).
      this.userHooks = await this.opts.userHooks?.({ waiting: (detail) => this.setState('waiting_on_user', detail) });
      outcome = await body(controller.signal);
    } catch (err) {
      if (err instanceof QuestionUnanswerable) outcome = 'waiting';
      else if (controller.signal.aborted) outcome = 'stopped';
      else if (err instanceof LlmError) {
        // A request outside the streamed loop (the final plan request) failed: same card as in the loop.
        this.events.addCard({ kind: 'error', id: this.events.newId('error'), message: err.message, ...(err.detail && err.detail !== err.message ? { detail: err.detail } : {}), retryable: err.retryable, failure: err.kind, ts: Date.now() });
        outcome = 'error';
      } else {
        this.opts.host.logger.error(`turn failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        this.errorCard(`Internal error: ${err instanceof Error ? err.message : String(err)}`);
        outcome = 'error';
      }
    } finally {
      if (controller.signal.aborted && outcome !== 'waiting') outcome = 'stopped';
      this.running = undefined;
      this.limit.clear();
      this.lastOutcome = outcome;
    }
    this.setState('idle');
    this.events.emit({ type: 'turn_ended', outcome });
    this.hooks.onTurnEnded?.(outcome);
    return outcome;
  }

  /** Where the user's hooks run in this task (their stdin's session_id, tandem_role, plan_step). */
  private hookScope(): Omit<HookScope, 'signal'> {
    const step = this.planning.execution?.step;
    return { sessionId: this.opts.taskId ?? this.hookSession, role: this._role, ...(step ? { planStep: step } : {}) };
  }

  /**
   * The user's SessionStart (first prompt of this agent) and UserPromptSubmit hooks on a prompt:
   * the text to send with what they added, or undefined when one blocked it (said in the chat).
   */
  private async promptHooks(text: string, signal: AbortSignal): Promise<string | undefined> {
    const hooks = this.userHooks;
    if (!hooks) return text;
    const scope = { ...this.hookScope(), signal };
    const contexts: string[] = [];
    const failed = (warnings: readonly string[]) => { for (const w of warnings) this.hookNote(`Hook failed: ${w}`, 'hook_failed'); };
    if (!this.sessionStarted) {
      this.sessionStarted = true;
      const start = await hooks.sessionStart(this.opts.resume ? 'resume' : 'startup', scope);
      failed(start.warnings);
      if (start.context) contexts.push(start.context);
    }
    const submit = await hooks.userPromptSubmit(text, scope);
    failed(submit.warnings);
    if (submit.block !== undefined) {
      // 'prompt_blocked' keeps the prompt out of a resumed conversation too (rebuildMessages).
      this.events.addCard({ kind: 'error', id: this.events.newId('error'), message: `Blocked by hook: ${submit.block}`, retryable: false, failure: PROMPT_BLOCKED, ts: Date.now() });
      return undefined;
    }
    if (submit.context) contexts.push(submit.context);
    if (!contexts.length) return text;
    const added = contexts.join('\n');
    this.hookNote(`Your hooks added context: ${added}`, 'hook');
    return `${text}\n\n[Context from your hooks]\n${added}`;
  }

  private hookNote(text: string, note: 'hook' | 'hook_failed'): void {
    this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', note, text: maskSecret(text, this.settings.apiKey), ts: Date.now() });
  }

  private async turnWithPlanning(given: string, signal: AbortSignal, opts: { feedback?: string; requirePlan?: boolean; alreadySent?: boolean; replan?: ReplanCarry } = {}): Promise<TurnOutcome> {
    let text = given;
    if (!opts.alreadySent) {
      const withHooks = await this.promptHooks(text, signal);
      if (withHooks === undefined) {
        // Nothing reached the model: a retry has nothing to resend.
        this.lastTurn = undefined;
        return 'error';
      }
      text = withHooks;
      this.talk.appendUser(text);
    }
    if (!this.roleDef.mayPlan) return this.turn(signal);
    const planRole = this._role;
    const planTurn = this.planning.beginPlanTurn(modelFor(this.settings, planRole), opts.feedback, {
      promptVersion: promptVersion(planRole, this.roleDef.systemPrompt(this.catalog())),
      ...(opts.replan ? { replan: opts.replan } : {}),
      fallbacks: this.settings.fallbackModels?.[planRole] ?? [],
    });
    try {
      // A retry after the turn itself had answered (only the plan request after it failed): the model
      // already spoke, so go straight to the plan request rather than send a conversation ending in its answer.
      const last = this.talk.last();
      const answered = opts.alreadySent && opts.requirePlan && last?.role === 'assistant' && !last.tool_calls?.length;
      if (answered) this.usage.startTurn();
      let outcome: TurnOutcome = answered ? 'done' : await this.turn(signal);
      // Revise needs a new plan version: a model that answered without propose_plan is asked for the plan as JSON.
      // Also after a failed propose_plan the model left unrepaired: the same plan turn goes on, so repairs stay bounded.
      // And when the model's repairs ran out and a fallback model is next: it is asked here.
      if (outcome === 'done' && (opts.requirePlan || planTurn.wantsFallbackAnswer) && !planTurn.done) {
        this.setState('thinking');
        // The plan turn says which model answers now (the role's own, or the fallback it moved to).
        const complete: PlanCompleter = (messages, responseFormat, sig) => llmPlanCompleter(this.llm, planTurn.model, answerTokensFor(planTurn.model, this.settings), (r) =>
          emitUsage(this.events, this.usage, { model: r.model, role: planRole, tokensIn: r.usage.tokensIn, tokensOut: r.usage.tokensOut, latencyMs: r.latencyMs, outcome: 'plan' }, this.hooks.onUsage),
          (notice) => this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', note: 'retry', text: notice.message, ts: Date.now() }),
        )(messages, responseFormat, sig);
        let added: PlanMessage[];
        try {
          added = await requestPlan(
            {
              // Fitted like every loop request: this one carries the whole conversation plus the answer that had no plan.
              complete: async (messages, responseFormat, sig) => complete(await this.fitPlanRequest(planTurn.model, planRole, messages, responseFormat, sig), responseFormat, sig),
              structured: this.planning.structured,
              logger: this.opts.host.logger,
              signal,
            },
            // The plan request is the role's own request: its system prompt (with the project's instructions) comes first,
            // as in every loop request, or the model would answer it as nobody in particular.
            [{ role: 'system', content: await this.systemPrompt() }, ...this.talk.messages.map((m) => m as unknown as PlanMessage)],
            planTurn,
          );
        } catch (err) {
          // The fitting hook ended the turn on purpose (cannot fit, budget) and said why in the chat.
          if (isTurnHalt(err)) return err.outcome;
          throw err;
        }
        this.talk.append(...(added as ChatMessage[]));
        outcome = 'done';
      }
      return outcome;
    } finally {
      this.planning.endPlanTurn();
    }
  }

  /** The system prompt the turn loop sends for the current role (role prompt, then project instructions). */
  private async systemPrompt(): Promise<string> {
    const instructions = await this.knowledge?.systemText(this.roleDef);
    return systemPromptFor(this.roleDef, this.catalog(), instructions);
  }

  /** The plan request through the same context fitting as the loop's requests (its schema takes room, like tools do). */
  private async fitPlanRequest(model: string, role: RoleId, messages: PlanMessage[], responseFormat: unknown, signal: AbortSignal): Promise<PlanMessage[]> {
    if (!this.hooks.fitContext) return messages;
    const fitted = await this.hooks.fitContext(messages, model, {
      ...(responseFormat ? { tools: [responseFormat] } : {}),
      maxTokens: answerTokensFor(model, this.settings),
      signal,
      onUsage: (u) => emitUsage(this.events, this.usage, { ...u, role }, this.hooks.onUsage),
    });
    return fitted as PlanMessage[];
  }

  private turn(signal: AbortSignal): Promise<TurnOutcome> {
    return this.turnIn({
      events: this.events, conversation: this.talk, host: this.opts.host, paths: this.paths, reads: this.reads,
      planning: this.planning, hooks: this.hooks, checkpoints: true, setState: (s, detail) => this.setState(s, detail),
    }, signal);
  }

  /**
   * One turn of the executing role in a plan step that runs beside others: its own conversation,
   * events (stamped with its step), plan state, and folder (its worktree, or the workspace when it
   * runs alone there, then with checkpoints as every turn). Its usage counts on its step.
   */
  private branchTurn(b: StepBranch, signal: AbortSignal): Promise<TurnOutcome> {
    return this.turnIn({
      events: b.events, conversation: b.conversation, host: b.host, paths: new WorkspacePaths(b.host.fs), reads: new ReadTracker(),
      planning: b.planning, checkpoints: b.inWorkspace, setState: b.setState, subagent: true,
      hooks: { ...(this.hooks.fitContext ? { fitContext: this.hooks.fitContext } : {}), onUsage: (u) => { b.onUsage(u); this.opts.hooks?.onUsage?.(u); } },
    }, signal);
  }

  private turnIn(scope: TurnScope, signal: AbortSignal): Promise<TurnOutcome> {
    const { planning, host } = scope;
    const userHooks = this.userHooks;
    return runTurn({
      role: () => this.roleDef,
      settings: () => this.settings,
      llm: () => this.llm,
      events: scope.events,
      conversation: scope.conversation,
      tools: this.tools,
      catalog: () => this.catalog(),
      knowledge: this.knowledge,
      usage: this.usage,
      hooks: scope.hooks,
      signal,
      setState: scope.setState,
      ...(scope.subagent ? { stopEvent: 'SubagentStop' as const } : {}),
      dispatchEnv: {
        host,
        paths: scope.paths,
        reads: scope.reads,
        limits: this.settings.limits,
        planning,
        explorers: this.explorers,
        // A step in a worktree is judged (scope, outside-the-workspace) against its own folder.
        policy: () => ({ ...this.policyInput(), roots: host.fs.roots }),
        secret: () => this.settings.apiKey,
        // A step run beside others tells the hooks its own step, and they run in its folder (its worktree):
        // a formatter a PostToolUse hook runs must change the step's copy, not the workspace's.
        ...(userHooks ? { userHooks: { hooks: userHooks, scope: () => ({ ...this.hookScope(), ...(planning.execution?.step ? { planStep: planning.execution.step } : {}), ...(host.fs.roots[0] ? { cwd: host.fs.roots[0] } : {}) }) } } : {}),
        beforeChange: async (abs, callId) => {
          // While a step runs, the file's text before its first change is kept for the step's diff (the Reviewer's view).
          const before = planning.wantsBefore(abs) ? await host.fs.readText(abs).catch(() => null) : undefined;
          await planning.noteChange(abs, before);
          if (scope.checkpoints) await this.hooks.beforeChange?.(abs, callId);
        },
        onSettled: (call) => {
          const card = scope.events.card(call.cardId);
          planning.noteAction({ tool: call.tool, status: call.status, summary: card?.kind === 'tool_call' ? card.summary : call.tool });
          if (scope.checkpoints) this.hooks.onToolCallSettled?.(call);
        },
        askToContinue: (count) => this.limit.ask(count, signal),
      },
    });
  }

  private policyInput(): PolicyInput {
    return { approval: this.settings.approval, commandAllowList: this.settings.commandAllowList, roots: this.opts.host.fs.roots, allowedTools: this.settings.mcpAllowedTools ?? [] };
  }

  private setState(state: AgentState, detail?: string): void {
    if (state === this.state && detail === this.stateDetail) return;
    this.state = state;
    this.stateDetail = detail;
    this.events.emit({ type: 'agent_state', state, ...(detail ? { detail } : {}) });
  }

  private systemNote(text: string): void {
    this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', text, ts: Date.now() });
  }

  private errorCard(message: string): void {
    this.events.addCard({ kind: 'error', id: this.events.newId('error'), message, retryable: false, ts: Date.now() });
  }
}
