/**
 * Maps the model's indentation onto the file's after a match that ignored indentation.
 *
 * Every matched line is evidence: the model wrote indent `m` where the file has `f`. The mapping
 * is the table of those pairs, extended to indents the table lacks by a rule that explains every
 * pair (a constant offset, or a change of indent unit such as 2 → 4 spaces). When the first line
 * alone disagrees (the model copied the block without the first line's indentation), the rule is
 * taken from the other lines. Where nothing explains an indent, the mapping says so and the caller
 * refuses: a block whose indentation cannot be explained is never written.
 */

const TAB = 4;

export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function width(indent: string): number {
  let w = 0;
  for (const ch of indent) w = ch === '\t' ? w + TAB - (w % TAB) : w + 1;
  return w;
}

interface Rule {
  /** How the reading is named to the model when it is one of two. */
  name: string;
  at(w: number): number;
}

export interface IndentPair {
  model: string;
  file: string;
}

/** A line already placed in the replacement (the nearest non-blank ones before a line): its model indent (none for a line a marker kept), its file indent, its text. */
export interface PlacedLine {
  model: string | undefined;
  file: string;
  text: string;
}

/**
 * One way to read the model's indentation: the file indent for a model indent, given the line's
 * text and the lines placed before it; undefined where this reading cannot tell.
 */
export interface IndentReading {
  name: string;
  /** `next`: the next non-blank line new_text writes, with its file indent where that is known already (a line pinned to its old place). */
  map(modelIndent: string, firstLine: boolean, text: string, before: readonly PlacedLine[], next?: NextLine): string | undefined;
}

/** The line new_text writes next: its model indent and text, and its file indent when known without this reading. */
export interface NextLine {
  model: string;
  text: string;
  file?: string;
}

/** How the file's language closes blocks: by a character, by indentation (Python, whose rules are known here), or by indentation otherwise (YAML). */
export type BlockKind = 'delimited' | 'python' | 'indented';

/**
 * Every reading of the model's indentation that explains the matched lines. More than one when two
 * rules explain them and disagree on an indent old_text lacks (every line two columns shallower, or
 * the indent unit halved, both fit old lines at 0 and 2): the caller compares what each gives.
 */
export type IndentMapping =
  | { ok: true; identity: boolean; readings: IndentReading[] }
  | { ok: false; reason: string };

function fitOffset(pairs: [number, number][]): Rule | undefined {
  if (pairs.length === 0) return undefined;
  const d = pairs[0]![1] - pairs[0]![0];
  return pairs.every(([m, f]) => f - m === d) ? { name: `every line ${Math.abs(d)} columns ${d > 0 ? 'shallower' : 'deeper'} than the file's`, at: (w) => w + d } : undefined;
}

/**
 * Every indented line off by the same amount while the lines at column 0 are the file's own (a
 * model that took one level off each indented line, and none off the top-level lines). With no
 * line of old_text at column 0 it is a constant offset everywhere but at column 0, where the two
 * readings differ.
 */
function fitIndentedShift(pairs: [number, number][]): Rule | undefined {
  const indented = pairs.filter(([m]) => m > 0);
  if (indented.length === 0) return undefined;
  if (!pairs.every(([m, f]) => m > 0 || f === 0)) return undefined;
  const d = indented[0]![1] - indented[0]![0];
  if (d === 0 || !indented.every(([m, f]) => f - m === d)) return undefined;
  return { name: `every indented line ${Math.abs(d)} columns ${d > 0 ? 'shallower' : 'deeper'} than the file's, column 0 as it is`, at: (w) => (w === 0 ? 0 : w + d) };
}

/** A change of indent unit. Two points always fit a line, so a fit from two levels is trusted only for an integer scale ≥ 2 (2 → 4 spaces); otherwise three are needed. */
function fitScale(pairs: [number, number][]): Rule | undefined {
  const distinct = [...new Map(pairs.map(([m, f]) => [m, f])).entries()].sort((x, y) => x[0] - y[0]);
  if (distinct.length < 2) return undefined;
  const [m1, f1] = distinct[0]!;
  const [m2, f2] = distinct[distinct.length - 1]!;
  const a = (f2 - f1) / (m2 - m1);
  if (!(a > 0) || a === 1) return undefined;
  if (distinct.length < 3 && !(Number.isInteger(a) && a >= 2)) return undefined;
  const b = f1 - a * m1;
  return pairs.every(([m, f]) => Math.abs(a * m + b - f) < 1e-9) ? { name: `the indent unit ${a > 1 ? 'multiplied' : 'divided'} by ${a > 1 ? a : 1 / a}`, at: (w) => a * w + b } : undefined;
}

interface Explanation {
  table: Map<string, string>;
  known: [number, number][];
  rules: Rule[];
}

/** The table of pairs (one file indent per model indent, in the same order) and the rules that explain all of them. */
function explain(pairs: readonly IndentPair[]): Explanation | { reason: string } {
  const table = new Map<string, string>();
  for (const p of pairs) {
    const had = table.get(p.model);
    if (had !== undefined && had !== p.file) {
      return {
        reason: `the indentation of old_text does not correspond to the file's: lines the model indented alike ("${show(p.model)}") are indented differently in the file ("${show(had)}" and "${show(p.file)}")`,
      };
    }
    table.set(p.model, p.file);
  }
  const known = [...table.entries()].map(([m, f]) => [width(m), width(f)] as [number, number]).sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < known.length; i++) {
    if (known[i]![1] < known[i - 1]![1]) {
      return { reason: "the indentation of old_text is ordered differently from the file's (a deeper line in old_text is shallower in the file)" };
    }
  }
  const ws = pairs.map((p) => [width(p.model), width(p.file)] as [number, number]);
  return { table, known, rules: [fitOffset(ws), fitIndentedShift(ws), fitScale(ws)].filter((r): r is Rule => r !== undefined) };
}

const OPENS = /(\{|\(|\[|:|=>)\s*$/;
const CLOSES = /^[}\])]/;
const COMMENT = /^(\/\/|\/\*|\*|#)/;

/**
 * Every line one level shallower with the top-level lines untouched, in a file whose unit is that
 * level (two spaces, or a tab): the file's first level and column 0 both came out at column 0.
 * Lines of old_text are matched line by line, so their place is known; a new line at column 0 is
 * placed by its neighbours — beside an old line of the same text it takes that line's indent;
 * right after a line that opens a block at column 0 it is one level in; a closer right after a
 * first-level line goes back to column 0; otherwise it stays at the level of the nearest line
 * the model also wrote at column 0. Neighbours place lines so only in languages whose blocks are
 * delimited. In Python a line at column 0 could end a body or go on in it, and both parse: its
 * own rules place it where they allow one place (pythonPlace), and where they allow two there are
 * two readings, which the caller compares (and refuses naming both where they differ). Elsewhere
 * (YAML) a new line at column 0 is placed only where it is an old line (the caller also pins the
 * lines new_text shares with old_text at its start and end, and lines changed in place).
 */
function collapsedLevel(pairs: readonly IndentPair[], oldLines: readonly { text: string; file: string }[], render: (w: number) => string, blocks: BlockKind): IndentReading[] | undefined {
  const delimitedBlocks = blocks === 'delimited';
  const atZero = new Set(pairs.filter((p) => p.model === '').map((p) => p.file));
  const indented = pairs.filter((p) => p.model !== '');
  if (atZero.size !== 2 || !atZero.has('')) return undefined;
  const level = [...atZero].find((f) => f !== '')!;
  const d = width(level);
  if (!indented.every((p) => width(p.file) - width(p.model) === d)) return undefined;
  // Old lines by their text and the text of the non-blank line before them.
  const byText = new Map<string, Set<string>>();
  let prev = '';
  for (const l of oldLines) {
    const t = l.text.trim();
    if (t === '') continue;
    const k = `${prev}\n${t}`;
    if (!byText.has(k)) byText.set(k, new Set());
    byText.get(k)!.add(l.file);
    prev = t;
  }
  // The neighbours must place old_text's own lines where the file has them, or they say nothing of
  // this code. Where indentation closes blocks (Python, YAML) they place nothing: a line at column 0
  // there could end a block or go on in it, and both read; only lines known as old ones are placed.
  const placedOld: PlacedLine[] = [];
  for (const l of delimitedBlocks ? oldLines : []) {
    if (l.text.trim() === '') continue;
    const model = indentOf(l.text);
    if (model === '' && placedOld.length > 0) {
      const guess = byNeighbours(l.text, placedOld);
      if (guess !== undefined && guess !== l.file) return undefined;
    }
    placedOld.push({ model, file: l.file, text: l.text.trim() });
  }
  const known = (modelIndent: string, text: string, before: readonly PlacedLine[]): string | undefined => {
    if (modelIndent !== '') return render(width(modelIndent) + d);
    // An old line of the same text after the same line (the line did not move) keeps its place;
    // else the neighbours place it (punctuation alone, "});", names no line).
    const prevText = before.at(-1)?.text;
    const same = /[A-Za-z0-9_]/.test(text) ? byText.get(`${prevText ?? ''}\n${text.trim()}`) : undefined;
    if (same && same.size === 1) return [...same][0]!;
    return delimitedBlocks ? byNeighbours(text, before) : undefined;
  };
  const name = 'every line one level shallower than the file\'s, column 0 as it is';
  if (blocks !== 'python') return [{ name, map: (modelIndent, _first, text, before) => known(modelIndent, text, before) }];
  // Python: where its rules put a new line at column 0 in one place only, there; where it could end
  // a block or go on in it (both read), two readings, which the caller compares.
  const reading = (top: boolean): IndentReading => ({
    name: `${name}, a new line that could end a block or go on in it ${top ? 'ending it (at column 0)' : 'going on in it (one level in)'}`,
    map(modelIndent, _first, text, before, next) {
      const k = known(modelIndent, text, before);
      if (k !== undefined) return k;
      const placed = pythonPlace(text, before, next, level);
      return placed === 'either' ? (top ? '' : level) : placed;
    },
  });
  return [reading(true), reading(false)];

  function byNeighbours(text: string, before: readonly PlacedLine[]): string | undefined {
    const prev = before.at(-1);
    if (!prev) return undefined;
    const opens = OPENS.test(prev.text) && !COMMENT.test(prev.text);
    if (prev.model === '') {
      if (opens) return prev.file === '' ? level : undefined;
      if (CLOSES.test(text.trim())) return prev.file === level ? '' : undefined;
      return prev.file;
    }
    // After a deeper line: a closer goes one level out from it (or to its level, when it opened a block).
    if (CLOSES.test(text.trim())) {
      const w = width(prev.file) - (opens ? 0 : d);
      return w === 0 ? '' : w === d ? level : undefined;
    }
    return [...before].reverse().find((b) => b.model === '')?.file;
  }
}

const PY_OPENS_BLOCK = /:\s*(#.*)?$/;
const PY_GOES_ON = /([([{,\\]|\b(and|or|not|in|is|if|else|lambda))\s*(#.*)?$/;
const PY_DEDENT = /^(else|elif|except|finally|case)\b/;
const TRIPLE_QUOTE = /"""|'''/g;

/**
 * Where Python's own rules put a new line the model wrote at column 0 when column 0 stands for two
 * levels (the top and `level`): 'either' where both read. After a top-level line that opens a
 * block, a statement is one level in (a block needs a body); after a top-level line that does not,
 * it stays at the top (one level in is an unexpected indent). After a line one level in, it could
 * end the block or go on in it; a next line one level in (or deeper) decides for going on, unless
 * this line opens a block of its own. A comment goes with the code after it. Inside a string, in
 * a continued expression, or for a closing bracket or an else-like line, both read: 'either'.
 */
function pythonPlace(text: string, before: readonly PlacedLine[], next: NextLine | undefined, level: string): string | 'either' {
  const t = text.trim();
  const quotes = before.reduce((n, b) => n + (b.text.match(TRIPLE_QUOTE) ?? []).length, 0);
  if (quotes % 2 === 1) return 'either';
  if (t.startsWith('#')) return next?.file === '' || next?.file === level ? next.file : 'either';
  if (/^[)\]}]/.test(t) || PY_DEDENT.test(t)) return 'either';
  const prev = [...before].reverse().find((b) => !b.text.startsWith('#'));
  if (!prev || PY_GOES_ON.test(prev.text)) return 'either';
  if (prev.file === '') return PY_OPENS_BLOCK.test(prev.text) ? level : '';
  if (PY_OPENS_BLOCK.test(prev.text)) return 'either';
  if (next?.file !== undefined && width(next.file) >= width(level) && !PY_OPENS_BLOCK.test(t)) return level;
  return 'either';
}

/**
 * The readings of the model's indentation. `oldLines`: the matched lines of old_text with the
 * file's indent of each (for the collapsed-level reading); `blocks`: how the file's language
 * closes its blocks.
 */
export function buildIndentMapping(
  pairs: readonly IndentPair[],
  fileUsesTabs: boolean,
  oldLines: readonly { text: string; file: string }[] = [],
  blocks: BlockKind = 'indented',
): IndentMapping {
  if (pairs.every((p) => p.model === p.file)) return { ok: true, identity: true, readings: [{ name: 'as written', map: (m) => m }] };
  const render = (w: number) => (fileUsesTabs ? '\t'.repeat(Math.floor(w / TAB)) + ' '.repeat(w % TAB) : ' '.repeat(w));

  let e = explain(pairs);
  let first: IndentPair | undefined;
  // The first line alone off (the model copied from its first character on): the other lines
  // explain the mapping, and the first line of the replacement takes the first matched line's place.
  // Only when that story holds: the other lines are the file's own, or the first line's indent is
  // one the others do not use (lines flattened to one level are not explained this way).
  if ((!('table' in e) || e.rules.length === 0) && pairs.length > 1) {
    const restPairs = pairs.slice(1);
    const rest = explain(restPairs);
    const plausible = restPairs.every((p) => p.model === p.file) || !restPairs.some((p) => p.model === pairs[0]!.model);
    if ('table' in rest && plausible && (rest.rules.length > 0 || !('table' in e))) {
      e = rest;
      first = pairs[0];
    }
  }
  if (!('table' in e)) {
    const collapsed = collapsedLevel(pairs, oldLines, render, blocks);
    if (!collapsed) return { ok: false, reason: e.reason };
    return { ok: true, identity: false, readings: collapsed };
  }
  const { table, rules } = e;
  // The first line bounds new levels too, unless its model indent means something else in the table.
  const known = first && !table.has(first.model) ? [...e.known, [width(first.model), width(first.file)] as [number, number]] : e.known;

  const readingOf = (use: readonly Rule[], name: string): IndentReading => ({
    name,
    map(modelIndent, firstLine) {
      if (first && firstLine && modelIndent === first.model) return first.file;
      const direct = table.get(modelIndent);
      if (direct !== undefined) return direct;
      const w = width(modelIndent);
      const answers = new Set(use.map((r) => r.at(w)));
      if (answers.size !== 1) return undefined;
      const target = [...answers][0]!;
      if (!Number.isInteger(target) || target < 0) return undefined;
      // The new level must sit strictly between its neighbours in the table, or it would merge two levels.
      for (const [m, f] of known) {
        if (m < w && f >= target) return undefined;
        if (m > w && f <= target) return undefined;
      }
      return render(target);
    },
  });
  // Two rules that explain the same lines are two readings; the caller keeps one only where they agree or the file decides.
  if (rules.length > 1) return { ok: true, identity: false, readings: rules.map((r) => readingOf([r], r.name)) };
  return { ok: true, identity: false, readings: [readingOf(rules, rules[0]?.name ?? 'the matched lines')] };
}

/**
 * The file's indent unit: the most common step by which a line is indented deeper than the line
 * before it (4 for most Python, 2 for much TypeScript, a tab's width for Go).
 */
export function indentUnit(lines: readonly string[]): number {
  const counts = new Map<number, number>();
  let prev = -1;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const w = width(indentOf(l));
    if (prev >= 0 && w > prev) counts.set(w - prev, (counts.get(w - prev) ?? 0) + 1);
    prev = w;
  }
  let best = 4;
  let n = 0;
  for (const [k, c] of counts) if (c > n || (c === n && k < best)) [best, n] = [k, c];
  return best;
}

/**
 * How far a replacement's indentation strays from the file's habits: lines deeper than the line
 * before them by more than one unit, and lines off the unit's grid. Two readings of the model's
 * indentation are told apart by this where they give different text.
 */
export function indentStrays(lines: readonly string[], unit: number): number {
  let n = 0;
  let prev = -1;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const w = width(indentOf(l));
    if (w % unit !== 0) n++;
    if (prev >= 0 && w - prev > unit) n++;
    prev = w;
  }
  return n;
}

export function indentWidth(indent: string): number {
  return width(indent);
}

function show(indent: string): string {
  if (indent === '') return 'no indentation';
  const tabs = (indent.match(/\t/g) ?? []).length;
  const spaces = indent.length - tabs;
  return [tabs ? `${tabs} tab${tabs > 1 ? 's' : ''}` : '', spaces ? `${spaces} space${spaces > 1 ? 's' : ''}` : ''].filter(Boolean).join(' + ');
}

/** Whether the file indents with tabs, judged from the given lines first and the whole text second. */
export function usesTabs(lines: readonly string[], wholeText: string): boolean {
  let tabs = 0;
  let spaces = 0;
  for (const l of lines) {
    if (l.startsWith('\t')) tabs++;
    else if (l.startsWith(' ') && l.trim() !== '') spaces++;
  }
  if (tabs + spaces === 0) {
    tabs = (wholeText.match(/^\t/gm) ?? []).length;
    spaces = (wholeText.match(/^ +\S/gm) ?? []).length;
  }
  return tabs > spaces;
}
