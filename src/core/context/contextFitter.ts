import { createHash } from 'node:crypto';
import type { ChatMessage } from './chatMessage';
import { contentText } from './chatMessage';
import { messagesTokens, messageTokens, toolsTokens } from './messageTokens';
import { answerReserve, modelWindow } from './modelWindows';
import { cutMessage, elideToolCallArgs, elideToolResult } from './elide';
import { emptyFacts, renderSummaryMessage, type TaskFacts } from './taskFacts';
import { pathsInToolCalls, renderTranscript } from './transcript';

export interface SummaryResult {
  text: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
}

/** Asks a model for a summary (one non-tool request). */
export interface Summarizer {
  summarize(messages: ChatMessage[], model: string, maxTokens: number, signal?: AbortSignal): Promise<SummaryResult>;
}

export interface CondenseInfo {
  turns: number;
  messages: number;
  tokensBefore: number;
  tokensAfter: number;
  window: number;
  model: string;
  summaryModel: string;
  /** The summary model failed: only the exact facts were kept. */
  summaryFailed?: string;
}

export interface FitSettings {
  contextWindow?: number;
  maxTokens: number;
  summaryModel?: string;
}

export interface FitOptions {
  tools?: readonly unknown[];
  /** Reserve for the answer; defaults to the settings' maxTokens. */
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface ContextFitterOptions {
  settings: () => FitSettings;
  summarizer?: Summarizer;
  facts?: () => TaskFacts;
  onCondensed?(info: CondenseInfo): void;
  onSummaryUsage?(usage: SummaryResult): void;
  /** The user's own message (with whatever it attached) had to be cut to fit: the user must be told. */
  onUserMessageCut?(info: { tokensBefore: number; tokensAfter: number; window: number; model: string; message: ChatMessage }): void;
  /** A tool's result had to be cut to fit (the model saw only its beginning and end): the user must be told too. */
  onToolResultCut?(info: { toolCallId: string; tokensBefore: number; tokensAfter: number; window: number; model: string }): void;
}

/** Nothing more can be cut: even the system prompt and the last message do not fit. */
export class ContextOverflowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextOverflowError';
  }
}

const SUMMARY_SYSTEM = [
  'You condense the earlier part of a coding agent\'s conversation so the agent can continue without it.',
  'Write a compact summary (at most ~400 words) of: what the user asked for, what was found in the code,',
  'what was changed and why, decisions taken, what failed, and what remains to do. Keep exact file paths,',
  'identifiers and error messages. Do not invent anything. Plain text or short bullet points.',
].join(' ');

const SUMMARY_MAX_TOKENS = 1024;

function fingerprint(messages: readonly ChatMessage[]): string {
  const h = createHash('sha256');
  for (const m of messages) h.update(JSON.stringify(m)).update('\u0000');
  return h.digest('hex');
}

/**
 * Keeps every request under the model's window (the `fitContext` hook). In order, and only as
 * far as needed: cap a single tool result that alone would not fit; elide old tool results
 * (oldest first, with a note in their place); condense the oldest turns into one summary
 * message (exact facts + the summary model's prose); then elide/cut within the current turn.
 * If the request still cannot fit it throws rather than send it.
 *
 * The loop may keep its own full message list and call this before every request: a summary
 * already made for the same prefix is reused, so condensing costs one summary call, not one per
 * request.
 */
export class ContextFitter {
  private readonly tokenCache = new WeakMap<object, number>();
  /** Summaries made so far, in order; each one's key is over the messages as they were after the previous ones. */
  private readonly summaries: { prefixLen: number; key: string; content: string }[] = [];

  constructor(private readonly opts: ContextFitterOptions) {}

  private tokens(m: ChatMessage): number {
    let n = this.tokenCache.get(m);
    if (n === undefined) {
      n = messageTokens(m);
      this.tokenCache.set(m, n);
    }
    return n;
  }

  private total(ms: readonly ChatMessage[]): number {
    return messagesTokens(ms, (m) => this.tokens(m));
  }

  /** How many of our tokens a request may hold for this model, after the reserve for the answer and the tool schemas. */
  budgetFor(model: string, opts: FitOptions = {}): { budget: number; window: number } {
    const s = this.opts.settings();
    const w = modelWindow(model, s.contextWindow);
    // The same cap the loop applies to max_tokens (a quarter of the window), so the two agree.
    const reserve = answerReserve(w.window, opts.maxTokens ?? s.maxTokens);
    // 1% and a few tokens of slack for per-message framing we cannot see.
    const usable = Math.floor((w.window * 0.99 - 16) / w.tokenFactor);
    return { budget: usable - Math.ceil(reserve / 1) - toolsTokens(opts.tools), window: w.window };
  }

  /** Token count of a request as this fitter sees it (tests and the usage display use it). */
  requestTokens(messages: readonly ChatMessage[], tools?: readonly unknown[]): number {
    return this.total(messages) + toolsTokens(tools);
  }

  async fit(input: readonly ChatMessage[], model: string, opts: FitOptions = {}): Promise<ChatMessage[]> {
    const { budget, window } = this.budgetFor(model, opts);
    if (budget <= 0) {
      throw new ContextOverflowError(
        `The answer reserve (max tokens ${opts.maxTokens ?? this.opts.settings().maxTokens}) and tool schemas leave no room in ${model}'s context window of ${window} tokens. Lower max tokens or set the context window.`,
      );
    }
    let msgs = this.applyCachedSummary(mergeAdjacentUsers(input));
    if (this.total(msgs) <= budget) return msgs;
    // Steps 1–2 replace messages in place (same indices), so the summary cache can key on these originals.
    const original = msgs;

    const sysEnd = leadingSystemCount(msgs);
    const fixed = this.total(msgs.slice(0, sysEnd));

    // 1. One tool result that alone would not fit is cut (with a note) before anything else.
    const single = Math.max(64, Math.floor((budget - fixed) * 0.5));
    msgs = msgs.map((m) => {
      if (m.role !== 'tool' || this.tokens(m) <= single) return m;
      const cut = cutMessage(m, single);
      this.toolResultCut(m, cut, window, model);
      return cut;
    });
    if (this.total(msgs) <= budget) return msgs;

    // 2. Elide tool results (and bulky tool-call arguments) of earlier turns, oldest first.
    const lastUser = lastIndexOfRole(msgs, 'user');
    for (let i = sysEnd; i < lastUser && this.total(msgs) > budget; i++) {
      const m = msgs[i];
      if (m.role === 'tool') msgs[i] = elideToolResult(m);
      else if (m.role === 'assistant') msgs[i] = elideToolCallArgs(m);
    }
    if (this.total(msgs) <= budget) return msgs;

    // 3. Condense the oldest turns into one summary message.
    msgs = await this.condense(msgs, original, model, budget, window, opts.signal);
    if (this.total(msgs) <= budget) return msgs;

    // 4. The current turn alone is too big: elide its tool results except the latest, then cut the largest message.
    const lastTool = lastIndexOfRole(msgs, 'tool');
    for (let i = sysEnd; i < msgs.length && this.total(msgs) > budget; i++) {
      if (msgs[i].role === 'tool' && i !== lastTool) msgs[i] = elideToolResult(msgs[i]);
      else if (msgs[i].role === 'assistant') msgs[i] = elideToolCallArgs(msgs[i]);
    }
    for (let guard = 0; guard < 20 && this.total(msgs) > budget; guard++) {
      let big = -1;
      for (let i = sysEnd; i < msgs.length; i++) if (big < 0 || this.tokens(msgs[i]) > this.tokens(msgs[big])) big = i;
      if (big < 0) break;
      const over = this.total(msgs) - budget;
      const target = this.tokens(msgs[big]) - over - 8;
      if (target < 32) break;
      const was = msgs[big];
      const before = this.tokens(was);
      msgs[big] = cutMessage(was, target);
      if (this.tokens(msgs[big]) >= before) break;
      if (was.role === 'user') this.opts.onUserMessageCut?.({ tokensBefore: before, tokensAfter: this.tokens(msgs[big]), window, model, message: was });
      if (was.role === 'tool') this.toolResultCut(was, msgs[big], window, model);
    }
    const n = this.total(msgs);
    if (n > budget) {
      throw new ContextOverflowError(
        `This request needs about ${n} tokens but ${model} has room for ${budget} (window ${window}, minus the answer reserve and tool schemas), even after eliding and condensing. Shorten the system prompt or the message, or use a model with a larger window.`,
      );
    }
    return msgs;
  }

  private toolResultCut(original: ChatMessage, cut: ChatMessage, window: number, model: string): void {
    const toolCallId = (original as { tool_call_id?: string }).tool_call_id ?? '';
    this.opts.onToolResultCut?.({ toolCallId, tokensBefore: this.tokens(original), tokensAfter: this.tokens(cut), window, model });
  }

  private applyCachedSummary(msgs: ChatMessage[]): ChatMessage[] {
    for (const c of this.summaries) {
      if (msgs.length < c.prefixLen) break;
      const sysEnd = leadingSystemCount(msgs);
      if (fingerprint(msgs.slice(sysEnd, c.prefixLen)) !== c.key) break;
      msgs = [...msgs.slice(0, sysEnd), ...withSummary(c.content, msgs.slice(c.prefixLen))];
    }
    return msgs;
  }

  private async condense(msgs: ChatMessage[], original: readonly ChatMessage[], model: string, budget: number, window: number, signal?: AbortSignal): Promise<ChatMessage[]> {
    const sysEnd = leadingSystemCount(msgs);
    const starts: number[] = [];
    for (let i = sysEnd; i < msgs.length; i++) if (msgs[i].role === 'user') starts.push(i);
    if (starts.length < 2) return msgs;
    // Keep the most recent turns that fit in about half the budget; always keep the current turn.
    let keepFrom = starts[starts.length - 1];
    for (let k = starts.length - 2; k >= 1; k--) {
      if (this.total(msgs.slice(starts[k])) > budget * 0.5) break;
      keepFrom = starts[k];
    }
    const head = msgs.slice(sysEnd, keepFrom);
    const tail = msgs.slice(keepFrom);
    const turns = head.filter((m) => m.role === 'user').length;
    if (head.length === 0) return msgs;

    const s = this.opts.settings();
    const summaryModel = s.summaryModel || model;
    const facts = { ...(this.opts.facts?.() ?? emptyFacts()) };
    facts.readFiles = pathsInToolCalls(head).filter((p) => !facts.touchedFiles.some((f) => f.path === p || p.endsWith(`/${f.path}`)));

    let summary = '';
    let failed: string | undefined;
    if (this.opts.summarizer) {
      const sw = modelWindow(summaryModel, summaryModel === model ? s.contextWindow : undefined);
      const maxChars = Math.max(2000, Math.floor((sw.window / sw.tokenFactor - SUMMARY_MAX_TOKENS - 600) * 3));
      const request: ChatMessage[] = [
        { role: 'system', content: SUMMARY_SYSTEM },
        { role: 'user', content: `Conversation to condense:\n\n${renderTranscript(head, maxChars)}` },
      ];
      try {
        const r = await this.opts.summarizer.summarize(request, summaryModel, answerReserve(sw.window, SUMMARY_MAX_TOKENS), signal);
        summary = r.text;
        this.opts.onSummaryUsage?.(r);
      } catch (err) {
        if (signal?.aborted) throw err;
        failed = err instanceof Error ? err.message : String(err);
      }
    } else failed = 'no summary model configured';
    if (failed) summary = `(The summary model failed: ${failed}. Only the facts above were kept.)`;

    const content = renderSummaryMessage(facts, turns, summary);
    this.summaries.push({ prefixLen: keepFrom, key: fingerprint(original.slice(sysEnd, keepFrom)), content });
    const out = [...msgs.slice(0, sysEnd), ...withSummary(content, tail)];
    this.opts.onCondensed?.({
      turns,
      messages: head.length,
      tokensBefore: this.total(msgs),
      tokensAfter: this.total(out),
      window,
      model,
      summaryModel,
      ...(failed ? { summaryFailed: failed } : {}),
    });
    return out;
  }
}

/**
 * The summary goes first in the kept part. Merged into the next user message when there is one,
 * because some chat templates (Mistral's) reject two user messages in a row.
 */
function withSummary(summary: string, tail: ChatMessage[]): ChatMessage[] {
  const first = tail[0];
  if (first && first.role === 'user' && typeof first.content === 'string') {
    return [{ role: 'user', content: `${summary}\n\n---\n\n${first.content}` }, ...tail.slice(1)];
  }
  return [{ role: 'user', content: summary }, ...tail];
}

/** Notes added between turns (a revert) can leave two user messages in a row: merge them. */
function mergeAdjacentUsers(input: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of input) {
    const prev = out[out.length - 1];
    if (prev && prev.role === 'user' && m.role === 'user' && typeof prev.content === 'string' && typeof m.content === 'string') {
      out[out.length - 1] = { role: 'user', content: `${prev.content}\n\n${m.content}` };
    } else out.push(m);
  }
  return out;
}

function leadingSystemCount(msgs: readonly ChatMessage[]): number {
  let i = 0;
  while (i < msgs.length && (msgs[i].role === 'system' || msgs[i].role === 'developer')) i++;
  return i;
}

function lastIndexOfRole(msgs: readonly ChatMessage[], role: ChatMessage['role']): number {
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === role) return i;
  return -1;
}

export { contentText };
