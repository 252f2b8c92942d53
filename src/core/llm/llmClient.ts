import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { Logger } from '../ports/ports';
import { nullLogger } from '../ports/ports';
import { LlmError, redact, toLlmError } from './llmError';
import type { AccumulatedToolCall } from './toolCallAccumulator';
import { StreamAssembler } from './streamAssembler';
import type { ProviderFields } from './providerFields';
import { sameOriginFetch } from './sameOriginFetch';
import { abortableSleep, planRetry, readableWait, serverDelayMs, MAX_RETRY_WAIT_MS } from './retryPolicy';
import { openaiSdk } from './openaiSdk';

export interface LlmClientOptions {
  baseURL: string;
  apiKey: string;
  /**
   * Retries for 429/5xx/connection errors (back-off honouring retry-after, capped at 60 s; Stop ends
   * the wait at once) and at most one retry of a timeout. Our loop, not the SDK's (see retryPolicy.ts).
   */
  maxRetries: number;
  /** Abort when the answer makes no progress (no content, reasoning or tool-call bytes) for this long. */
  idleTimeoutMs: number;
  /**
   * How long the first token may take: prompt evaluation on a CPU server can take minutes for a
   * large request, far longer than a pause mid-answer. Default: the idle timeout, at least 5 minutes.
   */
  firstTokenTimeoutMs?: number;
  /** An overall limit per request, retries included, so a drip-feed of tiny deltas ends too. Default 10 minutes. */
  requestDeadlineMs?: number;
  logger?: Logger;
  /** For tests/hosts that need their own fetch. */
  fetch?: typeof fetch;
}

export interface ChatRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionTool[];
  maxTokens?: number;
  /** e.g. `{ type: 'json_schema', json_schema: {...} }` for structured answers. */
  responseFormat?: ChatCompletionCreateParamsStreaming['response_format'];
  toolChoice?: ChatCompletionCreateParamsStreaming['tool_choice'];
  temperature?: number;
  /** The prompt's size as the caller counted it (for "waiting for the first token (prompt N tokens)"). */
  promptTokens?: number;
}

export interface ChatUsage {
  tokensIn: number;
  tokensOut: number;
  /** True when the endpoint sent no usage and the numbers are estimated from characters. */
  estimated: boolean;
}

export interface ChatResult {
  text: string;
  /** Reasoning the model showed (thinking parts, `reasoning_content`, …): not part of the answer. */
  reasoning: string;
  toolCalls: AccumulatedToolCall[];
  /**
   * Fields to send back on this assistant message (the provider's reasoning field on turns with tool
   * calls, unknown delta fields), verbatim; undefined when there are none.
   */
  messageFields?: ProviderFields;
  finishReason: string;
  usage: ChatUsage;
  latencyMs: number;
  model: string;
}

export interface StreamHandlers {
  signal?: AbortSignal;
  /** Each text fragment as it arrives. */
  onText?(delta: string): void;
  /** Each reasoning fragment as it arrives (shown apart from the answer). */
  onReasoning?(delta: string): void;
  /**
   * Tool-call bytes arrived: the calls so far and their characters (progress for a long call), and the
   * arguments so far of the first call to a tool (a plan shown while it is written).
   */
  onToolCallProgress?(progress: { calls: number; chars: number; argumentsOf(tool: string): string | undefined }): void;
  /** The request was sent and nothing has come back yet; `promptTokens` is the caller's count or an estimate. */
  onWaitingForFirstToken?(info: { promptTokens: number; estimated: boolean }): void;
  /** Called on every chunk (for activity indicators). */
  onChunk?(chunk: ChatCompletionChunk): void;
  /** Before waiting to send the request again: `message` says why and for how long (for the chat). */
  onRetry?(notice: RetryNotice): void;
}

export interface RetryNotice {
  /** A sentence for the user, e.g. "No response for 60 s; retrying once." */
  message: string;
  waitMs: number;
  /** 1 for the first retry. */
  retry: number;
  kind: LlmError['kind'];
}

/** One attempt failed: the readable error plus what the SDK threw (for its headers). */
class AttemptFailed extends Error {
  constructor(readonly error: LlmError, readonly raw: unknown) {
    super(error.message);
  }
}

/** ~4 characters per token: only used when an endpoint reports no usage. */
function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export const DEFAULT_REQUEST_DEADLINE_MS = 10 * 60_000;
export const MIN_FIRST_TOKEN_TIMEOUT_MS = 5 * 60_000;

function firstTokenTimeoutMs(o: LlmClientOptions): number {
  return o.firstTokenTimeoutMs ?? Math.max(o.idleTimeoutMs, MIN_FIRST_TOKEN_TIMEOUT_MS);
}

/**
 * One streamed chat completion through the `openai` SDK. A result is returned only when the
 * stream finished properly (a `finish_reason` arrived and nothing threw); anything else is an
 * `LlmError`, so a tool call whose arguments may be cut off can never reach the dispatcher.
 */
export class LlmClient {
  private sdkClient: OpenAI | undefined;
  private readonly logger: Logger;

  constructor(readonly options: LlmClientOptions) {
    this.logger = options.logger ?? nullLogger;
  }

  /**
   * Made on the first request, not with the client: a task makes its client when it opens (at
   * activation too), and loading the SDK (openaiSdk.ts) then would put its cost back on activate().
   */
  private get client(): OpenAI {
    const options = this.options;
    return (this.sdkClient ??= new (openaiSdk().OpenAI)({
      baseURL: options.baseURL,
      // Local endpoints need no key; the SDK insists on one.
      apiKey: options.apiKey || 'no-key',
      // Retries are ours (abortable waits, one timeout retry): the SDK's sleep ignores the abort signal.
      maxRetries: 0,
      // Until the response starts, the first-token limit applies (prompt evaluation happens before it).
      timeout: firstTokenTimeoutMs(options),
      // Redirects are followed only within the configured origin: the request body is the conversation.
      fetch: sameOriginFetch(options.fetch ?? fetch),
      // The SDK logs malformed chunks to the console by default; that would pollute the CLI's output.
      logLevel: 'off',
    }));
  }

  /** `retriesMade` words the error ("after 3 attempts"): what was actually tried, not the setting. */
  private ctx(extra: { partialText?: string; partialToolCalls?: number } = {}, retriesMade = this.options.maxRetries) {
    return { baseURL: this.options.baseURL, maxRetries: retriesMade, idleTimeoutMs: firstTokenTimeoutMs(this.options), apiKey: this.options.apiKey, ...extra };
  }

  async stream(req: ChatRequest, handlers: StreamHandlers = {}): Promise<ChatResult> {
    const started = Date.now();
    if (handlers.signal?.aborted) throw new LlmError('stopped', 'Stopped.');
    const deadline = started + (this.options.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS);
    let timeoutsRetried = 0;
    for (let retries = 0; ; retries++) {
      try {
        return await this.attempt(req, handlers, started, retries, deadline);
      } catch (err) {
        if (!(err instanceof AttemptFailed)) throw err;
        const plan = handlers.signal?.aborted ? undefined : planRetry(err.error, err.raw, retries, this.options.maxRetries, timeoutsRetried);
        if (!plan || Date.now() + plan.waitMs >= deadline) throw err.error;
        const timeout = err.error.kind === 'timeout' || err.error.kind === 'idle_timeout';
        if (timeout) timeoutsRetried++;
        const notice: RetryNotice = { message: this.retryMessage(err.error, err.raw, plan.waitMs, retries + 1), waitMs: plan.waitMs, retry: retries + 1, kind: err.error.kind };
        this.logger.warn(`LLM request failed (${err.error.kind}); ${notice.message}`);
        handlers.onRetry?.(notice);
        await abortableSleep(plan.waitMs, handlers.signal);
      }
    }
  }

  private retryMessage(error: LlmError, raw: unknown, waitMs: number, retry: number): string {
    if (error.kind === 'timeout') return `No response for ${readableWait(firstTokenTimeoutMs(this.options))}; retrying once.`;
    if (error.kind === 'idle_timeout') return `No response for ${readableWait(this.options.idleTimeoutMs)}; retrying once.`;
    const why =
      error.kind === 'rate_limited' ? 'The endpoint is rate-limiting requests (HTTP 429)'
      : error.opts.status ? `The endpoint failed with HTTP ${error.opts.status}`
      : error.kind === 'connection' ? `Could not reach ${this.options.baseURL}`
      : error.message.replace(/\.$/, '');
    const asked = serverDelayMs(raw instanceof openaiSdk().APIError ? (raw.headers as Headers | undefined) : undefined);
    const capped = asked !== undefined && asked > MAX_RETRY_WAIT_MS ? ` (it asked for ${readableWait(asked)}; waiting at most ${readableWait(MAX_RETRY_WAIT_MS)})` : '';
    return `${why}; retrying in ${readableWait(waitMs)}${capped}, retry ${retry} of ${this.options.maxRetries}. Stop cancels the wait.`;
  }

  /** One request and its stream; a failure comes out as `AttemptFailed` so `stream` can decide to retry. */
  private async attempt(req: ChatRequest, handlers: StreamHandlers, started: number, retriesMade: number, deadline: number): Promise<ChatResult> {
    const controller = new AbortController();
    const userSignal = handlers.signal;
    const onUserAbort = () => controller.abort();
    if (userSignal?.aborted) throw new LlmError('stopped', 'Stopped.');
    userSignal?.addEventListener('abort', onUserAbort, { once: true });

    // Which limit stopped the request: the first token's, the idle one's (no progress), or the deadline.
    let fired: 'first_token' | 'idle' | 'deadline' | undefined;
    let timer: NodeJS.Timeout | undefined;
    const arm = (kind: 'first_token' | 'idle', ms: number) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        fired = kind;
        controller.abort();
      }, ms);
    };
    const deadlineTimer = setTimeout(() => {
      fired = 'deadline';
      controller.abort();
    }, Math.max(0, deadline - Date.now()));

    const acc = new StreamAssembler();
    let contentType = '';
    let progressed = false;
    const body: ChatCompletionCreateParamsStreaming = {
      model: req.model,
      messages: req.messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(req.tools && req.tools.length ? { tools: req.tools } : {}),
      ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
      ...(req.responseFormat ? { response_format: req.responseFormat } : {}),
      ...(req.toolChoice ? { tool_choice: req.toolChoice } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    };
    const promptChars = JSON.stringify(req.messages).length + (req.tools ? JSON.stringify(req.tools).length : 0);
    this.logger.debug(`LLM request: model=${req.model} messages=${req.messages.length} tools=${req.tools?.length ?? 0} url=${this.options.baseURL}`);

    try {
      handlers.onWaitingForFirstToken?.({ promptTokens: req.promptTokens ?? estimateTokens(promptChars), estimated: req.promptTokens === undefined });
      const { data: stream, response } = await this.client.chat.completions.create(body, { signal: controller.signal }).withResponse();
      contentType = response.headers.get('content-type') ?? '';
      arm('first_token', firstTokenTimeoutMs(this.options));
      for await (const chunk of stream) {
        const delta = acc.add(chunk);
        handlers.onChunk?.(chunk);
        // Only progress counts: a stream of empty deltas or keep-alives is as good as silence.
        if (delta.progress) {
          progressed = true;
          arm('idle', this.options.idleTimeoutMs);
        }
        if (delta.reasoning) handlers.onReasoning?.(delta.reasoning);
        if (delta.text) handlers.onText?.(delta.text);
        if (delta.progress && acc.calls.size) handlers.onToolCallProgress?.({ calls: acc.calls.size, chars: acc.calls.chars, argumentsOf: (tool) => acc.calls.argumentsOf(tool) });
      }
    } catch (err) {
      throw new AttemptFailed(this.failure(err, fired, userSignal, acc.text, acc.calls.size, retriesMade), err);
    } finally {
      if (timer) clearTimeout(timer);
      clearTimeout(deadlineTimer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
    const text = acc.text;
    // The SDK ends the iteration silently when its signal is aborted: find out why.
    if (userSignal?.aborted) throw new LlmError('stopped', 'Stopped.', { partialText: text, partialToolCalls: acc.calls.size });
    if (fired) throw new AttemptFailed(this.timerError(fired, progressed, text, acc.calls.size, retriesMade), undefined);
    if (acc.streamError) {
      throw new AttemptFailed(new LlmError('api_error', `The endpoint reported an error mid-response: ${redact(acc.streamError, this.options.apiKey)}.${acc.calls.size ? ` ${acc.calls.size} tool call(s) were cut off and not run.` : ''}`, { retryable: true, partialText: text, partialToolCalls: acc.calls.size }), undefined);
    }
    const finishReason = acc.finishReason;
    if (!finishReason && acc.chunks === 0 && !contentType.includes('event-stream')) {
      throw new LlmError('malformed', `The endpoint sent a malformed response: ${contentType || 'no content type'} instead of an event stream, with no usable data.`, { retryable: true });
    }
    if (!finishReason) {
      const n = acc.calls.size;
      throw new LlmError(
        'cut_off',
        `The response stream ended before the model finished (no finish_reason).${n ? ` ${n} tool call${n === 1 ? ' was' : 's were'} cut off and not run.` : ''}`,
        { retryable: true, partialText: text, partialToolCalls: n },
      );
    }
    const toolCalls = acc.calls.list();
    if (finishReason === 'length' && toolCalls.length) {
      throw new LlmError('length', `The model ran out of output tokens (max_tokens) in the middle of a tool call; it was not run. Raise the max tokens setting or ask for smaller steps.`, {
        partialText: text,
        partialToolCalls: toolCalls.length,
      });
    }
    const latencyMs = Date.now() - started;
    const usage = acc.usage;
    const messageFields = acc.messageFields(toolCalls.length > 0);
    return {
      text,
      reasoning: acc.reasoning,
      toolCalls,
      ...(messageFields ? { messageFields } : {}),
      finishReason,
      model: acc.model ?? req.model,
      latencyMs,
      usage: usage && (usage.prompt_tokens !== undefined || usage.completion_tokens !== undefined)
        ? { tokensIn: usage.prompt_tokens ?? 0, tokensOut: usage.completion_tokens ?? 0, estimated: false }
        : { tokensIn: req.promptTokens ?? estimateTokens(promptChars), tokensOut: estimateTokens(acc.outputChars), estimated: true },
    };
  }

  private timerError(fired: 'first_token' | 'idle' | 'deadline', progressed: boolean, text: string, calls: number, retriesMade: number): LlmError {
    if (fired === 'idle') return this.idleError(text, calls, retriesMade);
    const partial = { partialText: text, partialToolCalls: calls };
    const notRun = calls ? ` ${calls} unfinished tool call${calls === 1 ? ' was' : 's were'} not run.` : '';
    if (fired === 'deadline') {
      const limit = readableWait(this.options.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS);
      return new LlmError('deadline', `The request took longer than the overall limit of ${limit}${progressed ? ' (the model was still sending)' : ''}, so it was abandoned.${notRun} Raise the request deadline setting if the model is just slow.`, { retryable: false, ...partial });
    }
    const tries = retriesMade > 0 ? ` after ${retriesMade + 1} attempts` : '';
    return new LlmError('timeout', `The model sent no first token within ${readableWait(firstTokenTimeoutMs(this.options))}${tries} (prompt evaluation on a slow server can take long: raise the first-token timeout setting).`, { retryable: true, ...partial });
  }

  private idleError(text: string, calls: number, retriesMade: number): LlmError {
    const s = Math.round(this.options.idleTimeoutMs / 100) / 10;
    const tries = retriesMade > 0 ? ` after ${retriesMade + 1} attempts` : '';
    return new LlmError('idle_timeout', `The model sent nothing for ${s} s, so the request was abandoned (idle timeout)${tries}.${calls ? ` ${calls} unfinished tool call${calls === 1 ? ' was' : 's were'} not run.` : ''}`, {
      retryable: true,
      partialText: text,
      partialToolCalls: calls,
    });
  }

  private failure(err: unknown, fired: 'first_token' | 'idle' | 'deadline' | undefined, userSignal: AbortSignal | undefined, text: string, calls: number, retriesMade: number): LlmError {
    if (userSignal?.aborted) return new LlmError('stopped', 'Stopped.', { partialText: text, partialToolCalls: calls });
    if (fired) return this.timerError(fired, text.length > 0 || calls > 0, text, calls, retriesMade);
    const e = toLlmError(err, this.ctx({ partialText: text, partialToolCalls: calls }, retriesMade));
    this.logger.warn(`LLM request failed (${e.kind}): ${e.message}`);
    return e;
  }

  /** Model ids the endpoint offers (for "Test connection" / model pickers). */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const ids: string[] = [];
      for await (const m of this.client.models.list({ signal })) ids.push(m.id);
      return ids;
    } catch (err) {
      throw toLlmError(err, this.ctx({}, 0));
    }
  }

  redact(text: string): string {
    return redact(text, this.options.apiKey);
  }
}
