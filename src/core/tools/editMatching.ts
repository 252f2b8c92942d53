/**
 * The matching rules of edit_file, apart from any I/O so they can be tested and measured alone
 * (peers lesson 2: diff edits that fail and then silently overwrite).
 *
 * - Each block's old text must occur exactly once (in the text as changed by the blocks before it).
 * - Only when the exact text is nowhere, a whitespace-tolerant match is tried (lines compared with
 *   runs of whitespace collapsed and ends trimmed); it too must be unique, and its use is reported.
 * - If any block fails, the result is an error naming the block and showing the closest lines;
 *   the caller writes nothing (all or nothing).
 */

export interface EditBlock {
  old_text: string;
  new_text: string;
}

export type EditOutcome =
  | { ok: true; text: string; notes: string[]; fuzzyBlocks: number[] }
  | { ok: false; error: string; block: number };

const norm = (s: string) => s.trim().replace(/\s+/g, ' ');
const indentOf = (s: string) => /^[ \t]*/.exec(s)![0];

function lineOfIndex(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function occurrences(text: string, needle: string, limit: number): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && at.length < limit; i = text.indexOf(needle, i + 1)) at.push(i);
  return at;
}

function trimBlankEdges(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b);
}

const tokenize = (s: string) => new Set(s.match(/[A-Za-z0-9_]+|[^\sA-Za-z0-9_]/g) ?? []);

function tokenSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return (2 * common) / (a.size + b.size);
}

/** The window of the file most like `oldLines`, by per-line token overlap. */
export function closestWindow(fileLines: string[], oldLines: string[]): { start: number; score: number } | undefined {
  const k = oldLines.length;
  if (k === 0 || fileLines.length === 0) return undefined;
  const fileNorm = fileLines.map(norm);
  const oldNorm = oldLines.map(norm);
  const oldTok = oldNorm.map(tokenize);
  const fileTok: (Set<string> | undefined)[] = new Array(fileLines.length);
  const tok = (i: number) => (fileTok[i] ??= tokenize(fileNorm[i]!));
  let best: { start: number; score: number } | undefined;
  const lastStart = Math.max(0, fileLines.length - k);
  for (let s = 0; s <= lastStart; s++) {
    let sum = 0;
    const span = Math.min(k, fileLines.length - s);
    for (let j = 0; j < span; j++) {
      sum += fileNorm[s + j] === oldNorm[j] ? 1 : tokenSimilarity(tok(s + j), oldTok[j]!);
    }
    const score = sum / k;
    if (!best || score > best.score) best = { start: s, score };
  }
  return best;
}

function showLines(lines: string[], start: number, count: number): string {
  const end = Math.min(lines.length, start + count);
  const out: string[] = [];
  for (let i = start; i < end; i++) {
    const l = lines[i]!.replace(/\r$/, '');
    out.push(`${i + 1}\t${l.length > 400 ? `${l.slice(0, 400)}…` : l}`);
  }
  return out.join('\n');
}

function withEol(s: string, eol: string): string {
  return eol === '\n' ? s.replace(/\r\n/g, '\n') : s.replace(/\r?\n/g, eol);
}

/**
 * The model's text matched only ignoring whitespace, so its indentation is not the file's. Carry
 * the file's indentation over to the replacement:
 * - same number of lines: line k of the replacement takes the file's indentation of matched line k
 *   wherever the model indented it like its own old line k (the common "same shape, new content");
 * - otherwise, shift every line by the difference on the first line.
 */
function reindent(newLines: string[], oldLines: string[], fileLines: string[]): string[] {
  if (newLines.length === oldLines.length) {
    return newLines.map((l, k) => (l.trim() !== '' && indentOf(l) === indentOf(oldLines[k]!) ? indentOf(fileLines[k]!) + l.trimStart() : l));
  }
  const fileIndent = indentOf(fileLines[0]!);
  const modelIndent = indentOf(oldLines[0]!);
  if (fileIndent === modelIndent) return newLines;
  return newLines.map((l) => (l.trim() !== '' && l.startsWith(modelIndent) ? fileIndent + l.slice(modelIndent.length) : l));
}

export function applyEditBlocks(original: string, blocks: readonly EditBlock[], eol: '\n' | '\r\n' = '\n'): EditOutcome {
  if (blocks.length === 0) return { ok: false, error: 'No edit blocks were given.', block: 0 };
  let text = original;
  const notes: string[] = [];
  const fuzzyBlocks: number[] = [];
  const total = blocks.length;
  for (let b = 0; b < total; b++) {
    const n = b + 1;
    const name = total > 1 ? `Block ${n} of ${total}` : 'The edit';
    const fail = (msg: string): EditOutcome => ({
      ok: false,
      block: n,
      error: `${name}: ${msg}\nNothing was changed${total > 1 ? ' (all blocks or none)' : ''}.`,
    });
    const oldText = withEol(blocks[b]!.old_text, eol);
    const newText = withEol(blocks[b]!.new_text, eol);
    if (oldText === '') return fail('old_text is empty. To create a file use write_file; to add text, include a neighbouring line in old_text.');
    if (oldText === newText) return fail('old_text and new_text are identical.');

    const exact = occurrences(text, oldText, 50);
    if (exact.length === 1) {
      const at = exact[0]!;
      text = text.slice(0, at) + newText + text.slice(at + oldText.length);
      continue;
    }
    if (exact.length > 1) {
      const where = exact.slice(0, 10).map((i) => lineOfIndex(text, i));
      return fail(
        `old_text matches ${exact.length >= 50 ? 'at least 50' : exact.length} places (lines ${where.join(', ')}${exact.length > 10 ? ', …' : ''}); ` +
          'it must match exactly one. Include more surrounding lines to make it unique.',
      );
    }

    // Fallback: the same lines apart from whitespace.
    const lines = text.split('\n');
    const oldLines = trimBlankEdges(oldText.split('\n').map((l) => l.replace(/\r$/, '')));
    if (oldLines.length === 0) return fail('old_text is only whitespace.');
    const oldNorm = oldLines.map(norm);
    const fileNorm = lines.map(norm);
    const starts: number[] = [];
    for (let s = 0; s + oldLines.length <= lines.length && starts.length < 50; s++) {
      let j = 0;
      while (j < oldLines.length && fileNorm[s + j] === oldNorm[j]) j++;
      if (j === oldLines.length) starts.push(s);
    }
    if (starts.length > 1) {
      return fail(
        `old_text was not found exactly, and ignoring whitespace it matches ${starts.length} places ` +
          `(lines ${starts.slice(0, 10).map((s) => s + 1).join(', ')}); include more surrounding lines to make it unique.`,
      );
    }
    if (starts.length === 0) {
      const best = closestWindow(lines, oldLines);
      let hint = '';
      if (best && best.score > 0.2) {
        hint =
          `\nThe closest text is at lines ${best.start + 1}-${Math.min(lines.length, best.start + oldLines.length)} ` +
          `(${Math.round(best.score * 100)}% similar):\n${showLines(lines, best.start, oldLines.length)}\n` +
          'Copy the exact text from the file (or read it again) and retry.';
      } else hint = '\nNothing in the file resembles it; read the file again.';
      return fail(`old_text was not found (not even ignoring whitespace).${hint}`);
    }

    const s = starts[0]!;
    const k = oldLines.length;
    const newLines = reindent(
      trimBlankEdges(newText.split('\n').map((l) => l.replace(/\r$/, ''))),
      oldLines,
      lines.slice(s, s + k).map((l) => l.replace(/\r$/, '')),
    );
    const lastHadCr = lines[s + k - 1]!.endsWith('\r');
    const replacement = newLines.length ? newLines.join(eol) + (lastHadCr ? '\r' : '') : undefined;
    const rebuilt = [...lines.slice(0, s), ...(replacement === undefined ? [] : [replacement]), ...lines.slice(s + k)];
    text = rebuilt.join('\n');
    fuzzyBlocks.push(n);
    notes.push(
      `${name} did not match exactly; it was applied at lines ${s + 1}-${s + k} by ignoring whitespace differences. Check the result.`,
    );
  }
  return { ok: true, text, notes, fuzzyBlocks };
}
