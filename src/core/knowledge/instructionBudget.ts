/**
 * Fitting instruction files into their token budget, in source order: a file that fits is sent
 * whole; the first that does not is cut at a line boundary; the rest are left out. What was cut is
 * said, to the model and to the user, so nobody mistakes a partial file for the whole.
 */
import { countTextTokens } from '../context/tokenCounter';
import type { ReadInstruction } from './instructionFile';

export interface FittedInstruction extends ReadInstruction {
  tokens: number;
  /** Tokens of the file that were not sent (cut at the end), when any. */
  cutTokens?: number;
}

export interface FittedInstructions {
  files: FittedInstruction[];
  /** Files left out whole: no room was left. */
  omitted: { rel: string; tokens: number }[];
}

/** A cut file keeps at least this much, or it is left out rather than sent as a useless stub. */
const MIN_USEFUL_TOKENS = 100;

export function fitInstructions(files: readonly ReadInstruction[], budget: number): FittedInstructions {
  const out: FittedInstructions = { files: [], omitted: [] };
  let left = Math.max(0, budget);
  for (const f of files) {
    const tokens = countTextTokens(f.text);
    if (tokens <= left) {
      out.files.push({ ...f, tokens });
      left -= tokens;
      continue;
    }
    if (left >= MIN_USEFUL_TOKENS) {
      const head = headWithin(f.text, left);
      const kept = countTextTokens(head);
      out.files.push({ ...f, text: head, tokens: kept, cutTokens: tokens - kept });
      left = 0;
      continue;
    }
    out.omitted.push({ rel: f.rel, tokens });
  }
  return out;
}

/** The longest run of whole lines from the start that fits `budget` tokens. */
function headWithin(text: string, budget: number): string {
  const lines = text.split('\n');
  let lo = 0;
  let hi = lines.length;
  // Binary search on the line count: counting is the cost, and files can be long.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTextTokens(lines.slice(0, mid).join('\n')) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lines.slice(0, lo).join('\n');
}

/** "CLAUDE.md cut (1,234 of 5,000 tokens left out); .cursorrules left out (800 tokens)". */
export function cutNote(f: FittedInstructions): string | undefined {
  const parts = [
    ...f.files.filter((x) => x.cutTokens).map((x) => `${x.rel} cut (${fmt(x.cutTokens!)} of ${fmt(x.tokens + x.cutTokens!)} tokens left out)`),
    ...f.omitted.map((x) => `${x.rel} left out (${fmt(x.tokens)} tokens)`),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

const fmt = (n: number) => n.toLocaleString('en-US');
