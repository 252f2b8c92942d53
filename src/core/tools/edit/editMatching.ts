/**
 * The matching rules of edit_file, apart from any I/O so they can be tested and measured alone.
 * An edit that does not match fails loudly and writes nothing: falling back to overwriting the
 * file silently loses whatever the model's old text did not quote.
 *
 * - Each block's old text must occur exactly once (in the text as changed by the blocks before it).
 * - Only when the exact text is nowhere, lines are compared ignoring indentation and line-end
 *   whitespace (never whitespace inside a line: inside a string literal that is another value); the
 *   match must be unique, the model's indentation is mapped onto the file's (editIndentation.ts),
 *   and the use of the fallback is reported.
 * - Elision markers (editMarkers.ts): in old_text a marker line stands for any run of lines (the
 *   match must still be unique); in new_text it keeps the lines it stands for in the matched
 *   region. A marker-looking line the file really has is code, not a marker.
 * - If any block fails, the result is an error naming the block and saying what to send instead;
 *   the caller writes nothing (all or nothing).
 */
import { buildIndentMapping, indentOf, indentStrays, indentUnit, usesTabs, type BlockKind, type IndentReading, type NextLine, type PlacedLine } from './editIndentation';
import { looksLikeElisionMarker } from './editMarkers';
import { describeKeptTwice, keptBlockTwice } from './keptBlockTwice';

export interface EditBlock {
  old_text: string;
  new_text: string;
}

/**
 * Which lines of the original each result line is, and which original lines the blocks relied on
 * (matched, replaced or kept inside a matched region): what a merge with someone else's change of
 * the same original must leave alone (userChangeMerge.ts).
 */
export interface EditTrace {
  /** For each line of the result (split at \n), the index of the original line it is, or -1 for a line the edit wrote. */
  origin: number[];
  /** Original line index → the block (1-based) whose match covered it. */
  touched: Map<number, number>;
}

export type EditOutcome =
  | { ok: true; text: string; notes: string[]; fuzzyBlocks: number[]; trace: EditTrace }
  /** `clearer`: the refusal says more than the line rules' own would (the syntax placed the markers and found them ambiguous). */
  | { ok: false; error: string; block: number; clearer?: true };

const norm = (s: string) => s.trim().replace(/\s+/g, ' ');
const stripCr = (l: string) => (l.endsWith('\r') ? l.slice(0, -1) : l);

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

/** Where a block's old text sits in the file: its literal pieces (between elision markers) by line. */
interface LineMatch {
  start: number;
  end: number;
  /** Each literal piece of old_text and the file line it starts at; the gaps between pieces are what markers matched. */
  pieces: { at: number; lines: string[] }[];
}

/** Splits lines at marker lines (consecutive markers count as one; blank lines beside a marker belong to it). */
function splitAtMarkers(lines: string[], isMarker: (l: string) => boolean): string[][] {
  const out: string[][] = [[]];
  for (const l of lines) {
    if (isMarker(l)) {
      out[out.length - 1] = trimBlankEdges(out[out.length - 1]!);
      if (out[out.length - 1]!.length > 0 || out.length === 1) out.push([]);
    } else out[out.length - 1]!.push(l);
  }
  out[out.length - 1] = trimBlankEdges(out[out.length - 1]!);
  return out;
}

/** Every way (up to `limit`) the pieces match consecutive file lines in order, compared without indentation and line-end whitespace. */
function findLineMatches(fileTrim: string[], pieces: string[][], limit: number): LineMatch[] {
  const want = pieces.map((p) => p.map((l) => l.trim()));
  const found: LineMatch[] = [];
  const fitsAt = (k: number, at: number) => {
    const w = want[k]!;
    if (at + w.length > fileTrim.length) return false;
    for (let j = 0; j < w.length; j++) if (fileTrim[at + j] !== w[j]) return false;
    return true;
  };
  const walk = (k: number, from: number, acc: { at: number; lines: string[] }[], anywhere: boolean) => {
    if (found.length >= limit) return;
    if (k === want.length) {
      found.push({ start: acc[0]!.at, end: from, pieces: [...acc] });
      return;
    }
    const last = anywhere ? fileTrim.length - want[k]!.length : from;
    for (let at = from; at <= last && found.length < limit; at++) {
      if (!fitsAt(k, at)) continue;
      acc.push({ at, lines: pieces[k]! });
      walk(k + 1, at + want[k]!.length, acc, true);
      acc.pop();
    }
  };
  walk(0, 0, [], true);
  return found;
}

/**
 * Every place (up to `limit`) an old_text with elision markers matches by the line rules: its
 * written lines in order, a marker standing for any run of lines. For the syntax's reading of the
 * same old_text (elidedOldText.ts), which tells these places apart.
 */
export function elidedLineReadings(fileLines: string[], oldLines: string[], isMarker: (l: string) => boolean, limit: number): { start: number; end: number }[] {
  const pieces = splitAtMarkers(oldLines, isMarker).filter((p) => p.length > 0);
  if (pieces.length === 0) return [];
  return findLineMatches(fileLines.map((l) => l.trim()), pieces, limit).map((m) => ({ start: m.start, end: m.end }));
}

/** The length of the longest common subsequence of two lists of lines. */
function commonSubsequence(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  return prev[b.length]!;
}

function quote(line: string): string {
  const t = line.trim();
  return `"${t.length > 80 ? `${t.slice(0, 80)}…` : t}"`;
}

/** Readings of an elided old_text compared before giving up on it. */
const MAX_READINGS = 200;

const SEND_PLAINLY =
  'Send the edit without elision markers: old_text only the lines you change (plus one unchanged line of context), new_text their complete replacement.';

type Replacement = { ok: true; lines: string[]; kept: number } | { ok: false; error: string };

/**
 * The new lines for a matched region: the model's lines with the file's indentation, and for each
 * elision marker in new_text the file's own lines it stands for.
 */
function buildReplacement(
  m: LineMatch,
  fileLines: string[],
  fileBare: string[],
  newLines: string[],
  exact: boolean,
  wholeText: string,
  crlf: boolean,
  blocks: BlockKind = 'indented',
): Replacement {
  const pairs = m.pieces.flatMap((p) =>
    p.lines.flatMap((l, j) => (l.trim() === '' ? [] : [{ model: indentOf(l), file: indentOf(fileBare[p.at + j]!) }])),
  );
  const oldPlaced = m.pieces.flatMap((p) => p.lines.map((l, j) => ({ text: l, file: indentOf(fileBare[p.at + j]!) })));
  const mapping = exact
    ? { ok: true as const, identity: true, readings: [{ name: 'as written', map: (x: string) => x }] }
    : buildIndentMapping(pairs, usesTabs(fileBare.slice(m.start, m.end), wholeText), oldPlaced, blocks);
  if (!mapping.ok) return { ok: false, error: `${mapping.reason}. Copy old_text from the file as it is (read it again) and retry.` };
  const built = mapping.readings.map((r) => ({ reading: r, out: replacementWith(m, fileLines, fileBare, newLines, mapping.identity, r, crlf) }));
  const fits = built.filter((b) => b.out.ok) as { reading: IndentReading; out: Extract<Replacement, { ok: true }> }[];
  if (fits.length === 0) return built[0]!.out;
  const texts = new Set(fits.map((b) => b.out.lines.join('\n')));
  if (texts.size === 1) return fits[0]!.out;
  // Two readings of the model's indentation give different text: the file's own habits decide
  // (its indent unit: a reading that steps deeper than one unit at once, or off the unit's grid,
  // strays), or nothing is written and both readings are named.
  const unit = indentUnit(fileBare);
  const scored = fits.map((b) => ({ ...b, strays: indentStrays(b.out.lines.map(stripCr), unit) })).sort((a, b) => a.strays - b.strays);
  if (scored[0]!.strays < scored[1]!.strays) return scored[0]!.out;
  const a = scored[0]!.out.lines;
  const b = scored[1]!.out.lines;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const at = (ls: string[]) => `${show(indentOf(ls[i] ?? ''))}`;
  return {
    ok: false,
    error:
      `old_text matched only ignoring indentation, and its indentation can be read two ways that give different new lines: ` +
      `${scored[0]!.reading.name} (then ${quote(a[i] ?? '')} is indented ${at(a)}) or ${scored[1]!.reading.name} (then it is indented ${at(b)}). ` +
      'Copy old_text from the file with its exact indentation and retry.',
  };
}

function show(indent: string): string {
  if (indent === '') return 'not at all';
  const tabs = (indent.match(/\t/g) ?? []).length;
  const spaces = indent.length - tabs;
  return [tabs ? `${tabs} tab${tabs > 1 ? 's' : ''}` : '', spaces ? `${spaces} space${spaces > 1 ? 's' : ''}` : ''].filter(Boolean).join(' + ');
}

/**
 * The lines of new_text that are old_text's own lines, by their place: those new_text shares with
 * old_text at its start and at its end (the same text and the same indentation, before the first
 * change and after the last), and, where new_text has as many lines as old_text each indented as
 * its old line is, every line (each changed in place). Keyed by the index of the line among
 * new_text's non-blank, non-marker lines; the value is the file's indent of its old line. Where the
 * model's indentation alone cannot say where a line goes (column 0 standing for two levels), these
 * lines still go where the file has them.
 */
function pinnedLines(m: LineMatch, fileBare: string[], newLines: string[], isMarker: (l: string) => boolean): Map<number, string> {
  const pinned = new Map<number, string>();
  const oldOf = (p: LineMatch['pieces'][number]) => p.lines.flatMap((l, j) => (l.trim() === '' ? [] : [{ text: l, file: indentOf(fileBare[p.at + j]!) }]));
  const first = oldOf(m.pieces[0]!);
  const last = oldOf(m.pieces[m.pieces.length - 1]!);
  const lines = newLines.filter((l) => l.trim() !== '');
  const writtenCount = lines.filter((l) => !isMarker(l)).length;
  const noMarkers = writtenCount === lines.length;
  if (noMarkers && m.pieces.length === 1 && lines.length === first.length && lines.every((l, i) => indentOf(l) === indentOf(first[i]!.text))) {
    first.forEach((o, i) => pinned.set(i, o.file));
    return pinned;
  }
  let p = 0;
  while (p < lines.length && p < first.length && !isMarker(lines[p]!) && lines[p] === first[p]!.text) pinned.set(p, first[p++]!.file);
  // From the end, stopping short of the lines already pinned from the start.
  for (let q = 1; q <= lines.length - p && q <= last.length - (m.pieces.length === 1 ? p : 0); q++) {
    const l = lines[lines.length - q]!;
    if (isMarker(l) || l !== last[last.length - q]!.text) break;
    pinned.set(writtenCount - q, last[last.length - q]!.file);
  }
  return pinned;
}

/** The replacement under one reading of the model's indentation. */
function replacementWith(
  m: LineMatch,
  fileLines: string[],
  fileBare: string[],
  newLines: string[],
  identity: boolean,
  reading: IndentReading,
  crlf: boolean,
): Replacement {
  const literalOld = new Set(m.pieces.flatMap((p) => p.lines.map((l) => l.trim())));
  const isMarker = (l: string) => looksLikeElisionMarker(l) && !literalOld.has(l.trim());
  const mapping = { identity, map: reading.map };
  const placed: PlacedLine[] = [];

  const eolMark = crlf ? '\r' : '';
  let seenFirst = false;
  const pinned = identity ? new Map<number, string>() : pinnedLines(m, fileBare, newLines, isMarker);
  // new_text's written lines in order, for the line after each (a marker ends what is known of it).
  const nonBlank = newLines.filter((l) => l.trim() !== '');
  const writtenAt: number[] = [];
  nonBlank.forEach((l, i) => {
    if (!isMarker(l)) writtenAt.push(i);
  });
  const nextOf = (k: number): NextLine | undefined => {
    const l = nonBlank[writtenAt[k]! + 1];
    if (l === undefined || isMarker(l)) return undefined;
    const file = pinned.get(k + 1) ?? (indentOf(l) !== '' ? reading.map(indentOf(l), false, l, []) : undefined);
    return { model: indentOf(l), text: l.trim(), ...(file !== undefined ? { file } : {}) };
  };
  let written = 0;
  const modelLine = (l: string): string | { bad: string } => {
    if (l.trim() === '') return mapping.identity ? l + eolMark : eolMark;
    if (mapping.identity) return l + eolMark;
    const ind = indentOf(l);
    const k = written++;
    const to = pinned.get(k) ?? mapping.map(ind, !seenFirst, l, placed.slice(-40), ind === '' ? nextOf(k) : undefined);
    seenFirst = true;
    if (to === undefined) return { bad: l };
    placed.push({ model: ind, file: to, text: l.trim() });
    return to + l.slice(ind.length) + eolMark;
  };

  const sameIndent = (model: string, file: string) => {
    const ind = indentOf(model);
    return (mapping.identity ? ind : mapping.map(ind, false, model, [])) === indentOf(file);
  };
  const segs = splitAtMarkers(newLines, isMarker);
  const runs: [number, number][] = [];
  if (segs.length > 1) {
    const leading = segs[0]!.length === 0;
    const trailing = segs[segs.length - 1]!.length === 0;
    const markers = segs.length - 1;
    const oldGaps = m.pieces.length - 1;
    if (!leading && !trailing && markers === oldGaps) {
      // The markers of new_text stand where those of old_text stood.
      for (let g = 0; g < oldGaps; g++) runs.push([m.pieces[g]!.at + m.pieces[g]!.lines.length, m.pieces[g + 1]!.at]);
    } else {
      // Each marker keeps the file's lines between the line written just before it and the one just after it.
      const regionTrim = fileBare.slice(m.start, m.end).map((l) => l.trim());
      const n = regionTrim.length;
      let pos = 0;
      for (let g = 0; g < markers; g++) {
        const before = segs[g]!;
        const after = segs[g + 1]!;
        const starts: number[] = [];
        if (before.length === 0) starts.push(pos);
        else for (let j = pos; j < n; j++) if (regionTrim[j] === before[before.length - 1]!.trim()) starts.push(j + 1);
        if (starts.length === 0) {
          return { ok: false, error: `new_text has an elision marker after ${quote(before[before.length - 1]!)}, which is not a line of the matched old text, so it is unclear which lines the marker keeps. ${SEND_PLAINLY}` };
        }
        let best: { run: [number, number]; score: number }[] = [];
        for (const s of starts) {
          const ends: number[] = [];
          if (after.length === 0) ends.push(n);
          else for (let j = s; j < n; j++) if (regionTrim[j] === after[0]!.trim()) ends.push(j);
          for (const e of ends) {
            // Agreement, line by line, of the model's lines around the marker with the file's lines
            // around the run (a changed line in between does not end the comparison).
            // First, how well the lines written around the marker continue the file on each side:
            // lines of new_text that are neither kept by the marker nor the file's next lines in
            // order count against a reading (a reading that ends the run too late keeps old lines
            // that new_text then writes again, changed: the old block kept beside the new one).
            const strays = before.length - commonSubsequence(before.map((l) => l.trim()), regionTrim.slice(pos, s)) + (after.length - commonSubsequence(after.map((l) => l.trim()), regionTrim.slice(e)));
            let score = -1000 * strays;
            // The line right beside the marker at the file's indentation (after mapping) is stronger evidence than its text alone.
            if (before.length && sameIndent(before[before.length - 1]!, fileBare[m.start + s - 1]!)) score += 0.5;
            if (after.length && e < n && sameIndent(after[0]!, fileBare[m.start + e]!)) score += 0.5;
            for (let j = 1; j < before.length && s - 1 - j >= 0; j++) if (regionTrim[s - 1 - j] === before[before.length - 1 - j]!.trim()) score++;
            for (let j = 1; j < after.length && e + j < n; j++) if (regionTrim[e + j] === after[j]!.trim()) score++;
            if (!best.length || score > best[0]!.score) best = [{ run: [s, e], score }];
            else if (score === best[0]!.score) best.push({ run: [s, e], score });
          }
        }
        if (best.length === 0) {
          return { ok: false, error: `new_text has an elision marker before ${quote(after[0]!)}, which is not a line of the matched old text after the marker's start, so it is unclear which lines the marker keeps. ${SEND_PLAINLY}` };
        }
        if (best.length > 1) {
          return { ok: false, error: `new_text has an elision marker that could stand for ${best.length} different runs of lines (the lines beside it occur more than once). ${SEND_PLAINLY}` };
        }
        const [s, e] = best[0]!.run;
        runs.push([m.start + s, m.start + e]);
        pos = e;
      }
    }
  }

  const out: string[] = [];
  let kept = 0;
  for (let g = 0; g < segs.length; g++) {
    for (const l of segs.length > 1 ? segs[g]! : newLines) {
      const r = modelLine(l);
      if (typeof r !== 'string') {
        return {
          ok: false,
          error:
            `cannot tell how to indent the new_text line ${quote(r.bad)}: old_text matched only ignoring indentation, and its indentation ` +
            'corresponds to no line of old_text (nor follows from them). Copy old_text from the file with its exact indentation and retry.',
        };
      }
      out.push(r);
    }
    const run = runs[g];
    if (run) {
      out.push(...fileLines.slice(run[0], run[1]));
      for (const l of fileBare.slice(run[0], run[1])) if (l.trim() !== '') placed.push({ model: undefined, file: indentOf(l), text: l.trim() });
      kept += run[1] - run[0];
    }
  }
  // The region's last line keeps its own ending (a file without a final newline has no \r there either).
  if (out.length && m.end === fileLines.length && !fileLines[m.end - 1]!.endsWith('\r')) out[out.length - 1] = stripCr(out[out.length - 1]!);
  for (let g = 0; g < runs.length; g++) {
    const twice = keptBlockTwice(fileLines, runs[g]![0], runs[g]![1], segs[g]!, segs[g + 1]!, [...fileLines.slice(0, m.start), ...out, ...fileLines.slice(m.end)]);
    if (twice) {
      return {
        ok: false,
        error: `new_text's elision marker would keep lines of the file that new_text writes again beside it, so ${describeKeptTwice(twice)} would appear twice (the file has them once); it is unclear where the marker's lines end. ${SEND_PLAINLY}`,
      };
    }
  }
  return { ok: true, lines: out, kept };
}

/**
 * Whether a full new_text confirms one reading of an elided old_text: what each marker stood for
 * (the file's lines between two pieces) is in new_text unchanged, once, between the same two
 * lines, and new_text has nothing beyond the first and last chains where old_text had only the
 * anchor line, nor repeats the file's line just outside the region at that edge. A reading too
 * long takes in lines new_text lacks; one too short leaves lines of new_text after (or before) its
 * anchor. A model that rewrote lines it elided confirms no reading, or a wrong one only where an
 * edge piece of several lines repeats inside the region; the caller uses this only when exactly
 * one reading is confirmed.
 */
function newTextKeepsGaps(m: LineMatch, fileTrim: string[], newLines: string[]): boolean {
  const newT = newLines.map((l) => l.trim());
  let from = 0;
  let firstStart = -1;
  for (let g = 0; g + 1 < m.pieces.length; g++) {
    const a = m.pieces[g]!;
    const b = m.pieces[g + 1]!;
    const chain = [a.lines[a.lines.length - 1]!.trim(), ...fileTrim.slice(a.at + a.lines.length, b.at), b.lines[0]!.trim()];
    const at: number[] = [];
    for (let i = 0; i + chain.length <= newT.length; i++) {
      let j = 0;
      while (j < chain.length && newT[i + j] === chain[j]) j++;
      if (j === chain.length) at.push(i);
    }
    if (at.length !== 1 || at[0]! < from) return false;
    if (g === 0) firstStart = at[0]!;
    from = at[0]! + chain.length;
  }
  // The lines before the first chain replace the first piece's other lines; with none (a single
  // anchor line) there must be none, else the reading starts inside the region new_text rewrites.
  if (m.pieces[0]!.lines.length === 1 && firstStart > 0) return false;
  if (m.pieces[m.pieces.length - 1]!.lines.length === 1 && from < newT.length) return false;
  // Compared by their nearest non-blank lines: a blank line beside the region says nothing of where it ends.
  const nonBlank = (ls: string[], from: number, step: 1 | -1) => {
    for (let i = from; i >= 0 && i < ls.length; i += step) if (ls[i] !== '') return ls[i];
    return undefined;
  };
  const headLast = firstStart > 0 ? nonBlank(newT, firstStart - 1, -1) : undefined;
  if (headLast !== undefined && m.start > 0 && headLast === nonBlank(fileTrim, m.start - 1, -1)) return false;
  const tailFirst = from < newT.length ? nonBlank(newT, from, 1) : undefined;
  if (tailFirst !== undefined && m.end < fileTrim.length && tailFirst === nonBlank(fileTrim, m.end, 1)) return false;
  return true;
}

/** How many matched lines sit at the file's indentation under the most common constant offset. */
function indentAgreement(m: LineMatch, fileBare: string[]): number {
  const counts = new Map<number, number>();
  for (const p of m.pieces) {
    p.lines.forEach((l, j) => {
      if (l.trim() === '') return;
      const d = indentOf(fileBare[p.at + j]!).length - indentOf(l).length;
      counts.set(d, (counts.get(d) ?? 0) + 1);
    });
  }
  return Math.max(0, ...counts.values());
}

/** The line range an exact occurrence covers, when it covers whole lines. */
function wholeLinesOf(text: string, at: number, length: number): { start: number; end: number } | undefined {
  const endAt = at + length;
  if (at > 0 && text[at - 1] !== '\n') return undefined;
  const endsWithNl = text[endAt - 1] === '\n';
  if (!endsWithNl && endAt < text.length && text[endAt] !== '\n' && !(text[endAt] === '\r' && text[endAt + 1] === '\n')) return undefined;
  const start = lineOfIndex(text, at) - 1;
  const end = lineOfIndex(text, endsWithNl ? endAt - 1 : endAt);
  return { start, end };
}

/** Languages whose blocks a character closes (not the indentation): a line's level there can be told from its neighbours. */
const DELIMITED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|go|java|c|h|cc|cpp|hpp|cs|rs|php|swift|kt|kts|scala|css|scss|less|json|jsonc|dart)$/i;

/** `file`: the file's name, when known (its language tells how far indentation can be repaired). */
export function applyEditBlocks(original: string, blocks: readonly EditBlock[], eol: '\n' | '\r\n' = '\n', file?: string): EditOutcome {
  const blockKind: BlockKind = file !== undefined && DELIMITED.test(file) ? 'delimited' : file !== undefined && /\.pyi?$/i.test(file) ? 'python' : 'indented';
  if (blocks.length === 0) return { ok: false, error: 'No edit blocks were given.', block: 0 };
  let text = original;
  const notes: string[] = [];
  const fuzzyBlocks: number[] = [];
  const total = blocks.length;
  let origin = original.split('\n').map((_, i) => i);
  const touched = new Map<number, number>();
  /** Lines [start, end) of the text so far became `count` lines written by block `n`. */
  const traceReplace = (start: number, end: number, count: number, n: number) => {
    for (let i = start; i < end; i++) if (origin[i]! >= 0 && !touched.has(origin[i]!)) touched.set(origin[i]!, n);
    origin = [...origin.slice(0, start), ...new Array<number>(count).fill(-1), ...origin.slice(end)];
  };
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

    const lines = text.split('\n');
    const bare = lines.map(stripCr);
    const oldLines = trimBlankEdges(oldText.split('\n').map(stripCr));
    const newLines = trimBlankEdges(newText.split('\n').map(stripCr));
    const oldTrim = new Set(oldLines.map((l) => l.trim()));
    const newHasMarkers = newLines.some((l) => looksLikeElisionMarker(l) && !oldTrim.has(l.trim()));

    let match: LineMatch | undefined;
    let exactMatch = false;
    const exact = occurrences(text, oldText, 50);
    if (exact.length === 1) {
      const at = exact[0]!;
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      // Several lines copied from the first line's text on: the first line's indentation is missing
      // from old_text (and so, likely, from new_text); map it like any indentation difference.
      const afterIndent = at > lineStart && /^[ \t]*$/.test(text.slice(lineStart, at)) && /^\S/.test(oldText) && oldLines.length > 1;
      const whole = newHasMarkers || afterIndent ? wholeLinesOf(text, afterIndent ? lineStart : at, oldText.length + (afterIndent ? at - lineStart : 0)) : undefined;
      if (!whole) {
        if (newHasMarkers) return fail(`new_text has an elision marker, but old_text does not cover whole lines. ${SEND_PLAINLY}`);
        // The lines the occurrence lies on (a final \n of old_text ends its last line, it does not reach the next one).
        const first = lineOfIndex(text, at) - 1;
        const last = lineOfIndex(text, oldText.endsWith('\n') ? at + oldText.length - 1 : at + oldText.length);
        const nl = (s: string) => s.split('\n').length - 1;
        traceReplace(first, last, last - first + nl(newText) - nl(oldText), n);
        text = text.slice(0, at) + newText + text.slice(at + oldText.length);
        continue;
      }
      // Blank lines at the edges of old_text are left alone, as they are dropped from new_text.
      while (whole.start < whole.end && bare[whole.start]!.trim() === '') whole.start++;
      while (whole.end > whole.start && bare[whole.end - 1]!.trim() === '') whole.end--;
      match = { start: whole.start, end: whole.end, pieces: [{ at: whole.start, lines: afterIndent ? oldLines : bare.slice(whole.start, whole.end) }] };
      exactMatch = !afterIndent;
    } else if (exact.length > 1) {
      const where = exact.slice(0, 10).map((i) => lineOfIndex(text, i));
      return fail(
        `old_text matches ${exact.length >= 50 ? 'at least 50' : exact.length} places (lines ${where.join(', ')}${exact.length > 10 ? ', …' : ''}); ` +
          'it must match exactly one. Include more surrounding lines to make it unique.',
      );
    }

    if (!match) {
      if (oldLines.length === 0) return fail('old_text is only whitespace.');
      const fileTrim = bare.map((l) => l.trim());
      const literal = findLineMatches(fileTrim, [oldLines], 50);
      if (literal.length > 1) {
        return fail(
          `old_text was not found exactly, and ignoring indentation it matches ${literal.length} places ` +
            `(lines ${literal.slice(0, 10).map((x) => x.start + 1).join(', ')}); include more surrounding lines to make it unique.`,
        );
      }
      match = literal[0];
      if (!match) {
        const pieces = splitAtMarkers(oldLines, looksLikeElisionMarker).filter((p, i, all) => p.length > 0 || (i > 0 && i < all.length - 1));
        if (pieces.length > 1 || (pieces.length === 1 && pieces[0]!.length < oldLines.length)) {
          if (pieces.some((p) => p.length === 0) || pieces.length === 0) return fail(`old_text has two elision markers with nothing between them. ${SEND_PLAINLY}`);
          // A marker at an end of old_text leaves that end of the region unknown; only a new_text that
          // elides the same end (and so keeps whatever is there) can be applied.
          const endsWithMarker = (ls: string[], atStart: boolean) => ls.length > 0 && looksLikeElisionMarker(ls[atStart ? 0 : ls.length - 1]!);
          for (const atStart of [true, false]) {
            if (endsWithMarker(oldLines, atStart) && !endsWithMarker(newLines, atStart)) {
              return fail(
                `old_text ${atStart ? 'begins' : 'ends'} with an elision marker, so where the region ${atStart ? 'starts' : 'ends'} is unknown, ` +
                  `and new_text does not elide that end too. Put the real ${atStart ? 'first' : 'last'} line(s) of the region in old_text, or ${SEND_PLAINLY[0]!.toLowerCase()}${SEND_PLAINLY.slice(1)}`,
              );
            }
          }
          // Several ways to match differ in which repeated lines (a closing brace, a blank) they use;
          // the one whose indentation agrees with old_text's on the most lines is taken when it is alone.
          let elided = findLineMatches(fileTrim, pieces, MAX_READINGS + 1);
          if (elided.length > 1) {
            const scored = elided.map((x) => ({ x, score: indentAgreement(x, bare) })).sort((a, b) => b.score - a.score);
            if (scored[0]!.score > scored[1]!.score) elided = [scored[0]!.x];
          }
          if (elided.length > 1 && elided.length <= MAX_READINGS) {
            // Readings that all give the same file are one edit: they differ only in which copy of
            // an unchanged anchor line (a closing brace) bounds the region, and new_text keeps the
            // run either way. Among readings, those whose indentation agrees best count.
            const best = Math.max(...elided.map((x) => indentAgreement(x, bare)));
            const likely = elided.filter((x) => indentAgreement(x, bare) === best);
            const results = likely.map((x) => {
              const b = buildReplacement(x, lines, bare, newLines, false, text, eol === '\r\n', blockKind);
              return b.ok ? [...lines.slice(0, x.start), ...b.lines, ...lines.slice(x.end)].join('\n') : undefined;
            });
            if (results[0] !== undefined && results.every((r) => r === results[0])) elided = [likely[0]!];
            else if (!newHasMarkers) {
              const confirmed = elided.filter((x) => newTextKeepsGaps(x, fileTrim, newLines));
              if (confirmed.length === 1) elided = confirmed;
            }
          }
          if (elided.length > 1) {
            return fail(
              `old_text has an elision marker standing for any run of lines, and so it matches more than one region ` +
                `(lines ${elided.map((x) => `${x.start + 1}-${x.end}`).join(' and ')}). Include more lines before and after the marker to make it unique, or ${SEND_PLAINLY[0]!.toLowerCase()}${SEND_PLAINLY.slice(1)}`,
            );
          }
          match = elided[0];
        }
      }
      if (!match) {
        const best = closestWindow(lines, oldLines);
        let hint = '';
        if (best && best.score > 0.2) {
          hint =
            `\nThe closest text is at lines ${best.start + 1}-${Math.min(lines.length, best.start + oldLines.length)} ` +
            `(${Math.round(best.score * 100)}% similar):\n${showLines(lines, best.start, oldLines.length)}\n` +
            'Copy the exact text from the file (or read it again) and retry.';
        } else hint = '\nNothing in the file resembles it; read the file again.';
        return fail(`old_text was not found (not even ignoring indentation and line-end whitespace).${hint}`);
      }
    }

    const built = buildReplacement(match, lines, bare, newLines, exactMatch, text, eol === '\r\n', blockKind);
    if (!built.ok) return fail(built.error);
    text = [...lines.slice(0, match.start), ...built.lines, ...lines.slice(match.end)].join('\n');
    traceReplace(match.start, match.end, built.lines.length, n);
    const span = `lines ${match.start + 1}-${match.end}`;
    if (!exactMatch && exact.length === 0) {
      fuzzyBlocks.push(n);
      notes.push(
        match.pieces.length > 1
          ? `${name}: old_text's elision marker was matched to ${span} as a whole. Check the result.`
          : `${name} did not match exactly; it was applied at ${span} by ignoring indentation and line-end whitespace${'' }. Check the result.`,
      );
    }
    if (built.kept > 0) notes.push(`${name}: the elision marker${segsPlural(newLines, oldTrim)} in new_text kept ${built.kept} existing line${built.kept === 1 ? '' : 's'} of the file unchanged.`);
  }
  return { ok: true, text, notes, fuzzyBlocks, trace: { origin, touched } };
}

function segsPlural(newLines: string[], oldTrim: Set<string>): string {
  return newLines.filter((l) => looksLikeElisionMarker(l) && !oldTrim.has(l.trim())).length > 1 ? 's' : '';
}
