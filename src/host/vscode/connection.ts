import { openaiSdk } from '../../core/llm/openaiSdk';
import { toLlmError } from '../../core/llm/llmError';

export type ConnectionResult = { ok: true; models: string[] } | { ok: false; error: string; status?: number };

/**
 * "Test connection" in the setup card and the model picker: lists the endpoint's models with the
 * openai SDK. On failure the endpoint's own error comes back (key redacted), so the user sees
 * "401 Incorrect API key" or "ECONNREFUSED 127.0.0.1:11434", not a generic failure.
 */
export async function listModels(baseURL: string, apiKey: string, timeoutMs = 10_000): Promise<ConnectionResult> {
  const url = baseURL.trim().replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(url)) return { ok: false, error: `"${baseURL}" is not an http(s) URL.` };
  // Local servers (Ollama, LM Studio, llama.cpp) need no key, but the SDK insists on one.
  const client = new (openaiSdk().OpenAI)({ baseURL: url, apiKey: apiKey || 'no-key', timeout: timeoutMs, maxRetries: 0 });
  try {
    const ids: string[] = [];
    for await (const m of client.models.list()) {
      ids.push(m.id);
      if (ids.length >= 2000) break;
    }
    return { ok: true, models: [...new Set(ids)].sort((a, b) => a.localeCompare(b)) };
  } catch (e) {
    const err = toLlmError(e, { baseURL: url, maxRetries: 0, idleTimeoutMs: timeoutMs, apiKey });
    const detail = err.detail && err.detail !== err.message ? ` (${err.detail})` : '';
    return { ok: false, error: `${err.message}${detail}`, status: err.opts.status };
  }
}
