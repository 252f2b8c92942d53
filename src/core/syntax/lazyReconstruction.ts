/**
 * A lazy text — a rewrite that writes "// ... existing code ..." for what it keeps — made whole
 * from the original by its syntax trees. Each marker stands among the children of some node; the
 * node is paired with the original's (siblingAlignment.ts, level by level from the top), and the
 * marker stands for the original children left between the pairs around it. Those lines replace
 * the marker's line, re-indented by the offset the pairs show (a model that wrote every line two
 * columns off, or with spaces for tabs, gets the file's lines the same way off).
 *
 * It refuses, naming the marker, whenever the reading is not unique: a marker whose node has no
 * counterpart, several markers with new code between them in a body whose order matters, a marker
 * whose lines share a line with code next to them, indentation that disagrees in Python, or a
 * result that parses with an error the original did not have.
 */
import { findElisionMarkers, holdsMarker, type MarkerNode } from './elisionMarkerNodes';
import { namedKids, parseWith, type ParsedTree, type SyntaxNode } from './parsedTree';
import { alignSiblings, type Pair } from './siblingAlignment';
import { grammarFor } from './syntaxGuard';

export type Reconstruction = { ok: true; text: string; kept: number } | { ok: false; reason: string };

/** A marker read: the original rows [from, to] it stands for (none when to < from), and how far right of them the lazy text sits. */
interface Placement {
  marker: MarkerNode;
  from: number;
  to: number;
  delta: number;
  /** The lazy row the kept lines go before, when not the marker's own (new members go after kept ones, see readLevel). */
  at?: number;
}

class Refusal extends Error {}

const TAB = 4;
const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];
const widthOf = (indent: string) => {
  let w = 0;
  for (const ch of indent) w = ch === '\t' ? w + TAB - (w % TAB) : w + 1;
  return w;
};
const usesTabs = (lines: string[]) => lines.filter((l) => l.startsWith('\t')).length > lines.filter((l) => /^ {2,}\S/.test(l)).length;
const named = (m: MarkerNode) => `"${m.line}" (line ${m.row + 1})`;

/** Lists whose members may come in any order (declarations), where new members between two markers are put after what the markers keep. */
function declarative(n: SyntaxNode): boolean {
  if (['program', 'module', 'class_body', 'object', 'interface_body', 'enum_body', 'object_type', 'declaration_list'].includes(n.type)) return true;
  return n.type === 'block' && n.parent?.type === 'class_definition';
}

const blankText = (n: SyntaxNode) => (n.type === 'jsx_text' || n.type === 'text') && n.text.trim() === '';

/** Rows inside multi-line strings: their text is the string's value and is never re-indented. */
function verbatimRows(root: SyntaxNode): Set<number> {
  const rows = new Set<number>();
  const visit = (n: SyntaxNode) => {
    if (n.endPosition.row === n.startPosition.row) return;
    if (/string|template/.test(n.type) && !n.type.includes('substitution')) {
      for (let r = n.startPosition.row + 1; r <= n.endPosition.row; r++) rows.add(r);
      return;
    }
    for (const c of namedKids(n)) visit(c);
  };
  visit(root);
  return rows;
}

interface Reading {
  grammar: string;
  orig: string[];
  lazy: string[];
  markers: MarkerNode[];
  placements: Placement[];
  /** The lazy text is a body lifted out of its class (wrapped to parse): the pairs of the class level. */
  wrapped?: { from: number; to: number };
}

/** The offset (lazy minus original, in columns) that the pairs of one level agree on. */
function levelDelta(r: Reading, pairs: Pair[], lazyNodes: (SyntaxNode | undefined)[], origNodes: SyntaxNode[]): number | undefined {
  const seen = new Map<number, number>();
  for (const p of pairs) {
    const l = lazyNodes[p.lazy]!;
    const o = origNodes[p.orig]!;
    const ll = r.lazy[l.startPosition.row]!;
    const ol = r.orig[o.startPosition.row]!;
    if (indentOf(ll).length !== l.startPosition.column || indentOf(ol).length !== o.startPosition.column) continue;
    const d = widthOf(indentOf(ll)) - widthOf(indentOf(ol));
    seen.set(d, (seen.get(d) ?? 0) + 1);
  }
  if (seen.size === 0) return undefined;
  if (seen.size > 1 && r.grammar === 'python') {
    throw new Refusal('the lines kept around the markers are indented inconsistently with the file, so it is unclear at which level the kept code belongs (in Python that changes what the code does)');
  }
  return [...seen.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

function lazyItems(n: SyntaxNode, markers: MarkerNode[]): { node?: SyntaxNode; marker?: MarkerNode; row: number }[] {
  const markerIds = new Set(markers.map((m) => m.node.id));
  const items: { node?: SyntaxNode; marker?: MarkerNode; row: number }[] = namedKids(n)
    .filter((c) => !markerIds.has(c.id) && !blankText(c))
    .map((c) => ({ node: c, row: c.startPosition.row }));
  for (const m of markers) if (m.container.id === n.id) items.push({ marker: m, row: m.row });
  return items.sort((a, b) => a.row - b.row);
}

/** Reads the markers among `l`'s children against `o`'s, then goes down into the pairs that hold markers deeper. */
function readLevel(r: Reading, o: SyntaxNode, l: SyntaxNode, inherited: number, top: boolean): number {
  const items = lazyItems(l, r.markers);
  const lazyNodes = items.map((i) => i.node);
  const origNodes = namedKids(o).filter((c) => !blankText(c));
  const pairs = alignSiblings(lazyNodes, origNodes, (n) => holdsMarker(n, r.markers));
  const delta = levelDelta(r, pairs, lazyNodes, origNodes) ?? inherited;
  const wrappedTop = top && r.wrapped !== undefined;
  for (let g = 0; g <= pairs.length; g++) {
    const before = pairs[g - 1];
    const after = pairs[g];
    const lFrom = before ? before.lazy + 1 : 0;
    const lTo = after ? after.lazy : items.length;
    const oFrom = before ? before.orig + 1 : 0;
    const oTo = after ? after.orig : origNodes.length;
    const gap = items.slice(lFrom, lTo);
    const gapOrig = origNodes.slice(oFrom, oTo);
    // Consecutive markers (nothing between them) are one.
    const groups: MarkerNode[][] = [];
    let last: 'marker' | 'node' | undefined;
    for (const it of gap) {
      if (it.marker) {
        if (last === 'marker') groups[groups.length - 1]!.push(it.marker);
        else groups.push([it.marker]);
        last = 'marker';
      } else last = 'node';
    }
    if (groups.length === 0) {
      if (wrappedTop && (g === 0 || g === pairs.length)) {
        throw new Refusal(`the text is a part of a class (it does not parse alone) with no marker at its ${g === 0 ? 'start' : 'end'}, so it is unclear what of the file ${g === 0 ? 'before' : 'after'} it to keep`);
      }
      continue;
    }
    if (groups.length > 1 && gapOrig.length > 0 && !declarative(l)) {
      throw new Refusal(`the markers ${named(groups[0]![0]!)} and ${named(groups[1]![0]!)} have new code between them and no unchanged line to tell which of the file's lines each keeps`);
    }
    let from = gapOrig.length ? gapOrig[0]!.startPosition.row : 0;
    let to = gapOrig.length ? gapOrig[gapOrig.length - 1]!.endPosition.row : -1;
    const prevEnd = before ? origNodes[before.orig]!.endPosition.row : -1;
    const nextStart = after ? origNodes[after.orig]!.startPosition.row : Infinity;
    if (wrappedTop && g === 0) [from, to] = [0, nextStart - 1];
    if (wrappedTop && g === pairs.length) [from, to] = [prevEnd + 1, r.orig.length - 1];
    if (to >= from && (from <= prevEnd || to >= nextStart)) {
      throw new Refusal(`the marker ${named(groups[0]![0]!)} stands for code that shares a line with code the text keeps or changes`);
    }
    while (from <= to && r.orig[from]!.trim() === '') from++;
    while (to >= from && r.orig[to]!.trim() === '') to--;
    if (to >= from) {
      // The file's blank line between the kept code and its neighbours stays where the text has none beside the marker.
      const first = groups[0]![0]!.row;
      const lastRow = groups[0]![groups[0]!.length - 1]!.row;
      if (from - 1 > prevEnd && r.orig[from - 1]!.trim() === '' && (r.lazy[first - 1] ?? '').trim() !== '') from--;
      if (to + 1 < Math.min(nextStart, r.orig.length) && r.orig[to + 1]!.trim() === '' && (r.lazy[lastRow + 1] ?? '').trim() !== '') to++;
    }
    // In a list of declarations, members the text adds beside a marker go after the members it keeps
    // (where a model puts a new method between "existing code" markers is no statement of order).
    const newBefore = gap.findIndex((it) => it.node);
    const moveTo = declarative(l) && g > 0 && !(wrappedTop && g === pairs.length) && newBefore !== -1 && gap[newBefore]!.row < groups[0]![0]!.row ? gap[newBefore]!.row : undefined;
    groups.forEach((group, k) =>
      group.forEach((m, j) =>
        r.placements.push(k === 0 && j === 0 ? { marker: m, from, to, delta, ...(moveTo !== undefined ? { at: moveTo } : {}) } : { marker: m, from: 0, to: -1, delta }),
      ),
    );
  }
  for (const p of pairs) {
    const ln = lazyNodes[p.lazy]!;
    if (holdsMarker(ln, r.markers)) readLevel(r, origNodes[p.orig]!, ln, delta, false);
  }
  return pairs.length;
}

function reindent(line: string, by: number, tabs: boolean): string {
  if (line.trim() === '') return '';
  const w = widthOf(indentOf(line)) + by;
  if (w < 0 || (tabs && w % TAB !== 0)) throw new Refusal('the text is indented by an amount the file\'s lines cannot be moved to');
  return (tabs ? '\t'.repeat(w / TAB) : ' '.repeat(w)) + line.trimStart();
}

/** The text with each marker replaced by the original lines it stands for. */
function assemble(r: Reading, lazyRows: [number, number], plainLazy: (row: number) => string, origVerbatim: Set<number>, lazyVerbatim: Set<number>): { text: string; kept: number } {
  const byRow = new Map(r.placements.map((p) => [p.at ?? p.marker.row, p]));
  const drop = new Set<number>();
  for (const p of r.placements) {
    if (p.to >= p.from && p.at === undefined) continue;
    drop.add(p.marker.row);
    // A marker that keeps nothing takes its blank lines with it (those before it, else those after).
    let b = p.marker.row - 1;
    if (b >= lazyRows[0] && r.lazy[b]!.trim() === '') for (; b >= lazyRows[0] && r.lazy[b]!.trim() === ''; b--) drop.add(b);
    else for (let a = p.marker.row + 1; a < lazyRows[1] && r.lazy[a]!.trim() === ''; a++) drop.add(a);
  }
  const shift = r.wrapped ? r.wrapped.to : 0;
  const lazyTabs = usesTabs(r.lazy);
  const origTabs = usesTabs(r.orig);
  const out: string[] = [];
  let kept = 0;
  for (let row = lazyRows[0]; row < lazyRows[1]; row++) {
    const p = byRow.get(row);
    if (p && (p.at !== undefined || !drop.has(row))) {
      // Wrapped, the lazy text moves to the file's indentation, so the file's lines move only by what a deeper level adds.
      const by = p.delta - shift;
      const tabs = r.wrapped ? origTabs : lazyTabs;
      for (let k = p.from; k <= p.to; k++) out.push(by === 0 && tabs === origTabs ? r.orig[k]! : origVerbatim.has(k) ? r.orig[k]! : reindent(r.orig[k]!, by, tabs));
      kept += p.to - p.from + 1;
      if (p.at === undefined) continue;
      // Moved before the text's new members: a blank line between, as between the members kept.
      if (out.length && out[out.length - 1]!.trim() !== '') out.push('');
    }
    if (drop.has(row)) continue;
    if (lazyVerbatim.has(row)) out.push(plainLazy(row));
    else if (r.wrapped) out.push(reindent(r.lazy[row]!, -shift, origTabs));
    else out.push(r.lazy[row]!);
  }
  return { text: out.join('\n'), kept };
}

/** Where a body lifted out of its class can go back: the class bodies of the original. */
function classBodies(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const visit = (n: SyntaxNode) => {
    if (n.type === 'class_body' || (n.type === 'block' && n.parent?.type === 'class_definition')) out.push(n);
    for (const c of namedKids(n)) visit(c);
  };
  visit(root);
  return out;
}

/**
 * The whole text meant by `lazy`, or why it cannot be told. Undefined when the file's language has
 * no grammar here or the text has no marker the tree places (the caller's line rules apply then).
 * `isMarkerLine` says which lines are markers (the wording, and not a line the original has).
 */
export async function reconstructLazyText(file: string, original: string, lazy: string, isMarkerLine: (line: string) => boolean): Promise<Reconstruction | undefined> {
  const grammar = grammarFor(file);
  if (!grammar) return undefined;
  const trees: ParsedTree[] = [];
  const parse = async (text: string) => {
    const t = await parseWith(grammar, text);
    if (t) trees.push(t);
    return t;
  };
  try {
    const origTree = await parse(original);
    const lazyTree = await parse(lazy);
    if (!origTree || !lazyTree) return undefined;
    const origLines = original.split('\n');
    const lazyLines = lazy.split('\n');
    const markers = findElisionMarkers(lazyTree.rootNode, lazyLines, grammar, isMarkerLine);
    if (markers.length === 0) return undefined;
    const origVerbatim = verbatimRows(origTree.rootNode);

    const finish = async (r: Reading, lazyRows: [number, number], plainLazy: (row: number) => string, lazyVerbatim: Set<number>): Promise<Reconstruction> => {
      const placed = new Set(r.placements.map((p) => p.marker.node.id));
      const lost = r.markers.find((m) => !placed.has(m.node.id));
      if (lost) return { ok: false, reason: `the marker ${named(lost)} stands in code that matches nothing in the file, so it is unclear which lines it keeps` };
      const built = assemble(r, lazyRows, plainLazy, origVerbatim, lazyVerbatim);
      const text = built.text.replace(/\n*$/, '') + (/\n$/.test(lazy) || (r.wrapped && /\n$/.test(original)) ? '\n' : '');
      const check = await parse(text);
      if (check?.rootNode.hasError && !origTree.rootNode.hasError) return { ok: false, reason: 'the file rebuilt from the markers would not parse' };
      return { ok: true, text, kept: built.kept };
    };

    // A text that does not parse is read as it is only where the original does not parse either (the same breakage, kept).
    if (!lazyTree.rootNode.hasError || origTree.rootNode.hasError) {
      const r: Reading = { grammar, orig: origLines, lazy: lazyLines, markers, placements: [] };
      try {
        const anchors = readLevel(r, origTree.rootNode, lazyTree.rootNode, 0, true);
        const done = await finish(r, [0, lazyLines.length], (row) => lazyLines[row]!, verbatimRows(lazyTree.rootNode));
        if (done.ok || anchors > 0) return done;
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        return { ok: false, reason: e.message };
      }
    }
    // A body lifted out of its class (methods with markers around them): read inside a class.
    const wrappedText = grammar === 'python'
      ? `class __Lazy__:\n${lazyLines.map((l) => (l.trim() ? `    ${l}` : l)).join('\n')}\n`
      : `class __Lazy__ {\n${lazy}\n}\n`;
    const wrappedTree = await parse(wrappedText);
    if (!wrappedTree || wrappedTree.rootNode.hasError) return { ok: false, reason: 'the text with markers does not parse, so the markers cannot be placed in it' };
    const wrappedLines = wrappedText.split('\n');
    const wrappedMarkers = findElisionMarkers(wrappedTree.rootNode, wrappedLines, grammar, isMarkerLine);
    const body = classBodies(wrappedTree.rootNode)[0];
    if (!body) return undefined;
    // The class of the original whose members the text names; it must be the only one.
    const fits = classBodies(origTree.rootNode).map((c) => {
      const pairs = alignSiblings(lazyItems(body, wrappedMarkers).map((i) => i.node), namedKids(c), () => false);
      return { c, named: pairs.filter((p) => p.by === 'text' || p.by === 'name').length };
    }).filter((x) => x.named > 0).sort((a, b) => b.named - a.named);
    if (fits.length === 0) return { ok: false, reason: `the marker ${named(wrappedMarkers[0] ? { ...wrappedMarkers[0], row: wrappedMarkers[0].row - 1 } : markers[0]!)} stands among code that matches nothing in the file` };
    if (fits.length > 1 && fits[1]!.named === fits[0]!.named) return { ok: false, reason: 'the text is a part of a class, and it fits more than one class of the file' };
    const r: Reading = { grammar, orig: origLines, lazy: wrappedLines, markers: wrappedMarkers, placements: [], wrapped: { from: 0, to: 0 } };
    try {
      // The class level's offset: the text moves to it, the file's lines stay.
      const items = lazyItems(body, wrappedMarkers);
      const origNodes = namedKids(fits[0]!.c);
      const pairs = alignSiblings(items.map((i) => i.node), origNodes, (n) => holdsMarker(n, wrappedMarkers));
      r.wrapped = { from: 0, to: levelDelta(r, pairs, items.map((i) => i.node), origNodes) ?? 0 };
      readLevel(r, fits[0]!.c, body, r.wrapped.to, true);
      const unwrap = (row: number) => (grammar === 'python' ? lazyLines[row - 1]! : wrappedLines[row]!);
      const done = await finish(r, [1, 1 + lazyLines.length], unwrap, verbatimRows(wrappedTree.rootNode));
      return done.ok ? done : { ok: false, reason: done.reason.replace(/\(line (\d+)\)/g, (_, n: string) => `(line ${Number(n) - 1})`) };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      return { ok: false, reason: e.message.replace(/\(line (\d+)\)/g, (_, n: string) => `(line ${Number(n) - 1})`) };
    }
  } finally {
    for (const t of trees) t.delete();
  }
}
