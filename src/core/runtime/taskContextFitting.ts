import { planStateText } from '../plans/planStateText';
import type { Logger } from '../ports/ports';
import type { AgentSettings } from '../settings/settings';
import type { AgentHooks, CountedUsage, FitContextOptions, HookUsage } from '../turn/turnHooks';
import { ContextFitter, ContextOverflowError, type CondenseInfo, type Summarizer, type SummaryResult } from '../context/contextFitter';
import { contentText, type ChatMessage } from '../context/chatMessage';
import { LlmSummarizer } from '../context/llmSummarizer';
import type { TaskFacts } from '../context/taskFacts';
import { TurnHalt } from '../context/turnHalt';
import { answerTokensFor, modelWindow } from '../context/modelWindows';
import { ContextWindowProbe } from '../llm/contextWindowProbe';
import { costOf } from '../cost/priceTable';
import type { TaskCheckpoints } from './taskCheckpoints';
import { partCardIds, type TaskOutput } from './taskOutput';

/** One request as fitted: its size in the model's tokens and the window it must fit (`known`: not assumed). */
export interface ContextMeasure {
  model: string;
  used: number;
  window: number;
  known: boolean;
}

/**
 * Context fitting for one task, the agent's `fitContext` hook: before each request the
 * conversation is elided and, past the window, condensed by the summary model, keeping the task's
 * facts (the plan, the files changed, the questions) word for word. A conversation that cannot fit
 * ends the turn with a clear error; an unknown window is said once per task (not per model, not
 * again after a resume): after that it is noise on every turn.
 */
export class TaskContextFitting {
  readonly fitter: ContextFitter;
  private unknownWindowSaid = false;
  /** Tool calls whose result the user was told was cut to fit. */
  private readonly cutResultsSaid = new Set<string>();
  /** The user's messages (by text) they were told were cut to fit. */
  private readonly cutMessagesSaid = new Set<string>();
  /** The agent's meter for the fit in progress (its summary request is counted there, with the turn's requests). */
  private usageSink?: (u: HookUsage) => void;
  private readonly newId = partCardIds('context');

  constructor(private readonly deps: {
    settings: () => AgentSettings;
    logger: Logger;
    out: TaskOutput;
    /** Runs before every request (the budget's stop-and-ask). */
    beforeRequest?(signal?: AbortSignal): Promise<void>;
    /** A summary request made outside an agent's fit (none is asking) is counted here. */
    countUsage?(usage: CountedUsage): void;
    checkpoints?: TaskCheckpoints;
    /** The role the task is in, for a summary's usage card. */
    role: () => CountedUsage['role'];
    /** Defaults to the agent's endpoint with the summary model. */
    summarizer?: Summarizer;
    /** Each request as fitted: how much of the model's window it takes (the chat's context meter). */
    onMeasured?(m: ContextMeasure): void;
    /** Asks the endpoint for a model's window when the setting gives none (default: over HTTP). */
    windowProbe?: Pick<ContextWindowProbe, 'window'>;
  }) {
    const summarizer =
      deps.summarizer ??
      ({
        summarize: (messages, model, maxTokens, signal) => {
          const s = deps.settings();
          return new LlmSummarizer({ baseURL: s.baseURL, apiKey: s.apiKey, maxRetries: s.limits.maxRetries, idleTimeoutMs: s.limits.requestIdleTimeoutMs, firstTokenTimeoutMs: s.limits.firstOutputTimeoutMs, requestDeadlineMs: s.limits.requestDeadlineMs, logger: deps.logger }, (notice) =>
            this.note('retry', `Condensing the conversation: ${notice.message}`),
          ).summarize(messages, model, maxTokens, signal);
        },
      } satisfies Summarizer);
    this.probe = deps.windowProbe ?? new ContextWindowProbe();
    this.fitter = new ContextFitter({
      // The window the endpoint reported stands in for the setting, for the model it was reported for.
      settings: () => this.withReportedWindow(deps.settings()),
      summarizer,
      facts: () => this.facts(),
      onCondensed: (i) => this.onCondensed(i),
      onSummaryUsage: (u) => this.onSummaryUsage(u),
      onUserMessageCut: (i) => {
        // Cut again before every request of the turn: said once per message.
        const key = contentText((i.message as { content?: unknown }).content);
        if (this.cutMessagesSaid.has(key)) return;
        this.cutMessagesSaid.add(key);
        this.note('context', `Your message was too large for ${i.model}'s ${i.window.toLocaleString('en-US')}-token window and was cut to fit (about ${i.tokensAfter.toLocaleString('en-US')} of ${i.tokensBefore.toLocaleString('en-US')} tokens kept, its beginning and end): the model did not see the middle. Attach less, or set the context window setting if the server's window is larger.`);
      },
      onToolResultCut: (i) => this.onToolResultCut(i),
    });
  }

  readonly hooks: Pick<AgentHooks, 'fitContext'> = {
    fitContext: (request, model, o) => this.fitContext(request as ChatMessage[], model, o),
  };

  /** What condensing must keep word for word, read from the cards as the chat shows them. */
  facts(): TaskFacts {
    let plan: TaskFacts['plan'];
    let planText: string | undefined;
    let planState: string | undefined;
    let versions = 0;
    const questions: TaskFacts['questions'] = [];
    const decisions: string[] = [];
    for (const c of this.deps.out.cards()) {
      if (c.kind === 'plan') versions++;
      if (c.kind === 'plan' && !c.superseded) {
        plan = c.plan ?? undefined;
        planText = c.plan ? undefined : c.raw_text;
        planState = planStateText(c, versions);
      }
      if (c.kind === 'plan' && c.executing) decisions.push(`The user chose to execute plan v${c.version}.`);
      if (c.kind === 'question') questions.push({ question: c.question.question, ...(c.answer !== undefined ? { answer: c.answer } : {}), status: c.status });
      if (c.kind === 'tool_call' && c.status === 'rejected') // The error says who said no (a person, or the policy without asking anyone: rejectionText.ts).
        decisions.push(`${c.tool} (${c.summary}) was not approved${c.error ? `: ${c.error.slice(0, 200)}` : ''}.`);
      if (c.kind === 'tool_call' && c.reverted) decisions.push(`The user reverted ${c.tool} (${c.summary}).`);
    }
    return { ...(plan ? { plan } : {}), ...(planText ? { planText } : {}), ...(planState ? { planState } : {}), touchedFiles: this.deps.checkpoints?.touchedFiles() ?? [], questions, decisions };
  }

  private readonly probe: Pick<ContextWindowProbe, 'window'>;
  /** The window the endpoint reported for the model being fitted (none: the setting, the table or the default). */
  private reported: { model: string; window: number } | undefined;

  private withReportedWindow(s: AgentSettings): AgentSettings {
    return s.contextWindow || !this.reported ? s : { ...s, contextWindow: this.reported.window };
  }

  /** The window `model` has here: the setting, else what the endpoint reports (asked once per model), else the table or the default. */
  private async windowOf(model: string): Promise<{ settings: AgentSettings; w: ReturnType<typeof modelWindow> }> {
    const raw = this.deps.settings();
    // No setting: the endpoint is asked (once per model) before a window is assumed.
    const reported = raw.contextWindow ? undefined : await this.probe.window(raw.baseURL, raw.apiKey, model);
    this.reported = reported ? { model, window: reported } : undefined;
    const settings = this.withReportedWindow(raw);
    return { settings, w: modelWindow(model, settings.contextWindow) };
  }

  /**
   * How much of `model`'s window `request` would take, told as a fitted request's is (the chat's
   * context meter): a resumed task's conversation shows its size before the next request. Nothing
   * is condensed, nothing is asked of the model, and nothing is said in the chat.
   */
  async measure(request: readonly ChatMessage[], model: string, tools?: readonly unknown[]): Promise<void> {
    const { w } = await this.windowOf(model);
    this.deps.onMeasured?.({ model, used: Math.round(this.fitter.requestTokens(request, tools) * w.tokenFactor), window: w.window, known: w.known });
  }

  private async fitContext(request: ChatMessage[], model: string, o?: FitContextOptions): Promise<ChatMessage[]> {
    await this.deps.beforeRequest?.(o?.signal);
    const { settings, w } = await this.windowOf(model);
    // A resumed task said it before this session (its cards are the task's whole chat).
    this.unknownWindowSaid ||= this.deps.out.cards().some((c) => c.kind === 'text' && (c.note === 'context_window' || (c.note === 'context' && c.text.startsWith('The context window of '))));
    if (!w.known && !this.unknownWindowSaid) {
      this.unknownWindowSaid = true;
      // The chat shows it on its Context meter (once per model, not a paragraph per task); the CLI prints it.
      this.note('context_window', `The context window of ${model} is not known (the endpoint reports none at /models or /props), so Tandem assumes ${w.window.toLocaleString('en-US')} tokens (answers of up to ${answerTokensFor(model, settings).toLocaleString('en-US')} tokens) and condenses early. Set the context window setting to the size your server is configured for.`);
    }
    this.usageSink = o?.onUsage;
    try {
      const fitted = await this.fitter.fit(request, model, { ...(o?.tools ? { tools: o.tools } : {}), ...(o?.maxTokens ? { maxTokens: o.maxTokens } : {}), ...(o?.signal ? { signal: o.signal } : {}) });
      // In the model's tokens (ours scaled as the fitter scales them), tool schemas included.
      this.deps.onMeasured?.({ model, used: Math.round(this.fitter.requestTokens(fitted, o?.tools) * w.tokenFactor), window: w.window, known: w.known });
      return fitted;
    } catch (err) {
      if (err instanceof ContextOverflowError) {
        this.deps.out.emit({ type: 'card_added', card: { kind: 'error', id: this.newId('overflow'), message: err.message, retryable: false, ts: Date.now() } });
        throw new TurnHalt('error', err.message);
      }
      throw err;
    } finally {
      this.usageSink = undefined;
    }
  }

  private onCondensed(i: CondenseInfo): void {
    this.note('condensed',
      `Context condensed: the ${i.turns} earliest turn${i.turns === 1 ? '' : 's'} (${i.messages} messages) were summarised by ${i.summaryModel} ` +
      `to fit ${i.model}'s ${i.window.toLocaleString('en-US')}-token window (about ${i.tokensBefore.toLocaleString('en-US')} → ${i.tokensAfter.toLocaleString('en-US')} tokens). ` +
      `The plan, the files changed and the questions were kept word for word.` +
      (i.summaryFailed ? ` The summary model failed (${i.summaryFailed}); only those facts were kept.` : ''));
  }

  private onSummaryUsage(u: SummaryResult): void {
    // The agent counts it (usage card, turn and task totals, the budget) when it asked for this fit.
    if (this.usageSink) {
      this.usageSink({ model: u.model, tokensIn: u.tokensIn, tokensOut: u.tokensOut, latencyMs: u.latencyMs, outcome: 'summary' });
      return;
    }
    const cost = costOf(u.model, u.tokensIn, u.tokensOut, this.deps.settings().prices);
    const role = this.deps.role();
    this.deps.out.emit({
      type: 'card_added',
      card: { kind: 'usage', id: this.newId('usage'), model: u.model, role, tokens_in: u.tokensIn, tokens_out: u.tokensOut, latency_ms: u.latencyMs, ...(cost !== undefined ? { cost_usd: cost } : {}), outcome: 'summary', ts: Date.now() },
    });
    this.deps.countUsage?.({ model: u.model, role, tokensIn: u.tokensIn, tokensOut: u.tokensOut, ...(cost !== undefined ? { costUsd: cost } : {}), outcome: 'summary' });
  }

  /**
   * The loop keeps the whole result and fits again before every request, so the same result is cut
   * again each time: the user is told once per call.
   */
  private onToolResultCut(i: { toolCallId: string; tokensBefore: number; tokensAfter: number; window: number; model: string }): void {
    if (this.cutResultsSaid.has(i.toolCallId)) return;
    this.cutResultsSaid.add(i.toolCallId);
    const card = this.deps.out.cards().find((c) => c.kind === 'tool_call' && c.call_id === i.toolCallId);
    const what = card?.kind === 'tool_call' ? `${card.tool} (${card.summary})` : 'a tool';
    this.note('context', `The result of ${what} was too large for ${i.model}'s ${i.window.toLocaleString('en-US')}-token window and was cut to fit (about ${i.tokensAfter.toLocaleString('en-US')} of ${i.tokensBefore.toLocaleString('en-US')} tokens kept, its beginning and end): the model did not see the middle. Ask for a narrower range or search, or set the context window setting if the server's window is larger.`);
  }

  private note(note: 'context' | 'context_window' | 'condensed' | 'retry', text: string): void {
    this.deps.out.emit({ type: 'card_added', card: { kind: 'text', id: this.newId(note), author: 'system', note, text, ts: Date.now() } });
  }
}
