/**
 * The agent: one task's conversation, its role, its cards and its plans. Implements `AgentApi`
 * for the VS Code panel, the CLI and tests. Everything the user sees leaves through `emit` as
 * stamped `HostEvent`s; `cards()` is rebuilt from those very events.
 */
import { resolveMentions } from '../mentions/resolveMentions';
import { withAttachments } from '../mentions/attachmentText';
import type { AgentState, Attachment, Card, HostEvent, RoleId } from '../../protocol';
import { EventStream } from '../events';
import { LlmClient, LlmError } from '../llm';
import { QuestionUnanswerable } from '../ports/ports';
import { ReadTracker } from '../tools/readTracker';
import { PRODUCT_ROLES, type RoleDef } from '../roles/roles';
import { modelFor, type AgentSettings } from '../settings/settings';
import type { ToolCatalog } from '../tools/tool';
import type { ToolRegistry } from '../tools/toolRegistry';
import { productToolRegistry } from '../tools';
import type { RoleRegistry } from '../../protocol';
import { WorkspacePaths } from '../workspace/workspacePaths';
import { UsageMeter } from '../cost/usageMeter';
import { Planning } from '../plans/planning';
import { insideWorkspace } from '../plans/validatePlan';
import { executePlanSteps } from '../plans/executePlanSteps';
import { runStepCheck } from '../plans/runStepCheck';
import { inScopePolicy } from '../plans/amendmentGate';
import type { PolicyInput } from '../policy/approvalPolicy';

import { requestPlan, type PlanCompleter, type PlanMessage } from '../plans/requestPlan';
import { replanOf } from '../plans/replanBrief';
import type { ReplanCarry } from '../plans/planTurn';
import { stepDiff } from '../plans/stepDiff';
import { Reviewer } from '../review/reviewer';
import { promptVersion } from '../prompts/promptVersion';
import { formatUsd } from '../cost/priceTable';
import { llmPlanCompleter } from '../plans/llmPlanCompleter';
import { recordsFromCards } from '../plans/recordsFromCards';
import { rebuildMessages } from '../history/rebuildMessages';
import type { AgentApi, AgentHooks, AgentOptions, TurnOutcome } from './agentApi';
import { emitUsage, runTurn, systemPromptFor } from './turnLoop';
import { limitQuestion } from './limitQuestion';
import { isTurnHalt } from '../context/turnHalt';
import { Conversation, type ConversationMessage } from '../context/conversation';
import type { ChatMessage } from '../context/chatMessage';
import { answerTokensFor } from '../context/modelWindows';
import { ProjectKnowledge } from '../knowledge/projectKnowledge';

/** How much of a check's output is kept as the step's evidence (head and tail). */
const CHECK_OUTPUT_CHARS = 4000;

export class Agent implements AgentApi {
  private _role: RoleId;
  private settings: AgentSettings;
  private llm: LlmClient;
  readonly events: EventStream;
  readonly planning: Planning;
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
  private limitWaiter: ((allow: boolean) => void) | undefined;
  /** What the last turn was and how it ended, so `retry` can run it again without re-adding the user message. */
  private lastTurn: { kind: 'message'; text: string; role: RoleId; feedback?: string; requirePlan?: boolean; replan?: ReplanCarry } | { kind: 'plan' } | undefined;
  private lastOutcome: TurnOutcome | undefined;
  /** AGENTS.md and the other instruction files, and skills: read once per task, shown once in the chat. */
  private readonly knowledge: ProjectKnowledge;

  constructor(private readonly opts: AgentOptions) {
    this.roles = opts.roles ?? PRODUCT_ROLES;
    // A role that is not (or no longer) in the registry — e.g. from an old history file — starts where a new task does.
    this._role = opts.role && this.roles.has(opts.role) ? opts.role : this.roles.initial.id;
    this.settings = opts.settings;
    // Every request's usage is also counted on the plan card (per role, per step) and against a step's budget.
    this.hooks = { ...opts.hooks, onUsage: (u) => { this.countPlanUsage(u); opts.hooks?.onUsage?.(u); } };
    const onEvent = opts.hooks?.onEvent;
    this.events = new EventStream(onEvent ? (e) => { opts.emit(e); onEvent(e); } : opts.emit, opts.resume?.idPrefix ?? 'c');
    this.tools = opts.tools ?? productToolRegistry();
    this.paths = new WorkspacePaths(opts.host.fs);
    this.usage = new UsageMeter(opts.settings.prices, opts.resume?.usage);
    if (opts.resume) {
      // A resumed task: its cards are already on screen/in history (not re-emitted); the model gets the earlier turns.
      this.events.store.apply({ type: 'snapshot', seq: 0, cards: opts.resume.cards, role: this._role });
      this.talk.restore(opts.resume.messages);
    }
    this.llm = this.makeClient();
    this.knowledge = new ProjectKnowledge({ fs: opts.host.fs, settings: () => this.settings.knowledge, ui: this.events, logger: opts.host.logger });
    // load_skill is offered once the task's skills are found (none: nothing is added to the prompt).
    this.tools.add(this.knowledge.skills);
    this.planning = new Planning(this.events, {
      logger: opts.host.logger,
      structuredOutputs: opts.settings.structuredOutputs,
      planRepairTries: opts.settings.limits.planRepairTries,
      isInside: insideWorkspace(this.paths),
      stepTools: () => this.catalog().stepTools,
      diagnostics: opts.host.diagnostics,
    });
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
    });
  }

  /** The step whose budget this request counts against, if any: over the cap, the step is stopped (its checkpoint stays). */
  private stepStop: AbortController | undefined;

  private countPlanUsage(u: { role: RoleId; tokensIn: number; tokensOut: number; costUsd?: number }): void {
    const step = this.planning.noteUsage(u.role, { tokensIn: u.tokensIn, tokensOut: u.tokensOut, ...(u.costUsd !== undefined ? { costUsd: u.costUsd } : {}) });
    const cap = this.settings.stepBudgetUsd ?? 0;
    if (!step || cap <= 0 || step.costUsd === undefined || step.costUsd < cap) return;
    this.planning.stopForBudget(`step ${step.step} reached its budget of ${formatUsd(cap)} (${formatUsd(step.costUsd)} spent); its changes so far are kept and can be reverted`);
    this.stepStop?.abort();
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
    this.limitWaiter?.(false);
  }

  continueAfterLimit(allow: boolean): void {
    this.limitWaiter?.(allow);
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
   */
  async send(text: string, opts: { requirePlan?: boolean; attach?: readonly string[] } = {}): Promise<TurnOutcome> {
    if (this.running || this.attaching) {
      this.errorCard('The agent is still working on the previous message. Stop it first, or wait.');
      return 'error';
    }
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

  /**
   * Why the user message `cardId` cannot be edited now, or undefined when it can (it is one of the
   * user's messages in this task and no turn is in flight).
   */
  cannotRewindTo(cardId: string): string | undefined {
    if (this.running) return 'The agent is still working; stop it before editing a message.';
    const card = this.events.card(cardId);
    if (card?.kind !== 'text' || card.author !== 'user') return 'That message cannot be edited: it is not one of your messages in this task.';
    return undefined;
  }

  /**
   * Edit & resend, the conversation part: the task goes back to just before the user message
   * `cardId` (that card and every card after it are dropped, and the model's conversation is
   * rebuilt from the cards that remain, plus `note` when given), and the role the message was
   * sent to is back in force. The caller deals with the files changed after that point (the
   * checkpoints) and sends the edited text. False (said in the chat) when it cannot be done.
   */
  rewindTo(cardId: string, opts: { taskId?: string; note?: { text: string; kind?: 'revert' } } = {}): boolean {
    const why = this.cannotRewindTo(cardId);
    if (why) {
      this.errorCard(why);
      return false;
    }
    const cards = this.cards();
    const at = cards.findIndex((c) => c.id === cardId);
    const sentAs = (cards[at] as { role?: RoleId }).role;
    const kept = cards.slice(0, at);
    const provenance = Object.fromEntries(this.planning.book.all().map((r) => [r.cardId, r.provenance] as const));
    this.planning.book.restore(recordsFromCards(kept, provenance));
    this.lastTurn = undefined;
    this.lastOutcome = undefined;
    if (sentAs && this.roles.has(sentAs)) this.setRole(sentAs, 'Edit & resend');
    this.events.emit({ type: 'snapshot', cards: kept, role: this._role, ...(opts.taskId ? { task_id: opts.taskId } : {}) });
    if (opts.note) this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', text: opts.note.text, ...(opts.note.kind ? { note: opts.note.kind } : {}), ts: Date.now() });
    this.talk.restore(rebuildMessages(this.cards()));
    return true;
  }

  async retry(): Promise<TurnOutcome> {
    if (this.running) {
      this.errorCard('The agent is still working; stop it before retrying.');
      return 'error';
    }
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

  async executePlan(planCardId: string, opts: { fromStep?: number } = {}): Promise<TurnOutcome> {
    if (this.running) {
      this.errorCard('The agent is busy; stop it before executing a plan.');
      return 'error';
    }
    const executor = this.roles.executor;
    if (!executor) {
      this.errorCard('No role here executes plans.');
      return 'error';
    }
    const record = this.planning.book.get(planCardId);
    // With review required before Execute, an unreviewed version is reviewed first; a verdict other than ok stops
    // here and the card shows it — Execute again is then the user's deliberate override.
    if (record?.plan && this.settings.reviewPlans && !record.review && this.reviewer.role) {
      const outcome = await this.reviewPlan(planCardId);
      const verdict = this.planning.book.get(planCardId)?.review?.verdict?.verdict;
      if (outcome !== 'done' || verdict !== 'ok') return outcome;
    }
    const begun = this.planning.beginExecution(planCardId, opts.fromStep);
    if (!begun.ok) {
      this.errorCard(begun.error);
      return 'error';
    }
    this.setRole(executor.id, 'Execute plan');
    this.lastTurn = { kind: 'plan' };
    // The executing role's first message says which plan it executes (the hand-off is visible in the chat).
    this.events.addCard({ kind: 'text', id: this.events.newId('text'), author: 'assistant', text: begun.announcement, role: executor.id, ts: Date.now() });
    const plan = begun.execution.record.plan;
    return this.exclusive(async (signal) =>
      executePlanSteps(this.planning, begun.brief, {
        runTurn: async (message) => {
          if (signal.aborted) return 'stopped';
          this.talk.appendUser(message);
          // Each step runs under its own stop, so its budget can end it without stopping the task.
          const step = new AbortController();
          const onAbort = () => step.abort();
          signal.addEventListener('abort', onAbort, { once: true });
          this.stepStop = step;
          try {
            return await this.turn(step.signal);
          } finally {
            this.stepStop = undefined;
            signal.removeEventListener('abort', onAbort);
          }
        },
        reviewStep: async (step, ended) => {
          const mode = this.settings.reviewSteps ?? 'off';
          if (mode === 'off' || !this.reviewer.role || signal.aborted) return undefined;
          if (mode === 'on_failure' && ended.state === 'done') return undefined;
          const exec = this.planning.execution;
          const diff = exec ? await stepDiff(this.opts.host.fs, this.opts.host.fs.roots[0] ?? '.', exec.before) : '';
          this.setState('thinking', `The ${this.reviewer.role.label} is looking at step ${step.step_number}`);
          const result = await this.reviewer.reviewStep(plan, step, ended, diff, signal);
          this.planning.book.setStepReview(planCardId, step.step_number, result);
          return result;
        },
        runCheck: (command, stepNumber) => runStepCheck(command, stepNumber, {
          ui: this.events,
          host: this.opts.host,
          // The check is in its step's scope by definition: plan-scope approval covers it like the step's commands.
          policy: inScopePolicy(this.policyInput(), 'command'),
          cwd: this.opts.host.fs.roots[0] ?? '.',
          roots: this.opts.host.fs.roots,
          timeoutMs: this.settings.limits.commandTimeoutMs,
          maxOutputChars: CHECK_OUTPUT_CHARS,
          signal,
        }),
        root: this.opts.host.fs.roots[0] ?? '.',
        aborted: () => signal.aborted,
        newErrors: () => this.planning.execution?.problems.newErrorLines(this.opts.host.fs.roots[0] ?? '.') ?? Promise.resolve([]),
      }),
    );
  }

  /** The plan card's Review: the Reviewer judges the version; the verdict goes on the card. */
  async reviewPlan(planCardId: string): Promise<TurnOutcome> {
    if (this.running) {
      this.errorCard('The agent is busy; stop it before reviewing a plan.');
      return 'error';
    }
    const record = this.planning.book.get(planCardId);
    if (!record?.plan) {
      this.errorCard(record ? `Plan v${record.version} could not be validated, so there is nothing to review. Revise it first.` : `No plan with id ${planCardId} in this task.`);
      return 'error';
    }
    const reviewer = this.reviewer.role;
    if (!reviewer) {
      this.errorCard('No role here reviews plans.');
      return 'error';
    }
    const plan = record.plan;
    return this.exclusive(async (signal) => {
      this.usage.startTurn();
      this.setState('thinking', `The ${reviewer.label} is reviewing plan v${record.version}`);
      this.planning.beginReview(planCardId);
      try {
        const result = await this.reviewer.reviewPlan(plan, record.version, signal);
        this.planning.book.setReview(planCardId, result);
        return 'done';
      } finally {
        this.planning.endReview();
      }
    });
  }

  /**
   * After a failed step or a `replan` verdict: the Planner proposes the next version from the goal,
   * the steps that ran (with their outputs), the ones that remain, why it stopped and the earlier
   * replans; the steps that ran are kept in the new version as they ended.
   */
  async replan(planCardId: string): Promise<TurnOutcome> {
    if (this.running) {
      this.errorCard('The agent is busy; stop it before replanning.');
      return 'error';
    }
    const record = this.planning.book.get(planCardId);
    if (!record) {
      this.errorCard(`No plan with id ${planCardId} in this task.`);
      return 'error';
    }
    const planner = this.roles.planner;
    if (!planner) {
      this.errorCard('No role here answers with plans.');
      return 'error';
    }
    const r = replanOf(record, this.planning.book.all());
    if ('error' in r) {
      this.errorCard(r.error);
      return 'error';
    }
    this.setRole(planner.id, 'Replan');
    this.events.addCard({ kind: 'text', id: this.events.newId('user'), author: 'user', text: r.message, role: planner.id, ts: Date.now() });
    this.lastTurn = { kind: 'message', text: r.message, role: planner.id, feedback: r.why, requirePlan: true, replan: r.carry };
    return this.exclusive(async (signal) => this.turnWithPlanning(r.message, signal, { feedback: r.why, requirePlan: true, replan: r.carry }));
  }

  async revisePlan(planCardId: string, feedback: string, stepComments: readonly { step: number; text: string }[] = []): Promise<TurnOutcome> {
    if (this.running) {
      this.errorCard('The agent is busy; stop it before revising a plan.');
      return 'error';
    }
    const record = this.planning.book.get(planCardId);
    if (!record) {
      this.errorCard(`No plan with id ${planCardId} in this task.`);
      return 'error';
    }
    const planner = this.roles.planner;
    if (!planner) {
      this.errorCard('No role here answers with plans.');
      return 'error';
    }
    this.setRole(planner.id, 'Revise plan');
    // Comments on single steps travel with the feedback, each naming its step (and the step's action, so the Planner need not look it up).
    const comments = stepComments.map((c) => `- step ${c.step}${record.plan?.steps[c.step - 1] ? ` ("${record.plan.steps[c.step - 1]!.action.slice(0, 80)}")` : ''}: ${c.text.trim()}`);
    feedback = [feedback.trim(), comments.length ? `Comments on steps:\n${comments.join('\n')}` : ''].filter(Boolean).join('\n');
    const text = `Revise plan v${record.version}: ${feedback}`;
    this.events.addCard({ kind: 'text', id: this.events.newId('user'), author: 'user', text, role: planner.id, ts: Date.now() });
    this.lastTurn = { kind: 'message', text, role: planner.id, feedback, requirePlan: true };
    return this.exclusive(async (signal) => this.turnWithPlanning(text, signal, { feedback, requirePlan: true }));
  }

  /** Runs `body` as the one turn in flight; always ends with `turn_ended` and `idle`. */
  private async exclusive(body: (signal: AbortSignal) => Promise<TurnOutcome>): Promise<TurnOutcome> {
    const controller = new AbortController();
    this.running = controller;
    let outcome: TurnOutcome = 'error';
    try {
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
      this.limitWaiter = undefined;
      this.lastOutcome = outcome;
    }
    this.setState('idle');
    this.events.emit({ type: 'turn_ended', outcome });
    this.hooks.onTurnEnded?.(outcome);
    return outcome;
  }

  private async turnWithPlanning(text: string, signal: AbortSignal, opts: { feedback?: string; requirePlan?: boolean; alreadySent?: boolean; replan?: ReplanCarry } = {}): Promise<TurnOutcome> {
    if (!opts.alreadySent) this.talk.appendUser(text);
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
    return runTurn({
      role: () => this.roleDef,
      settings: () => this.settings,
      llm: () => this.llm,
      events: this.events,
      conversation: this.talk,
      tools: this.tools,
      catalog: () => this.catalog(),
      knowledge: this.knowledge,
      usage: this.usage,
      hooks: this.hooks,
      signal,
      setState: (s, detail) => this.setState(s, detail),
      dispatchEnv: {
        host: this.opts.host,
        paths: this.paths,
        reads: this.reads,
        limits: this.settings.limits,
        planning: this.planning,
        policy: () => this.policyInput(),
        secret: () => this.settings.apiKey,
        beforeChange: async (abs, callId) => {
          // While a step runs, the file's text before its first change is kept for the step's diff (the Reviewer's view).
          const before = this.planning.wantsBefore(abs) ? await this.opts.host.fs.readText(abs).catch(() => null) : undefined;
          await this.planning.noteChange(abs, before);
          await this.hooks.beforeChange?.(abs, callId);
        },
        onSettled: (call) => {
          const card = this.events.card(call.cardId);
          this.planning.noteAction({ tool: call.tool, status: call.status, summary: card?.kind === 'tool_call' ? card.summary : call.tool });
          this.hooks.onToolCallSettled?.(call);
        },
        askToContinue: (count) => this.askToContinue(count, signal),
      },
    });
  }

  private policyInput(): PolicyInput {
    return { approval: this.settings.approval, commandAllowList: this.settings.commandAllowList, roots: this.opts.host.fs.roots, allowedTools: this.settings.mcpAllowedTools ?? [] };
  }

  /** At the tool-call limit: a question card, answered by the panel (`continueAfterLimit`) or the host's asker. */
  private async askToContinue(count: number, signal: AbortSignal): Promise<boolean | 'unanswerable'> {
    const question = limitQuestion(count);
    const cardId = this.events.newId('question');
    this.events.addCard({ kind: 'question', id: cardId, question, status: 'waiting', ts: Date.now() });
    this.setState('waiting_on_user');
    const asker = new AbortController();
    const onAbort = () => asker.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await new Promise<boolean | 'unanswerable'>((resolve) => {
        this.limitWaiter = resolve;
        this.opts.host.asker.ask(question, cardId, asker.signal).then(
          (value) => resolve(value === 'continue'),
          (err) => resolve(err instanceof QuestionUnanswerable ? 'unanswerable' : false),
        );
      });
      if (answer === 'unanswerable') return answer;
      this.events.patchCard(cardId, signal.aborted ? { status: 'cancelled' } : { status: 'answered', answer: answer ? 'continue' : 'stop' });
      return signal.aborted ? false : answer;
    } finally {
      this.limitWaiter = undefined;
      asker.abort();
      signal.removeEventListener('abort', onAbort);
      this.setState('calling_tool');
    }
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
