/**
 * When and how long to wait before sending a failed request again. Our own loop instead of the
 * openai SDK's: its back-off sleep ignores the abort signal, so Stop during a 429's wait did
 * nothing until the wait was over, and it retried a hanging server on every timeout.
 */
import { openaiSdk } from './openaiSdk';
import { LlmError } from './llmError';

/** Longest we wait for one retry, whatever `retry-after` asks (a user watching a silent chat). */
export const MAX_RETRY_WAIT_MS = 60_000;

export interface RetryPlan {
  waitMs: number;
  /** The wait came from the endpoint (`retry-after`/`retry-after-ms`), not our back-off. */
  fromServer: boolean;
}

/**
 * Whether `error` (with the SDK's `raw` error underneath) may be sent again after `retriesMade`
 * retries, and after how long. Only failures before anything reached the user are retried: text
 * already streamed into the chat would be shown twice. A timeout (the endpoint silent for the whole
 * idle timeout) is retried at most once: a hanging server rarely wakes up, and each try costs a full timeout.
 */
export function planRetry(error: LlmError, raw: unknown, retriesMade: number, maxRetries: number, timeoutsRetried: number, random: () => number = Math.random): RetryPlan | undefined {
  if (retriesMade >= maxRetries) return undefined;
  // Marked as certain to fail again (an unsupported request, a redirect we refuse, the deadline).
  if (error.opts.retryable === false) return undefined;
  if (error.opts.partialText || error.opts.partialToolCalls) return undefined;
  const headers = raw instanceof openaiSdk().APIError ? (raw.headers as Headers | undefined) : undefined;
  const should = headers?.get?.('x-should-retry');
  if (should === 'false') return undefined;
  const isTimeout = error.kind === 'timeout' || error.kind === 'idle_timeout';
  if (isTimeout && timeoutsRetried >= 1) return undefined;
  const status = error.opts.status;
  const retryable =
    should === 'true' ||
    isTimeout ||
    error.kind === 'rate_limited' ||
    error.kind === 'server_error' ||
    error.kind === 'connection' ||
    (error.kind === 'api_error' && status !== undefined && (status === 408 || status === 409 || status >= 500));
  if (!retryable) return undefined;
  const asked = serverDelayMs(headers);
  if (asked !== undefined) return { waitMs: Math.min(asked, MAX_RETRY_WAIT_MS), fromServer: true };
  // The SDK's back-off: 0.5 s doubling up to 8 s, minus up to 25 % jitter.
  const seconds = Math.min(0.5 * 2 ** retriesMade, 8) * (1 - random() * 0.25);
  return { waitMs: Math.round(seconds * 1000), fromServer: false };
}

/** `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date). */
export function serverDelayMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = parseFloat(headers?.get?.('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get?.('retry-after');
  if (!raw) return undefined;
  const s = parseFloat(raw);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with a `stopped` LlmError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError('stopped', 'Stopped.'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError('stopped', 'Stopped.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function readableWait(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
}
