/**
 * Everything history adds to one task, in one object the hosts wire around the Agent:
 * history (the recorder taps the event stream), checkpoints (`beforeChange`, post-images when a
 * tool call finishes, revert), context fitting (`fitContext`: elide, condense, refuse) and the
 * per-task budget (warn at 80%, stop and ask at 100%).
 *
 *   const session = await TaskSession.open({ store, host, settings: () => s, workspace });
 *   const agent = new Agent({ host, settings: s, emit: session.tap(sink), hooks: session.hooks, resume: session.resumeState });
 *   session.attach(agent);
 */
import * as path from 'node:path';
import type { Card, HostEvent, HostEventInput, Question } from '../../protocol';
import { QuestionUnanswerable, type HostPorts } from '../ports';
import type { AgentSettings } from '../settings';
import type { AgentHooks, FitContextOptions, HookUsage, ResumeState } from '../agent/agentApi';
import type { PlanRecord } from '../plans/planRecord';
import { CheckpointStore, DEFAULT_CHECKPOINT_LIMITS, type CheckpointLimits, type RevertResult } from '../checkpoints/checkpointStore';
import { revertDiffs, revertRefusalText } from '../checkpoints/revertRefusalText';
import { ContextFitter, ContextOverflowError, type CondenseInfo, type Summarizer, type SummaryResult } from '../context/contextFitter';
import type { ChatMessage } from '../context/chatMessage';
import { LlmSummarizer } from '../context/llmSummarizer';
import type { TaskFacts } from '../context/taskFacts';
import { TurnHalt } from '../context/turnHalt';
import { answerTokensFor, modelWindow } from '../context/modelWindows';
import { TaskBudget } from '../cost/budget';
import { costOf, formatUsd } from '../cost/priceTable';
import type { HistoryStore } from './historyStore';
import { rebuildMessages } from './rebuildMessages';
import type { TaskRecorder } from './taskRecorder';

/** The slice of the Agent the session needs after construction. */
export interface SessionAgent {
  readonly role: string;
  readonly events: { emit(e: HostEventInput): unknown; card(id: string): Card | undefined; cards(): Card[] };
  readonly planning?: { book: { all(): readonly PlanRecord[] } };
  /** The conversation the loop sends (the Agent's own array): notes for the model are appended between turns. */
  readonly conversation?: readonly unknown[];
  readonly busy?: boolean;
}

export interface TaskSessionOptions {
  store: HistoryStore;
  host: Pick<HostPorts, 'fs' | 'asker' | 'logger'>;
  settings: () => AgentSettings;
  workspace?: string;
  /** Resume this task (id or unique prefix) instead of starting a new one. */
  resumeId?: string;
  checkpointLimits?: CheckpointLimits;
  /** Defaults to the agent's endpoint with the summary model. */
  summarizer?: Summarizer;
}

const TERMINAL = new Set(['done', 'error', 'rejected', 'refused']);

export class TaskSession {
  readonly hooks: AgentHooks;
  readonly checkpoints: CheckpointStore;
  readonly fitter: ContextFitter;
  readonly budget: TaskBudget;
  private agent?: SessionAgent;
  private readonly callOfCard = new Map<string, string>();
  private readonly cardOfCall = new Map<string, string>();
  private readonly notRevertible = new Map<string, string>();
  private noteCount = 0;
  /** Notes for the model (reverts) waiting for the turn in flight to end. */
  private readonly modelNotes: string[] = [];
  private budgetLimitOverride?: number;
  private readonly unpricedWarned = new Set<string>();
  private readonly unknownWindowSaid = new Set<string>();
  /** The agent's meter for the fit in progress (its summary request is counted there, with the turn's requests). */
  private usageSink?: (u: HookUsage) => void;

  private constructor(
    private readonly opts: TaskSessionOptions,
    readonly recorder: TaskRecorder,
    readonly resumeState: ResumeState | undefined,
  ) {
    this.checkpoints = new CheckpointStore(path.join(recorder.dir, 'checkpoints'), opts.host.fs, opts.checkpointLimits ?? DEFAULT_CHECKPOINT_LIMITS);
    const spent = recorder.state.usage(opts.settings().prices).cost_usd ?? 0;
    this.budget = new TaskBudget(opts.settings().taskBudgetUsd, spent);
    for (const c of recorder.state.cards()) if (c.kind === 'tool_call') this.link(c.id, c.call_id);
    const summarizer =
      opts.summarizer ??
      ({
        summarize: (messages, model, maxTokens, signal) => {
          const s = opts.settings();
          return new LlmSummarizer({ baseURL: s.baseURL, apiKey: s.apiKey, maxRetries: s.limits.maxRetries, idleTimeoutMs: s.limits.requestIdleTimeoutMs, logger: opts.host.logger }, (notice) =>
            this.emit({ type: 'card_added', card: { kind: 'text', id: this.noteId('summary-retry'), author: 'system', note: 'retry', text: `Condensing the conversation: ${notice.message}`, ts: Date.now() } }),
          ).summarize(messages, model, maxTokens, signal);
        },
      } satisfies Summarizer);
    this.fitter = new ContextFitter({
      settings: () => opts.settings(),
      summarizer,
      facts: () => this.facts(),
      onCondensed: (i) => this.onCondensed(i),
      onSummaryUsage: (u) => this.onSummaryUsage(u),
    });
    this.hooks = {
      beforeChange: (abs, callId) => this.beforeChange(abs, callId),
      fitContext: (messages, model, o) => this.fitContext(messages as ChatMessage[], model, o),
    };
  }

  /** A new task, synchronously (hosts that start a task inside a constructor). */
  static create(opts: Omit<TaskSessionOptions, 'resumeId'>): TaskSession {
    const provenance = () => (session.agent?.planning?.book.all() ?? []).map((r) => ({ cardId: r.cardId, provenance: r.provenance }));
    const session: TaskSession = new TaskSession(opts, opts.store.create({ workspace: opts.workspace, planProvenance: provenance, prices: () => opts.settings().prices }), undefined);
    return session;
  }

  /** A new task, or the saved task `resumeId` continued. */
  static async open(opts: TaskSessionOptions): Promise<TaskSession> {
    if (!opts.resumeId) return TaskSession.create(opts);
    const provenance = () => (session.agent?.planning?.book.all() ?? []).map((r) => ({ cardId: r.cardId, provenance: r.provenance }));
    const common = { workspace: opts.workspace, planProvenance: provenance, prices: () => opts.settings().prices };
    let session: TaskSession;
    {
      const { recorder, task } = await opts.store.resume(opts.resumeId!, common);
      const resume: ResumeState = {
        cards: task.cards,
        messages: rebuildMessages(task.cards),
        usage: { tokens_in: task.meta.usage.tokens_in, tokens_out: task.meta.usage.tokens_out, ...(task.meta.usage.cost_usd !== undefined ? { cost_usd: task.meta.usage.cost_usd } : {}) },
        idPrefix: `r${Date.now().toString(36)}-`,
        planProvenance: task.provenance,
      };
      session = new TaskSession(opts, recorder, resume);
    }
    return session;
  }

  get id(): string {
    return this.recorder.id;
  }

  /** The role the resumed task was in. */
  get resumedRole(): 'planner' | 'actor' | undefined {
    return this.resumeState ? this.recorder.state.role : undefined;
  }

  /** Wraps the host's sink: every event goes to the sink first, then to history and the session. */
  tap(sink: (e: HostEvent) => void): (e: HostEvent) => void {
    return (e) => {
      sink(e);
      this.recorder.onEvent(e);
      this.observe(e);
    };
  }

  attach(agent: SessionAgent): void {
    this.agent = agent;
  }

  private emit(e: HostEventInput): void {
    if (!this.agent) {
      this.opts.host.logger.warn(`task session: no agent attached, dropped ${e.type}`);
      return;
    }
    this.agent.events.emit(e);
  }

  /** Adds a card outside the sink call that triggered it (no re-entrant emits). */
  private later(e: HostEventInput): void {
    queueMicrotask(() => this.emit(e));
  }

  private link(cardId: string, callId: string): void {
    this.callOfCard.set(cardId, callId);
    this.cardOfCall.set(callId, cardId);
  }

  private observe(e: HostEvent): void {
    if (e.type === 'card_added' && e.card.kind === 'tool_call') this.link(e.card.id, e.card.call_id);
    if (e.type === 'card_added' && e.card.kind === 'usage' && e.card.outcome !== 'summary') {
      const c = e.card;
      const cost = c.cost_usd ?? costOf(c.model, c.tokens_in, c.tokens_out, this.opts.settings().prices);
      if (cost === undefined && this.budget.limit > 0 && (c.tokens_in > 0 || c.tokens_out > 0) && !this.unpricedWarned.has(c.model)) {
        this.unpricedWarned.add(c.model);
        this.later({ type: 'card_added', card: { kind: 'error', id: this.noteId('budget-unpriced'), message: `The task budget cannot count requests to ${c.model}: its price is unknown. Add it to the prices setting (USD per million tokens, input and output).`, retryable: false, ts: Date.now() } });
      }
      const notice = this.budget.add(cost);
      if (notice) this.later({ type: 'card_added', card: { kind: 'error', id: this.noteId('budget'), message: notice.message, retryable: false, ts: Date.now() } });
    }
    if (e.type === 'turn_ended') this.flushModelNotes();
    if (e.type === 'card_patched' && typeof e.patch.status === 'string' && TERMINAL.has(e.patch.status)) {
      const callId = this.callOfCard.get(e.id);
      if (callId) void this.afterCall(callId, e.id);
    }
  }

  private noteId(kind: string): string {
    return `note-${kind}-${Date.now().toString(36)}-${++this.noteCount}`;
  }

  private async beforeChange(absPath: string, callId: string): Promise<void> {
    const note = await this.checkpoints.beforeChange(absPath, callId);
    if (note && !this.notRevertible.has(callId)) {
      this.notRevertible.set(callId, note);
      // Said at once, before the change lands: the user learns it cannot be undone from here.
      this.emit({ type: 'card_added', card: { kind: 'text', id: this.noteId('not-revertible'), author: 'system', note: 'context', text: note, ts: Date.now() } });
    }
  }

  private async afterCall(callId: string, cardId: string): Promise<void> {
    try {
      await this.checkpoints.afterCall(callId);
      const st = this.checkpoints.callState(callId);
      if (!st.changed) return;
      this.emit({ type: 'card_patched', id: cardId, patch: { revertible: st.revertible, ...(st.note ? { revert_note: st.note } : {}) } });
    } catch (err) {
      this.opts.host.logger.warn(`checkpoint after ${callId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Waits for post-images still being taken (tests and revert call this). */
  async settled(): Promise<void> {
    await this.checkpoints.afterCall('\u0000none');
  }

  facts(): TaskFacts {
    const cards = this.agent?.events.cards() ?? this.recorder.state.cards();
    let plan: TaskFacts['plan'];
    let planText: string | undefined;
    const questions: TaskFacts['questions'] = [];
    const decisions: string[] = [];
    for (const c of cards) {
      if (c.kind === 'plan' && !c.superseded) {
        plan = c.plan ?? undefined;
        planText = c.plan ? undefined : c.raw_text;
      }
      if (c.kind === 'plan' && c.executing) decisions.push(`The user chose to execute plan v${c.version}.`);
      if (c.kind === 'question') questions.push({ question: c.question.question, ...(c.answer !== undefined ? { answer: c.answer } : {}), status: c.status });
      if (c.kind === 'tool_call' && c.status === 'rejected') // The error says who said no (a person, or the policy without asking anyone: rejectionText.ts).
        decisions.push(`${c.tool} (${c.summary}) was not approved${c.error ? `: ${c.error.slice(0, 200)}` : ''}.`);
      if (c.kind === 'tool_call' && c.reverted) decisions.push(`The user reverted ${c.tool} (${c.summary}).`);
    }
    return { ...(plan ? { plan } : {}), ...(planText ? { planText } : {}), touchedFiles: this.checkpoints.touchedFiles(), questions, decisions };
  }

  private async fitContext(messages: ChatMessage[], model: string, o?: FitContextOptions): Promise<ChatMessage[]> {
    await this.checkBudget(o?.signal);
    const w = modelWindow(model, this.opts.settings().contextWindow);
    if (!w.known && !this.unknownWindowSaid.has(model)) {
      this.unknownWindowSaid.add(model);
      this.emit({
        type: 'card_added',
        card: { kind: 'text', id: this.noteId('window'), author: 'system', note: 'context', text: `The context window of ${model} is not known, so Tandem assumes ${w.window.toLocaleString('en-US')} tokens (answers of up to ${answerTokensFor(model, this.opts.settings()).toLocaleString('en-US')} tokens) and condenses early. Set the context window setting to the size your server is configured for.`, ts: Date.now() },
      });
    }
    this.usageSink = o?.onUsage;
    try {
      return await this.fitter.fit(messages, model, { ...(o?.tools ? { tools: o.tools } : {}), ...(o?.maxTokens ? { maxTokens: o.maxTokens } : {}), ...(o?.signal ? { signal: o.signal } : {}) });
    } catch (err) {
      if (err instanceof ContextOverflowError) {
        this.emit({ type: 'card_added', card: { kind: 'error', id: this.noteId('overflow'), message: err.message, retryable: false, ts: Date.now() } });
        throw new TurnHalt('error', err.message);
      }
      throw err;
    } finally {
      this.usageSink = undefined;
    }
  }

  /** At 100% of the budget: stop before the request and ask whether to go on (with a higher limit). */
  private async checkBudget(signal?: AbortSignal): Promise<void> {
    const limit = this.budgetLimitOverride ?? this.opts.settings().taskBudgetUsd;
    if (limit !== this.budget.limit && this.budgetLimitOverride === undefined) this.budget.setLimit(limit);
    if (this.budget.state !== 'exceeded') return;
    const base = this.opts.settings().taskBudgetUsd || this.budget.limit;
    const raised = this.budget.spent + base;
    const question: Question = {
      question: `This task's budget of ${formatUsd(this.budget.limit)} is used up (${formatUsd(this.budget.spent)} spent). Continue?`,
      context: 'The agent stopped before its next request. Continuing raises this task\'s budget; the setting stays as it is.',
      severity: 'major',
      options: [
        { label: `Continue up to ${formatUsd(raised)}`, value: 'raise', description: `Allows another ${formatUsd(base)}.` },
        { label: 'Stop here', value: 'stop' },
      ],
      default: 'stop',
      allow_custom: false,
    };
    const cardId = this.noteId('budget-question');
    this.emit({ type: 'card_added', card: { kind: 'error', id: this.noteId('budget'), message: this.budget.exceededMessage(), retryable: false, ts: Date.now() } });
    this.emit({ type: 'card_added', card: { kind: 'question', id: cardId, question, status: 'waiting', ts: Date.now() } });
    this.emit({ type: 'agent_state', state: 'waiting_on_user' });
    let answer: string;
    try {
      answer = await this.opts.host.asker.ask(question, cardId, signal ?? new AbortController().signal);
    } catch (err) {
      if (err instanceof QuestionUnanswerable) {
        throw new TurnHalt('waiting', this.budget.exceededMessage());
      }
      this.emit({ type: 'card_patched', id: cardId, patch: { status: 'cancelled' } });
      throw new TurnHalt('stopped', 'Stopped at the budget question.');
    }
    this.emit({ type: 'card_patched', id: cardId, patch: { status: 'answered', answer } });
    if (answer !== 'raise') throw new TurnHalt('waiting', this.budget.exceededMessage());
    this.budgetLimitOverride = raised;
    this.budget.setLimit(raised);
  }

  private onCondensed(i: CondenseInfo): void {
    const text =
      `Context condensed: the ${i.turns} earliest turn${i.turns === 1 ? '' : 's'} (${i.messages} messages) were summarised by ${i.summaryModel} ` +
      `to fit ${i.model}'s ${i.window.toLocaleString('en-US')}-token window (about ${i.tokensBefore.toLocaleString('en-US')} → ${i.tokensAfter.toLocaleString('en-US')} tokens). ` +
      `The plan, the files changed and the questions were kept word for word.` +
      (i.summaryFailed ? ` The summary model failed (${i.summaryFailed}); only those facts were kept.` : '');
    this.emit({ type: 'card_added', card: { kind: 'text', id: this.noteId('condensed'), author: 'system', note: 'context', text, ts: Date.now() } });
  }

  private onSummaryUsage(u: SummaryResult): void {
    const cost = costOf(u.model, u.tokensIn, u.tokensOut, this.opts.settings().prices);
    const role = this.agent?.role === 'actor' ? 'actor' : 'planner';
    // The agent counts it (usage card + turn/task totals) when it asked for this fit; otherwise the card comes from here.
    if (this.usageSink) this.usageSink({ model: u.model, tokensIn: u.tokensIn, tokensOut: u.tokensOut, latencyMs: u.latencyMs, outcome: 'summary' });
    else this.emit({
      type: 'card_added',
      card: { kind: 'usage', id: this.noteId('usage'), model: u.model, role, tokens_in: u.tokensIn, tokens_out: u.tokensOut, latency_ms: u.latencyMs, ...(cost !== undefined ? { cost_usd: cost } : {}), outcome: 'summary', ts: Date.now() },
    });
    const notice = this.budget.add(cost);
    if (notice) this.emit({ type: 'card_added', card: { kind: 'error', id: this.noteId('budget'), message: notice.message, retryable: false, ts: Date.now() } });
  }

  /** "Revert this change" on a tool card. The outcome is recorded in the chat either way. */
  async revertCall(callId: string): Promise<RevertResult> {
    await this.settled();
    const r = await this.checkpoints.revertCall(callId);
    this.report(r, [callId]);
    return r;
  }

  /** The agent's latest change that is not reverted yet ("Revert Last Change"). */
  lastChangeCallId(): string | undefined {
    const live = this.checkpoints.entries().filter((e) => !e.reverted);
    return live[live.length - 1]?.callId;
  }

  /** "Revert the whole task". */
  async revertTask(): Promise<RevertResult> {
    await this.settled();
    const calls = [...new Set(this.checkpoints.entries().filter((e) => !e.reverted).map((e) => e.callId))];
    const r = await this.checkpoints.revertTask();
    this.report(r, calls);
    return r;
  }

  /** The model must know files went back, or it would build on changes that are gone. */
  private flushModelNotes(): void {
    const conv = this.agent?.conversation as unknown[] | undefined;
    if (!conv || this.agent?.busy || this.modelNotes.length === 0) return;
    conv.push({ role: 'user', content: this.modelNotes.splice(0).map((n) => `[Note from Tandem] ${n}`).join('\n') });
  }

  private report(r: RevertResult, calls: string[]): void {
    if (r.ok) {
      this.modelNotes.push(`The user reverted changes: ${r.message} Re-read these files before changing them again.`);
      this.flushModelNotes();
      for (const c of calls) {
        const cardId = this.cardOfCall.get(c);
        if (cardId) this.emit({ type: 'card_patched', id: cardId, patch: { reverted: true, revertible: false } });
      }
      this.emit({ type: 'card_added', card: { kind: 'text', id: this.noteId('revert'), author: 'system', note: 'revert', text: r.message, ts: Date.now() } });
    } else {
      const diffs = revertDiffs(r.conflicts);
      this.emit({ type: 'card_added', card: { kind: 'error', id: this.noteId('revert'), message: revertRefusalText(r.message, r.conflicts, 'card'), ...(diffs ? { detail: diffs } : {}), retryable: false, ts: Date.now() } });
    }
  }

  /** Waits for post-images still being taken (they are what makes a revert safe), then saves and compacts. */
  async close(): Promise<void> {
    await this.settled();
    this.recorder.close();
  }
}
