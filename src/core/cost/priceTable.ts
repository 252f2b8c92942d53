/**
 * USD per million tokens (input, output) for common models, so the chat can show what a task
 * costs and a budget can stop a runaway one before the bill does. List prices as published by the vendors; cached-input
 * discounts are ignored, so figures err on the high side. `settings.prices` overrides any entry.
 * Local models (Ollama, llama.cpp, LM Studio) have no entry: their cost is unknown, not zero,
 * because the same names are also served by paid hosts (OpenRouter, Together…).
 */
export interface Price {
  input: number;
  output: number;
}

/** Ordered most specific first: the first prefix that matches the normalised name wins. */
export const PRICE_TABLE: readonly (readonly [prefix: string, price: Price])[] = [
  ['gpt-5-nano', { input: 0.05, output: 0.4 }],
  ['gpt-5-mini', { input: 0.25, output: 2 }],
  ['gpt-5', { input: 1.25, output: 10 }],
  ['gpt-4.1-nano', { input: 0.1, output: 0.4 }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6 }],
  ['gpt-4.1', { input: 2, output: 8 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6 }],
  ['gpt-4o', { input: 2.5, output: 10 }],
  ['chatgpt-4o', { input: 5, output: 15 }],
  ['gpt-4.5', { input: 75, output: 150 }],
  ['gpt-4-turbo', { input: 10, output: 30 }],
  ['gpt-4', { input: 30, output: 60 }],
  ['gpt-3.5-turbo', { input: 0.5, output: 1.5 }],
  ['o1-mini', { input: 1.1, output: 4.4 }],
  ['o1-pro', { input: 150, output: 600 }],
  ['o1', { input: 15, output: 60 }],
  ['o3-mini', { input: 1.1, output: 4.4 }],
  ['o3-pro', { input: 20, output: 80 }],
  ['o3', { input: 2, output: 8 }],
  ['o4-mini', { input: 1.1, output: 4.4 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-3.7-sonnet', { input: 3, output: 15 }],
  ['claude-3-5-sonnet', { input: 3, output: 15 }],
  ['claude-3.5-sonnet', { input: 3, output: 15 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
  ['claude-3.5-haiku', { input: 0.8, output: 4 }],
  ['claude-haiku-4', { input: 1, output: 5 }],
  ['claude-3-haiku', { input: 0.25, output: 1.25 }],
  ['claude-3-opus', { input: 15, output: 75 }],
  ['deepseek-chat', { input: 0.27, output: 1.1 }],
  ['deepseek-reasoner', { input: 0.55, output: 2.19 }],
  ['mistral-large', { input: 2, output: 6 }],
  ['mistral-medium', { input: 0.4, output: 2 }],
  ['mistral-small', { input: 0.2, output: 0.6 }],
  ['codestral', { input: 0.3, output: 0.9 }],
  ['gemini-2.5-pro', { input: 1.25, output: 10 }],
  ['gemini-2.5-flash', { input: 0.3, output: 2.5 }],
  ['gemini-2.0-flash', { input: 0.1, output: 0.4 }],
];

/**
 * Lower-cased, without a router prefix (`openai/gpt-4o` → `gpt-4o`, `anthropic/claude-…`) and
 * without an Ollama tag (`qwen2.5:7b` → `qwen2.5`), so one table serves every endpoint.
 */
export function normaliseModelName(model: string): string {
  let m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  if (slash >= 0) m = m.slice(slash + 1);
  const colon = m.indexOf(':');
  if (colon >= 0) m = m.slice(0, colon);
  return m;
}

/** The price of a model: an override (exact name, then normalised name) wins over the table; undefined when unknown. */
export function priceFor(model: string, overrides?: Record<string, Price>): Price | undefined {
  if (overrides) {
    const exact = overrides[model];
    if (exact) return exact;
    const norm = normaliseModelName(model);
    for (const [k, v] of Object.entries(overrides)) if (normaliseModelName(k) === norm) return v;
  }
  const name = normaliseModelName(model);
  for (const [prefix, price] of PRICE_TABLE) if (name.startsWith(prefix)) return price;
  return undefined;
}

/** USD for one request, or undefined when the model's price is unknown. */
export function costOf(model: string, tokensIn: number, tokensOut: number, overrides?: Record<string, Price>): number | undefined {
  const p = priceFor(model, overrides);
  if (!p) return undefined;
  return (tokensIn * p.input + tokensOut * p.output) / 1_000_000;
}

/** "$0.0123" for small sums, "$1.23" otherwise. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (Math.abs(usd) < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
