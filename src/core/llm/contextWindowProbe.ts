/**
 * Asks the endpoint how large a model's context window is, before Tandem assumes one. Servers say
 * it in different places:
 * - llama.cpp's llama-server: `GET /props` → `default_generation_settings.n_ctx` (the window it was
 *   started with, per slot), the one that matters; its `/v1/models` only has the training length.
 * - `GET /models` entries: `context_length` (OpenRouter, LM Studio), `max_model_len` (vLLM),
 *   `context_window`, `max_context_length`, or `meta.n_ctx`.
 * Asked once per endpoint and model (a failure too: no server is asked on every request); a
 * server that answers neither leaves the window to the table or the assumed default.
 */
import { sameOriginFetch } from './sameOriginFetch';

const PROBE_TIMEOUT_MS = 3_000;

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

/** The window a `/models` answer gives for `model`, if it gives one. */
export function windowFromModels(body: unknown, model: string): number | undefined {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return undefined;
  const entry = data.find((m) => (m as { id?: unknown })?.id === model) as Record<string, unknown> | undefined;
  if (!entry) return undefined;
  const meta = entry.meta as Record<string, unknown> | undefined;
  return positive(entry.context_length) ?? positive(entry.max_model_len) ?? positive(entry.context_window)
    ?? positive(entry.max_context_length) ?? positive(meta?.n_ctx);
}

/** The window llama-server's `/props` gives (the slot's n_ctx), if it is that server. */
export function windowFromProps(body: unknown): number | undefined {
  const b = body as { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown } | undefined;
  return positive(b?.default_generation_settings?.n_ctx) ?? positive(b?.n_ctx);
}

/** `/props` is at the server's root: the base URL without its `/v1`. */
function propsUrl(base: string): string {
  return `${base.replace(/\/v1$/i, '')}/props`;
}

export class ContextWindowProbe {
  private readonly asked = new Map<string, Promise<number | undefined>>();

  constructor(private readonly fetchFn: typeof fetch = sameOriginFetch(), private readonly timeoutMs = PROBE_TIMEOUT_MS) {}

  /** The window the endpoint reports for `model`, or undefined when it reports none. */
  window(baseURL: string, apiKey: string, model: string): Promise<number | undefined> {
    const base = baseURL.trim().replace(/\/+$/, '');
    const key = `${base}\n${model}`;
    let p = this.asked.get(key);
    if (!p) {
      p = this.probe(base, apiKey, model);
      this.asked.set(key, p);
    }
    return p;
  }

  private async probe(base: string, apiKey: string, model: string): Promise<number | undefined> {
    if (!/^https?:\/\//i.test(base)) return undefined;
    const [props, models] = await Promise.all([this.getJson(propsUrl(base), apiKey), this.getJson(`${base}/models`, apiKey)]);
    return windowFromProps(props) ?? windowFromModels(models, model);
  }

  private async getJson(url: string, apiKey: string): Promise<unknown> {
    try {
      const res = await this.fetchFn(url, {
        headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) { await res.body?.cancel().catch(() => undefined); return undefined; }
      return await res.json();
    } catch {
      return undefined;
    }
  }
}
