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
  at(w: number): number;
}

export interface IndentPair {
  model: string;
  file: string;
}

export type IndentMapping =
  | { ok: true; identity: boolean; map(modelIndent: string, firstLine: boolean): string | undefined }
  | { ok: false; reason: string };

function fitOffset(pairs: [number, number][]): Rule | undefined {
  if (pairs.length === 0) return undefined;
  const d = pairs[0]![1] - pairs[0]![0];
  return pairs.every(([m, f]) => f - m === d) ? { at: (w) => w + d } : undefined;
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
  return pairs.every(([m, f]) => Math.abs(a * m + b - f) < 1e-9) ? { at: (w) => a * w + b } : undefined;
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
  return { table, known, rules: [fitOffset(ws), fitScale(ws)].filter((r): r is Rule => r !== undefined) };
}

export function buildIndentMapping(pairs: readonly IndentPair[], fileUsesTabs: boolean): IndentMapping {
  if (pairs.every((p) => p.model === p.file)) return { ok: true, identity: true, map: (m) => m };

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
  if (!('table' in e)) return { ok: false, reason: e.reason };
  const { table, rules } = e;
  // The first line bounds new levels too, unless its model indent means something else in the table.
  const known = first && !table.has(first.model) ? [...e.known, [width(first.model), width(first.file)] as [number, number]] : e.known;

  const render = (w: number) => (fileUsesTabs ? '\t'.repeat(Math.floor(w / TAB)) + ' '.repeat(w % TAB) : ' '.repeat(w));
  return {
    ok: true,
    identity: false,
    map(modelIndent, firstLine) {
      if (first && firstLine && modelIndent === first.model) return first.file;
      const direct = table.get(modelIndent);
      if (direct !== undefined) return direct;
      const w = width(modelIndent);
      const answers = new Set(rules.map((r) => r.at(w)));
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
  };
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
