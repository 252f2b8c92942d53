import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { Logger } from '../ports';
import { nullLogger } from '../ports';
import { LlmError, redact, toLlmError } from './llmError';
import { ToolCallAccumulator, type AccumulatedToolCall } from './toolCallAccumulator';
import { abortableSleep, planRetry, readableWait, serverDelayMs, MAX_RETRY_WAIT_MS } from './retryPolicy';
import { APIError } from 'openai';

export interface LlmClientOptions {
  baseURL: string;
  apiKey: string;
  /**
   * Retries for 429/5xx/connection errors (back-off honouring retry-after, capped at 60 s; Stop ends
   * the wait at once) and at most one retry of a timeout. Our loop, not the SDK's (see retryPolicy.ts).
   */
  maxRetries: number;
  /** Abort when no byte arrives for this long (also the SDK's wait-for-headers timeout). */
  idleTimeoutMs: number;
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
}

export interface ChatUsage {
  tokensIn: number;
  tokensOut: number;
  /** True when the endpoint sent no usage and the numbers are estimated from characters. */
  estimated: boolean;
}

export interface ChatResult {
  text: string;
  toolCalls: AccumulatedToolCall[];
  finishReason: string;
  usage: ChatUsage;
  latencyMs: number;
  model: string;
}

export interface StreamHandlers {
  signal?: AbortSignal;
  /** Each text fragment as it arrives. */
  onText?(delta: string): void;
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

/**
 * One streamed chat completion through the `openai` SDK. A result is returned only when the
 * stream finished properly (a `finish_reason` arrived and nothing threw); anything else is an
 * `LlmError`, so a tool call whose arguments may be cut off can never reach the dispatcher.
 */
export class LlmClient {
  private readonly client: OpenAI;
  private readonly logger: Logger;

  constructor(readonly options: LlmClientOptions) {
    this.logger = options.logger ?? nullLogger;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      // Local endpoints need no key; the SDK insists on one.
      apiKey: options.apiKey || 'no-key',
      // Retries are ours (abortable waits, one timeout retry): the SDK's sleep ignores the abort signal.
      maxRetries: 0,
      timeout: options.idleTimeoutMs,
      // The SDK logs malformed chunks to the console by default; that would pollute the CLI's output.
      logLevel: 'off',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** `retriesMade` words the error ("after 3 attempts"): what was actually tried, not the setting. */
  private ctx(extra: { partialText?: string; partialToolCalls?: number } = {}, retriesMade = this.options.maxRetries) {
    return { baseURL: this.options.baseURL, maxRetries: retriesMade, idleTimeoutMs: this.options.idleTimeoutMs, apiKey: this.options.apiKey, ...extra };
  }

  async stream(req: ChatRequest, handlers: StreamHandlers = {}): Promise<ChatResult> {
    const started = Date.now();
    if (handlers.signal?.aborted) throw new LlmError('stopped', 'Stopped.');
    let timeoutsRetried = 0;
    for (let retries = 0; ; retries++) {
      try {
        return await this.attempt(req, handlers, started, retries);
      } catch (err) {
        if (!(err instanceof AttemptFailed)) throw err;
        const plan = handlers.signal?.aborted ? undefined : planRetry(err.error, err.raw, retries, this.options.maxRetries, timeoutsRetried);
        if (!plan) throw err.error;
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
    if (error.kind === 'timeout' || error.kind === 'idle_timeout') return `No response for ${readableWait(this.options.idleTimeoutMs)}; retrying once.`;
    const why =
      error.kind === 'rate_limited' ? 'The endpoint is rate-limiting requests (HTTP 429)'
      : error.opts.status ? `The endpoint failed with HTTP ${error.opts.status}`
      : error.kind === 'connection' ? `Could not reach ${this.options.baseURL}`
      : error.message.replace(/\.$/, '');
    const asked = serverDelayMs(raw instanceof APIError ? (raw.headers as Headers | undefined) : undefined);
    const capped = asked !== undefined && asked > MAX_RETRY_WAIT_MS ? ` (it asked for ${readableWait(asked)}; waiting at most ${readableWait(MAX_RETRY_WAIT_MS)})` : '';
    return `${why}; retrying in ${readableWait(waitMs)}${capped}, retry ${retry} of ${this.options.maxRetries}. Stop cancels the wait.`;
  }

  /** One request and its stream; a failure comes out as `AttemptFailed` so `stream` can decide to retry. */
  private async attempt(req: ChatRequest, handlers: StreamHandlers, started: number, retriesMade: number): Promise<ChatResult> {
    const controller = new AbortController();
    const userSignal = handlers.signal;
    const onUserAbort = () => controller.abort();
    if (userSignal?.aborted) throw new LlmError('stopped', 'Stopped.');
    userSignal?.addEventListener('abort', onUserAbort, { once: true });

    let idleFired = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, this.options.idleTimeoutMs);
    };

    let text = '';
    let finishReason: string | undefined;
    let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined;
    let model = req.model;
    let contentType = '';
    let chunks = 0;
    const calls = new ToolCallAccumulator();
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
    this.logger.debug(`LLM request: model=${req.model} messages=${req.messages.length} tools=${req.tools?.length ?? 0} url=${this.options.baseURL}`);

    try {
      const { data: stream, response } = await this.client.chat.completions.create(body, { signal: controller.signal }).withResponse();
      contentType = response.headers.get('content-type') ?? '';
      arm();
      for await (const chunk of stream) {
        arm();
        chunks++;
        handlers.onChunk?.(chunk);
        if (chunk.model) model = chunk.model;
        if (chunk.usage) usage = chunk.usage;
        for (const choice of chunk.choices ?? []) {
          const delta = choice.delta;
          if (delta?.content) {
            text += delta.content;
            handlers.onText?.(delta.content);
          }
          calls.add(delta?.tool_calls);
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
      }
    } catch (err) {
      throw new AttemptFailed(this.failure(err, idleFired, userSignal, text, calls.size, retriesMade), err);
    } finally {
      if (timer) clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
    // The SDK ends the iteration silently when its signal is aborted: find out why.
    if (userSignal?.aborted) throw new LlmError('stopped', 'Stopped.', { partialText: text, partialToolCalls: calls.size });
    if (idleFired) throw new AttemptFailed(this.idleError(text, calls.size, retriesMade), undefined);
    if (!finishReason && chunks === 0 && !contentType.includes('event-stream')) {
      throw new LlmError('malformed', `The endpoint sent a malformed response: ${contentType || 'no content type'} instead of an event stream, with no usable data.`, { retryable: true });
    }
    if (!finishReason) {
      const n = calls.size;
      throw new LlmError(
        'cut_off',
        `The response stream ended before the model finished (no finish_reason).${n ? ` ${n} tool call${n === 1 ? ' was' : 's were'} cut off and not run.` : ''}`,
        { retryable: true, partialText: text, partialToolCalls: n },
      );
    }
    const toolCalls = calls.list();
    if (finishReason === 'length' && toolCalls.length) {
      throw new LlmError('length', `The model ran out of output tokens (max_tokens) in the middle of a tool call; it was not run. Raise the max tokens setting or ask for smaller steps.`, {
        partialText: text,
        partialToolCalls: toolCalls.length,
      });
    }
    const latencyMs = Date.now() - started;
    const promptChars = JSON.stringify(req.messages).length + (req.tools ? JSON.stringify(req.tools).length : 0);
    const outChars = text.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
    return {
      text,
      toolCalls,
      finishReason,
      model,
      latencyMs,
      usage: usage
        ? { tokensIn: usage.prompt_tokens ?? 0, tokensOut: usage.completion_tokens ?? 0, estimated: false }
        : { tokensIn: estimateTokens(promptChars), tokensOut: estimateTokens(outChars), estimated: true },
    };
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

  private failure(err: unknown, idleFired: boolean, userSignal: AbortSignal | undefined, text: string, calls: number, retriesMade: number): LlmError {
    if (userSignal?.aborted) return new LlmError('stopped', 'Stopped.', { partialText: text, partialToolCalls: calls });
    if (idleFired) return this.idleError(text, calls, retriesMade);
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
