import { normaliseModelName } from '../cost/priceTable';

/**
 * Context windows (input + output tokens) of common models, matched by prefix on the normalised
 * name (router prefix and Ollama tag removed). `tokenFactor` scales our o200k count for families
 * whose tokenizer yields more tokens for the same text (older SentencePiece vocabularies,
 * Claude), so "fits" means fits on their side too.
 */
export interface ModelWindow {
  window: number;
  tokenFactor: number;
}

export const MODEL_WINDOWS: readonly (readonly [prefix: string, info: ModelWindow])[] = [
  // gpt-5 takes 400k in total but at most 272k of input: the input cap is what can overflow.
  ['gpt-5', { window: 272_000, tokenFactor: 1.02 }],
  ['gpt-4.1', { window: 1_047_576, tokenFactor: 1.02 }],
  ['gpt-4o', { window: 128_000, tokenFactor: 1.02 }],
  ['chatgpt-4o', { window: 128_000, tokenFactor: 1.02 }],
  ['gpt-4.5', { window: 128_000, tokenFactor: 1.02 }],
  ['gpt-4-turbo', { window: 128_000, tokenFactor: 1.1 }],
  ['gpt-4-32k', { window: 32_768, tokenFactor: 1.1 }],
  ['gpt-4', { window: 8_192, tokenFactor: 1.1 }],
  ['gpt-3.5-turbo', { window: 16_385, tokenFactor: 1.1 }],
  ['gpt-oss', { window: 131_072, tokenFactor: 1.05 }],
  ['o1-mini', { window: 128_000, tokenFactor: 1.02 }],
  ['o1-preview', { window: 128_000, tokenFactor: 1.02 }],
  ['o1', { window: 200_000, tokenFactor: 1.02 }],
  ['o3', { window: 200_000, tokenFactor: 1.02 }],
  ['o4-mini', { window: 200_000, tokenFactor: 1.02 }],
  ['claude', { window: 200_000, tokenFactor: 1.25 }],
  ['gemini', { window: 1_048_576, tokenFactor: 1.15 }],
  ['deepseek-coder', { window: 16_384, tokenFactor: 1.3 }],
  ['deepseek', { window: 64_000, tokenFactor: 1.15 }],
  // Llama 3.x uses a tiktoken-derived 128k vocabulary close to ours; Llama 3 (8k) and Llama 2 do not have the long window.
  ['llama3.1', { window: 131_072, tokenFactor: 1.1 }],
  ['llama3.2', { window: 131_072, tokenFactor: 1.1 }],
  ['llama3.3', { window: 131_072, tokenFactor: 1.1 }],
  ['llama-3.1', { window: 131_072, tokenFactor: 1.1 }],
  ['llama-3.2', { window: 131_072, tokenFactor: 1.1 }],
  ['llama-3.3', { window: 131_072, tokenFactor: 1.1 }],
  ['llama3', { window: 8_192, tokenFactor: 1.1 }],
  ['llama-3', { window: 8_192, tokenFactor: 1.1 }],
  ['llama2', { window: 4_096, tokenFactor: 1.4 }],
  ['codellama', { window: 16_384, tokenFactor: 1.4 }],
  ['qwen2.5-coder', { window: 32_768, tokenFactor: 1.1 }],
  ['qwen2.5', { window: 32_768, tokenFactor: 1.1 }],
  ['qwen3', { window: 40_960, tokenFactor: 1.1 }],
  ['qwen', { window: 32_768, tokenFactor: 1.1 }],
  ['mistral-large', { window: 131_072, tokenFactor: 1.2 }],
  ['mistral-small', { window: 32_768, tokenFactor: 1.2 }],
  ['mistral-nemo', { window: 131_072, tokenFactor: 1.2 }],
  ['mistral-medium', { window: 131_072, tokenFactor: 1.2 }],
  ['codestral', { window: 262_144, tokenFactor: 1.2 }],
  ['mixtral', { window: 32_768, tokenFactor: 1.4 }],
  // Mistral 7B's 32k SentencePiece vocabulary needs ~30–40% more tokens than o200k for code.
  ['mistral', { window: 32_768, tokenFactor: 1.4 }],
  ['phi3', { window: 4_096, tokenFactor: 1.4 }],
  ['phi4', { window: 16_384, tokenFactor: 1.2 }],
  ['gemma', { window: 8_192, tokenFactor: 1.2 }],
];

/**
 * Unknown models get a small window and a generous factor: a local server's default context is
 * often 4k–8k tokens (llama.cpp, Ollama), and condensing early is cheaper than a 400 error.
 */
export const DEFAULT_WINDOW: ModelWindow = { window: 8_192, tokenFactor: 1.3 };

/** The window for a model: the `contextWindow` setting wins, then the table, then the default. */
export function modelWindow(model: string, override?: number): ModelWindow & { known: boolean } {
  const name = normaliseModelName(model);
  const hit = MODEL_WINDOWS.find(([prefix]) => name.startsWith(prefix));
  const info = hit ? hit[1] : DEFAULT_WINDOW;
  if (override && override > 0) return { window: override, tokenFactor: info.tokenFactor, known: true };
  return { ...info, known: Boolean(hit) };
}

/**
 * The answer reserve: how many tokens of the window are kept free for the model's answer, and the
 * very number sent as `max_tokens` (so the reserve is honest: the answer cannot outgrow it and push
 * prompt + answer past the window).
 *
 * At most a quarter of the window. Why: with the full 4,096-token default on the 8,192-token
 * window assumed for unknown models, and our tokens scaled by 1.3 for an unknown tokenizer, only
 * ~6,200 of our tokens are usable; minus 4,096 for the answer and ~1,000–1,250 of tool schemas,
 * about 900 were left for the system prompt and the whole conversation, so the agent condensed
 * after the first file it read. A quarter (2,048 tokens on 8,192) is still more than a coding
 * answer or a tool call usually takes, and leaves ~2,700 for the conversation: three times as much.
 * We keep the 8,192 default itself: a local server's real context is often that small, and a 400
 * "context length exceeded" is worse than condensing early. Windows of 16k and more are unaffected
 * with the default max tokens (their quarter is already ≥ 4,096).
 */
export function answerReserve(window: number, maxTokens: number): number {
  return Math.max(1, Math.min(maxTokens, Math.floor(window / 4)));
}

/** `answerReserve` for a model under the settings' window override: what the loop sends as max_tokens. */
export function answerTokensFor(model: string, settings: { contextWindow?: number; maxTokens: number }): number {
  return answerReserve(modelWindow(model, settings.contextWindow).window, settings.maxTokens);
}
