import { openaiSdk } from './openaiSdk';
import { maskSecret, MIN_SLICE } from '../secrets/secretMask';
import { findRedirectRefused } from './sameOriginFetch';

export type LlmFailureKind =
  | 'stopped'
  | 'idle_timeout'
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'auth'
  | 'not_found'
  | 'bad_request'
  | 'connection'
  | 'malformed'
  | 'cut_off'
  | 'length'
  | 'api_error'
  | 'redirect'
  | 'deadline'
  | 'unknown';

/** A request that failed, with a message a user can act on (never containing the API key). */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmFailureKind,
    message: string,
    readonly opts: { detail?: string; retryable?: boolean; status?: number; partialText?: string; partialToolCalls?: number; hint?: string } = {},
  ) {
    super(message);
    this.name = 'LlmError';
  }
  get retryable(): boolean {
    return this.opts.retryable ?? false;
  }
  get detail(): string | undefined {
    return this.opts.detail;
  }
  /** The likely fix, when the error says what it is (also already part of `message`). */
  get hint(): string | undefined {
    return this.opts.hint;
  }
}

export interface FailureContext {
  baseURL: string;
  maxRetries: number;
  idleTimeoutMs: number;
  apiKey?: string;
  /** What had already arrived when it failed. */
  partialText?: string;
  partialToolCalls?: number;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** Never let the key travel into a message, a log line or a card. */
export function redact(text: string, apiKey?: string): string {
  if (!apiKey || apiKey.length < 4) return text;
  // Any piece of a real key (secretMask.ts); a short placeholder only when it appears whole.
  return apiKey.length >= MIN_SLICE ? maskSecret(text, apiKey) : text.split(apiKey).join('***');
}

function cutNote(ctx: FailureContext): string {
  const n = ctx.partialToolCalls ?? 0;
  return n > 0 ? ` ${n} tool call${n === 1 ? ' was' : 's were'} cut off and not run.` : '';
}

function causeText(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  if (!cause) return '';
  const c = cause as { code?: string; message?: string; cause?: { code?: string } };
  return c.code ?? c.cause?.code ?? c.message ?? String(cause);
}

/**
 * The SDK words an HTTP error as "<status> <server's message>"; the status is said once, by us.
 * An empty message becomes the status text rather than nothing.
 */
function serverMessage(err: unknown, apiKey: string | undefined): string {
  const raw = err instanceof Error ? err.message : String(err);
  const status = (err as { status?: unknown }).status;
  const body = typeof status === 'number' ? raw.replace(new RegExp(`^${status}\\s*`), '') : raw;
  return redact(body.trim() || raw, apiKey);
}

/**
 * Errors that will fail the same way however often they are sent: the server says the request
 * itself is unsupported (llama.cpp answers a request with tools, when started without --jinja, with
 * a 500), so retrying only wastes the wait. Paired with what the user can do about it.
 */
const KNOWN_FIXES: { test: RegExp; hint: string; deterministic: boolean }[] = [
  { test: /--jinja/i, hint: 'Start llama-server with --jinja (tool calls need the model\'s chat template).', deterministic: true },
  { test: /(tools?|function)[^.]*(not supported|unsupported|does not support|not available)|(does not support|doesn't support|not support) (tools|function|tool)/i, hint: 'This model does not support tools: choose a model that supports tool calling.', deterministic: true },
  { test: /(response_format|json_schema|structured output)[^.]*(not supported|unsupported|invalid)|(does not support|not support) (response_format|json_schema|structured)/i, hint: 'The endpoint does not support structured outputs: set tandem.structuredOutputs to "off".', deterministic: true },
  { test: /context (length|window|size)|maximum context|too many tokens|exceeds? the (available )?context|context_length_exceeded|prompt is too long/i, hint: 'The request is larger than the model\'s context window: set tandem.contextWindow (TANDEM_CONTEXT_WINDOW for the CLI) to the window the server really has (llama-server: its -c/--ctx-size), or start a new task.', deterministic: true },
  { test: /not supported|unsupported|not implemented|unknown (parameter|field|argument)|unrecognized (parameter|field|argument)/i, hint: '', deterministic: true },
];

function knownFix(message: string): { hint: string; deterministic: boolean } | undefined {
  return KNOWN_FIXES.find((f) => f.test.test(message));
}

/** Maps whatever the SDK (or fetch underneath it) threw to a readable `LlmError`. */
export function toLlmError(err: unknown, ctx: FailureContext): LlmError {
  if (err instanceof LlmError) return err;
  const refused = findRedirectRefused(err);
  if (refused) return new LlmError('redirect', refused.message, { retryable: false, detail: `${refused.from} → ${refused.to}` });
  const partial = { partialText: ctx.partialText, partialToolCalls: ctx.partialToolCalls };
  const tries = ctx.maxRetries > 0 ? ` after ${ctx.maxRetries + 1} attempts` : '';
  // The SDK's classes from the one loaded instance (openaiSdk.ts): the client threw with those.
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AuthenticationError, BadRequestError, InternalServerError, NotFoundError, PermissionDeniedError, RateLimitError } = openaiSdk();
  const raw = serverMessage(err, ctx.apiKey);
  const fix = err instanceof APIError ? knownFix(raw) : undefined;
  const withHint = (message: string) => (fix?.hint ? `${message.replace(/\.?$/, '.')} ${fix.hint}` : message);
  const mk = (kind: LlmFailureKind, message: string, extra: { retryable?: boolean; status?: number; detail?: string } = {}) =>
    new LlmError(kind, redact(withHint(message), ctx.apiKey), { detail: redact(extra.detail ?? raw, ctx.apiKey), ...partial, ...extra, ...(fix?.hint ? { hint: fix.hint } : {}) });

  if (err instanceof APIUserAbortError) return mk('stopped', 'Stopped.');
  if (err instanceof APIConnectionTimeoutError) {
    return mk('timeout', `The endpoint ${ctx.baseURL} did not answer within ${seconds(ctx.idleTimeoutMs)}${tries}.`, { retryable: true });
  }
  if (err instanceof APIConnectionError) {
    const why = causeText(err);
    const what = /ECONNRESET|socket|terminated|other side closed/i.test(why + raw) ? 'the connection was reset' : why === 'ECONNREFUSED' ? 'the connection was refused' : `the connection failed (${why || raw})`;
    return mk('connection', `Could not reach ${ctx.baseURL}: ${what}${tries}.${cutNote(ctx)}`, { retryable: true });
  }
  if (err instanceof RateLimitError) {
    return mk('rate_limited', `The endpoint is rate-limiting requests (HTTP 429)${ctx.maxRetries > 0 ? `; still limited after ${ctx.maxRetries} retries` : ''}. Wait a moment and try again.`, { retryable: true, status: 429 });
  }
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) {
    // Without a key there was nothing to refuse: say what is missing, not that a key is wrong.
    if (!ctx.apiKey) return mk('auth', `No API key is set, and ${ctx.baseURL} needs one (HTTP ${err.status}). Set the key for it.`, { status: err.status });
    return mk('auth', `The endpoint refused the API key (HTTP ${err.status}). Check the key for ${ctx.baseURL}.`, { status: err.status });
  }
  if (err instanceof NotFoundError) {
    return mk('not_found', `Not found (HTTP 404) at ${ctx.baseURL}: check the base URL and the model name. ${raw}`, { status: 404 });
  }
  if (err instanceof BadRequestError) {
    return mk('bad_request', `The endpoint rejected the request (HTTP 400): ${raw}`, { status: 400 });
  }
  if (err instanceof InternalServerError) {
    // "Unsupported" is an answer, not a fault: the same request would fail again.
    if (fix?.deterministic) return mk('server_error', `The endpoint refused the request (HTTP ${err.status}): ${raw}`, { retryable: false, status: err.status });
    return mk('server_error', `The endpoint failed with HTTP ${err.status}${tries}: ${raw}`, { retryable: true, status: err.status });
  }
  if (err instanceof APIError) {
    if (err.status === undefined) {
      return mk('api_error', `The endpoint reported an error mid-response: ${raw}.${cutNote(ctx)}`, { retryable: true });
    }
    return mk('api_error', `The endpoint answered HTTP ${err.status}: ${raw}`, { retryable: err.status >= 500 && !fix?.deterministic, status: err.status });
  }
  if (err instanceof SyntaxError) {
    return mk('malformed', `The endpoint sent a malformed response (not valid JSON/SSE): ${raw}.${cutNote(ctx)}`, { retryable: true });
  }
  if (err instanceof TypeError && /terminated|fetch failed|socket|ECONNRESET|other side closed/i.test(raw + causeText(err))) {
    return mk('cut_off', `The response stream was cut off before it finished (${raw}${causeText(err) ? `: ${causeText(err)}` : ''}).${cutNote(ctx)}`, { retryable: true });
  }
  return mk('unknown', `The request failed: ${raw}${cutNote(ctx)}`);
}
