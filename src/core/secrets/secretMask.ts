/**
 * Masks the API key, or any long-enough piece of it, in text that leaves the process or is kept:
 * tool results, the chat, history, logs. A command can print a slice of the key
 * (`printenv OPENAI_API_KEY | cut -c9-30`) and an endpoint can echo it back as assistant text;
 * masking only the whole key would let both through. Every run of MIN_SLICE or more characters that
 * also occurs in the key is replaced by `***`.
 *
 * Keys shorter than MIN_SLICE are placeholders local servers accept ("none", "ollama", "lm-studio"):
 * nothing that short is a secret an endpoint issues, and masking them would garble ordinary words.
 */
export const MIN_SLICE = 8;
const MASK = '***';

/** The distinct MIN_SLICE-character pieces of `key`; empty when the key is too short to be a secret. */
function piecesOf(key: string): string[] {
  if (key.length < MIN_SLICE) return [];
  const set = new Set<string>();
  for (let i = 0; i + MIN_SLICE <= key.length; i++) set.add(key.slice(i, i + MIN_SLICE));
  return [...set];
}

/** Start/end pairs (sorted, merged) of every stretch of `text` covered by a piece of the key. */
function coveredRanges(text: string, pieces: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  for (const p of pieces) {
    // indexOf per piece: native and linear, so even a multi-megabyte tool result is cheap to mask.
    for (let i = text.indexOf(p); i !== -1; i = text.indexOf(p, i + 1)) found.push([i, i + p.length]);
  }
  if (!found.length) return found;
  found.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [found[0]!];
  for (const r of found.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}

function replaceRanges(text: string, ranges: readonly [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [s, e] of ranges) {
    out += text.slice(at, s) + MASK;
    at = e;
  }
  return out + text.slice(at);
}

/** `text` with every piece of `key` (MIN_SLICE characters or more) replaced by `***`. */
export function maskSecret(text: string, key: string | undefined): string {
  if (!key || !text) return text;
  const pieces = piecesOf(key);
  if (!pieces.length) return text;
  const ranges = coveredRanges(text, pieces);
  return ranges.length ? replaceRanges(text, ranges) : text;
}

/**
 * The same for text that arrives in pieces (streamed assistant text): a key split across two
 * deltas is still caught. Holds back the last MIN_SLICE - 1 characters (and any masked stretch
 * reaching into them) until more text or the end shows whether they continue a piece of the key.
 */
export class SecretStreamMasker {
  private pending = '';
  private readonly pieces: string[];

  constructor(key: string | undefined) {
    this.pieces = key ? piecesOf(key) : [];
  }

  /** Text that is safe to show now (possibly empty). */
  push(delta: string): string {
    if (!this.pieces.length) return delta;
    this.pending += delta;
    const ranges = coveredRanges(this.pending, this.pieces);
    let cut = Math.max(0, this.pending.length - (MIN_SLICE - 1));
    // A masked stretch that reaches the held-back tail may grow with the next delta: hold it whole.
    for (const [s, e] of ranges) if (e >= cut && s < cut) cut = s;
    const ready = ranges.filter(([, e]) => e <= cut);
    const out = replaceRanges(this.pending.slice(0, cut), ready);
    this.pending = this.pending.slice(cut);
    return out;
  }

  /** Whatever is still held, masked. */
  flush(): string {
    const rest = this.pieces.length ? replaceRanges(this.pending, coveredRanges(this.pending, this.pieces)) : this.pending;
    this.pending = '';
    return rest;
  }
}
