/**
 * The check every rebuild of a text with elision markers passes before it is written: a marker
 * must not keep a block of the file that the text then writes again beside it. That is the shape
 * of a marker read too far (its run ends after the old block the model rewrote): the old block is
 * kept and the new one is written after it, and the file then has a block of lines twice that it
 * had once. Such a rebuild is refused, naming the block, rather than written.
 *
 * Only a block at the edge of what the marker keeps counts (its last lines, when the text goes on
 * after the marker; its first, when the text comes before it): lines alike in the middle of a kept
 * stretch and in code written beside it are two pieces of code that happen to agree (a function
 * written like the next one), not one piece kept twice.
 */

/** The shortest run of non-blank lines that counts as a block written twice. */
const MIN_BLOCK = 3;

export interface KeptTwice {
  /** The block's lines, as the file has them (trimmed). */
  lines: string[];
}

const nonBlank = (lines: readonly string[]) => lines.map((l) => l.trim()).filter((l) => l !== '');

/** Where `block` occurs in `lines` (start indexes). */
function occurrences(lines: readonly string[], block: readonly string[]): number[] {
  const at: number[] = [];
  for (let i = 0; i + block.length <= lines.length; i++) {
    let k = 0;
    while (k < block.length && lines[i + k] === block[k]) k++;
    if (k === block.length) at.push(i);
  }
  return at;
}

/**
 * The longest block that ends the kept lines (when `side` is 'end') or starts them ('start') and
 * occurs in the written lines; undefined when it is shorter than MIN_BLOCK.
 */
function edgeBlock(kept: string[], written: string[], side: 'start' | 'end'): string[] | undefined {
  let best: string[] | undefined;
  for (let n = MIN_BLOCK; n <= Math.min(kept.length, written.length); n++) {
    const block = side === 'end' ? kept.slice(kept.length - n) : kept.slice(0, n);
    if (occurrences(written, block).length === 0) break;
    best = block;
  }
  return best;
}

/**
 * The block a marker keeps that the text also writes beside it, when the rebuilt file has that
 * block more often than the original and the text itself writes it only once; else undefined.
 * A text that goes on from the marker with the file's very next line (or comes to it from the
 * file's line just before the kept lines) shows where the kept lines end: a block it writes again
 * further on is new code like the old (a test added after one much like it), not the old kept twice.
 * `original`: the file's lines; [from, to): the lines the marker keeps; `writtenBefore` /
 * `writtenAfter`: the text's lines between the marker and the marker (or end) before / after it;
 * `result`: the rebuilt file's lines.
 */
export function keptBlockTwice(
  original: readonly string[],
  from: number,
  to: number,
  writtenBefore: readonly string[],
  writtenAfter: readonly string[],
  result: readonly string[],
): KeptTwice | undefined {
  const k = nonBlank(original.slice(from, to));
  if (k.length < MIN_BLOCK) return undefined;
  // The file's nearest non-blank line on each side of the kept lines (a scan, not a copy: files are long).
  const nearest = (i: number, step: 1 | -1) => {
    for (; i >= 0 && i < original.length; i += step) if (original[i]!.trim() !== '') return original[i]!.trim();
    return undefined;
  };
  const sides = [['end', nonBlank(writtenAfter), nearest(to, 1)], ['start', nonBlank(writtenBefore).reverse(), nearest(from - 1, -1)]] as const;
  for (const [side, near, fileNeighbour] of sides) {
    if (near.length === 0 || near[0] === fileNeighbour) continue;
    const written = side === 'end' ? near : [...near].reverse();
    const block = edgeBlock(k, written, side);
    // Lines of punctuation alone ("}", "});") recur in any file; a block must name something.
    if (!block || !block.some((l) => /[A-Za-z0-9_]/.test(l))) continue;
    if (occurrences(written, block).length > 1) continue;
    if (occurrences(nonBlank(result), block).length > occurrences(nonBlank(original), block).length) return { lines: block };
  }
  return undefined;
}

/** The block named for the model: its first line and its length. */
export function describeKeptTwice(t: KeptTwice): string {
  const first = t.lines[0]!;
  return `"${first.length > 80 ? `${first.slice(0, 80)}…` : first}" and the ${t.lines.length - 1} line${t.lines.length === 2 ? '' : 's'} after it`;
}
