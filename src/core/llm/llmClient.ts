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

export interface LlmClientOptions {
  baseURL: string;
  apiKey: string;
  /** SDK retries for 429/5xx/timeouts/connection errors (with back-off honouring retry-after). */
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
      maxRetries: options.maxRetries,
      timeout: options.idleTimeoutMs,
      // The SDK logs malformed chunks to the console by default; that would pollute the CLI's output.
      logLevel: 'off',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  private ctx(extra: { partialText?: string; partialToolCalls?: number } = {}) {
    return { baseURL: this.options.baseURL, maxRetries: this.options.maxRetries, idleTimeoutMs: this.options.idleTimeoutMs, apiKey: this.options.apiKey, ...extra };
  }

  async stream(req: ChatRequest, handlers: StreamHandlers = {}): Promise<ChatResult> {
    const started = Date.now();
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
      throw this.failure(err, idleFired, userSignal, text, calls.size);
    } finally {
      if (timer) clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
    // The SDK ends the iteration silently when its signal is aborted: find out why.
    if (userSignal?.aborted) throw new LlmError('stopped', 'Stopped.', { partialText: text, partialToolCalls: calls.size });
    if (idleFired) throw this.idleError(text, calls.size);
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

  private idleError(text: string, calls: number): LlmError {
    const s = Math.round(this.options.idleTimeoutMs / 100) / 10;
    return new LlmError('idle_timeout', `The model sent nothing for ${s} s, so the request was abandoned (idle timeout).${calls ? ` ${calls} unfinished tool call${calls === 1 ? ' was' : 's were'} not run.` : ''}`, {
      retryable: true,
      partialText: text,
      partialToolCalls: calls,
    });
  }

  private failure(err: unknown, idleFired: boolean, userSignal: AbortSignal | undefined, text: string, calls: number): LlmError {
    if (userSignal?.aborted) return new LlmError('stopped', 'Stopped.', { partialText: text, partialToolCalls: calls });
    if (idleFired) return this.idleError(text, calls);
    const e = toLlmError(err, this.ctx({ partialText: text, partialToolCalls: calls }));
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
      throw toLlmError(err, this.ctx());
    }
  }

  redact(text: string): string {
    return redact(text, this.options.apiKey);
  }
}
