/**
 * Token counts with a real BPE tokenizer (gpt-tokenizer, o200k_base: the encoding of gpt-4o,
 * gpt-4.1, the o-series and gpt-5). Other families tokenize differently; the model table's
 * `tokenFactor` scales the count up for them so the estimate errs on the safe side.
 *
 * The tokenizer's rank table is ~2.4 MB of JS, over the extension bundle's budget, so it is
 * loaded lazily on first use: from `tokenizer.js` beside the bundle when the build ships one,
 * else from node_modules. The `require` arguments are computed so esbuild leaves them alone.
 * If neither loads, counting falls back to characters / 3 (over-estimates English and code).
 */
import * as path from 'node:path';

type CountFn = (text: string) => number;

let counter: CountFn | undefined;
let exact = true;

function load(): CountFn {
  const candidates = [path.join(__dirname, 'tokenizer.js'), ['gpt-tokenizer', 'encoding', 'o200k_base'].join('/')];
  for (const c of candidates) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(c) as { countTokens?: (t: string) => number; encode?: (t: string) => number[] };
      if (typeof mod.countTokens === 'function') {
        const fn = mod.countTokens;
        return (t) => fn(t);
      }
    } catch {
      /* try the next */
    }
  }
  exact = false;
  return (t) => Math.ceil(t.length / 3);
}

/** Tokens in a piece of text. */
export function countTextTokens(text: string): number {
  if (!text) return 0;
  counter ??= load();
  return counter(text);
}

/** False when the tokenizer could not be loaded and counts are character estimates. */
export function tokenizerIsExact(): boolean {
  counter ??= load();
  return exact;
}
