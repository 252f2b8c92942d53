import assert from 'node:assert/strict';
import { APIError } from 'openai';
import { LlmError } from '../../../src/core/llm/llmError';
import { MAX_RETRY_WAIT_MS, planRetry, serverDelayMs } from '../../../src/core/llm/retryPolicy';

const apiError = (status: number, headers: Record<string, string>) => APIError.generate(status, { message: 'x' }, 'x', new Headers(headers));

describe('retry policy', () => {
  it('reads retry-after-ms, retry-after seconds and retry-after HTTP dates', () => {
    assert.equal(serverDelayMs(new Headers({ 'retry-after-ms': '250' })), 250);
    assert.equal(serverDelayMs(new Headers({ 'retry-after': '3' })), 3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(serverDelayMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now), 10_000);
    assert.equal(serverDelayMs(new Headers({})), undefined);
  });

  it('caps a long retry-after at 60 s and stops after maxRetries', () => {
    const e = new LlmError('rate_limited', 'limited', { status: 429 });
    assert.deepEqual(planRetry(e, apiError(429, { 'retry-after': '600' }), 0, 2, 0), { waitMs: MAX_RETRY_WAIT_MS, fromServer: true });
    assert.equal(planRetry(e, apiError(429, {}), 2, 2, 0), undefined);
  });

  it('retries a timeout once, never after output reached the user, never against x-should-retry: false, never a 400', () => {
    const t = new LlmError('timeout', 'slow');
    assert.ok(planRetry(t, undefined, 0, 2, 0));
    assert.equal(planRetry(t, undefined, 1, 2, 1), undefined);
    assert.equal(planRetry(new LlmError('connection', 'reset', { partialText: 'Hel' }), undefined, 0, 2, 0), undefined);
    assert.equal(planRetry(new LlmError('server_error', 'x', { status: 500 }), apiError(500, { 'x-should-retry': 'false' }), 0, 2, 0), undefined);
    assert.equal(planRetry(new LlmError('bad_request', 'x', { status: 400 }), apiError(400, {}), 0, 2, 0), undefined);
  });

  it('backs off 0.5 s doubling to 8 s, minus up to a quarter of jitter', () => {
    const e = new LlmError('server_error', 'x', { status: 503 });
    assert.equal(planRetry(e, apiError(503, {}), 0, 9, 0, () => 0)!.waitMs, 500);
    assert.equal(planRetry(e, apiError(503, {}), 1, 9, 0, () => 0)!.waitMs, 1000);
    assert.equal(planRetry(e, apiError(503, {}), 6, 9, 0, () => 0)!.waitMs, 8000);
    assert.equal(planRetry(e, apiError(503, {}), 0, 9, 0, () => 1)!.waitMs, 375);
  });
});
