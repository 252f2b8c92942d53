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
import { namedKids, parseWith, type ParsedTree, type SyntaxNode } from '../../syntax/parsedTree';
import { listKids } from './listMembers';
import { likeness, nameKey, textKey } from './nodeKeys';
import { ALIKE, alignSiblings, extendByText, type Pair } from './siblingAlignment';
import { grammarFor, guardTreeOf } from '../../syntax/syntaxGuard';
import { describeKeptTwice, keptBlockTwice } from './keptBlockTwice';

/** `clearer`: the refusal names what is wrong with the rebuilt text (a block kept twice), which says more than the line rules' own refusal. */
export type Reconstruction = { ok: true; text: string; kept: number } | { ok: false; reason: string; clearer?: true };

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
/** The text's markers do not stand between whole nodes (a marker inside code that goes on after it): no reading by structure; the line rules may read it. */
class NotStructural extends Error {}

const TAB = 4;
/** New code at least this alike (token overlap) to code a marker keeps may be a changed copy of it. */
const CHANGED_COPY = 0.5;
const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];
const widthOf = (indent: string) => {
  let w = 0;
  for (const ch of indent) w = ch === '\t' ? w + TAB - (w % TAB) : w + 1;
  return w;
};
const usesTabs = (lines: string[]) => lines.filter((l) => l.startsWith('\t')).length > lines.filter((l) => /^ {2,}\S/.test(l)).length;
const named = (m: MarkerNode) => `"${m.line}" (line ${m.row + 1})`;

/** Lists of declarations (a file's top level, a class body, an object), where names identify members. */
function declarative(n: SyntaxNode): boolean {
  if (['program', 'module', 'class_body', 'object', 'interface_body', 'enum_body', 'object_type', 'declaration_list'].includes(n.type)) return true;
  return n.type === 'block' && n.parent?.type === 'class_definition';
}

/** Member lists (a class's body): the order of members is no statement, so new ones may go after kept ones. */
function memberList(n: SyntaxNode): boolean {
  return ['class_body', 'interface_body', 'object_type', 'enum_body', 'declaration_list'].includes(n.type) || (n.type === 'block' && n.parent?.type === 'class_definition');
}

const blankText = (n: SyntaxNode) => (n.type === 'jsx_text' || n.type === 'text') && n.text.trim() === '';

/** Rows (of those from `from` to `to`) inside multi-line strings: their text is the string's value and is never re-indented. */
function verbatimRows(root: SyntaxNode, from = 0, to = Infinity): Set<number> {
  const rows = new Set<number>();
  const visit = (n: SyntaxNode) => {
    if (n.endPosition.row === n.startPosition.row || n.endPosition.row < from || n.startPosition.row > to) return;
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

function lazyItems(n: SyntaxNode, markers: MarkerNode[], grammar: string): { node?: SyntaxNode; marker?: MarkerNode; row: number }[] {
  const markerIds = new Set(markers.map((m) => m.node.id));
  const items: { node?: SyntaxNode; marker?: MarkerNode; row: number }[] = listKids(n, grammar)
    .filter((c) => !markerIds.has(c.id) && !blankText(c))
    .map((c) => ({ node: c, row: c.startPosition.row }));
  for (const m of markers) {
    if (m.container.id !== n.id) continue;
    // Code of one sibling on both sides of the marker (Python reads lines indented after a
    // top-level comment as the function above going on): the marker is not between nodes.
    if (items.some((it) => it.node && it.node.startPosition.row < m.row && it.node.endPosition.row > m.row)) throw new NotStructural();
    items.push({ marker: m, row: m.row });
  }
  return items.sort((a, b) => a.row - b.row);
}

/** A refusal because new code may be a changed copy of code a marker keeps: another pairing of repeated lines may clear it. */
class CopyRefusal extends Refusal {
  constructor(message: string, readonly copy: SyntaxNode) {
    super(message);
  }
}

/** A refusal because new code stands between two markers: pairing it with code of the file much like it (a changed node) may place it. */
class BetweenMarkersRefusal extends Refusal {
  constructor(message: string, readonly between: SyntaxNode[]) {
    super(message);
  }
}

type Item = { node?: SyntaxNode; marker?: MarkerNode; row: number };

/**
 * The rows of the original node's first children that the text's node does not show, when it
 * starts at a later child of it (a Python definition written with its last decorator, or none).
 */
function leadingChildren(r: Reading, o: SyntaxNode, l: SyntaxNode): { from: number; to: number } | undefined {
  const first = r.lazy[l.startPosition.row]!.trim();
  if (r.orig[o.startPosition.row]!.trim() === first) return undefined;
  const kids = namedKids(o);
  for (let i = 1; i < kids.length; i++) {
    const c = kids[i]!;
    // Whole lines only: a child that starts on the line another ends is no line a marker can keep.
    if (c.startPosition.row <= kids[i - 1]!.endPosition.row) return undefined;
    if (r.orig[c.startPosition.row]!.trim() === first) return { from: o.startPosition.row, to: c.startPosition.row - 1 };
  }
  return undefined;
}

/**
 * What each marker among `items` keeps, given the pairs: the original siblings left between the
 * pairs around it. Throws a Refusal when that is not one clear reading.
 */
function readGaps(r: Reading, l: SyntaxNode, items: Item[], origNodes: SyntaxNode[], pairs: Pair[], delta: number, wrappedTop: boolean): Placement[] {
  const out: Placement[] = [];
  const inBody = !declarative(l);
  const kept: SyntaxNode[] = [];
  const added: { node: SyntaxNode; besideMarker: boolean }[] = [];
  let firstMarker: MarkerNode | undefined;
  let origNames: Set<string | undefined> | undefined;
  for (let g = 0; g <= pairs.length; g++) {
    const before = pairs[g - 1];
    const after = pairs[g];
    const gap = items.slice(before ? before.lazy + 1 : 0, after ? after.lazy : items.length);
    const gapOrig = origNodes.slice(before ? before.orig + 1 : 0, after ? after.orig : origNodes.length);
    const besideMarker = gap.some((it) => it.marker);
    for (const it of gap) if (it.node) added.push({ node: it.node, besideMarker });
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
    firstMarker ??= groups[0]![0]!;
    // A model writes a marker for code it keeps. One that would keep nothing is taken only in a
    // class body or beside new members with new names (tests added after "existing tests"); else the
    // pairs around it are not what the model meant (code moved or copied, a marker inside a node).
    origNames ??= new Set(origNodes.map((o) => nameKey(o, inBody)));
    const newNamed = gap.some((it) => it.node) && gap.every((it) => !it.node || (nameKey(it.node, inBody) !== undefined && !origNames!.has(nameKey(it.node, inBody))));
    // A marker right before a node whose original starts with parts the text's node does not show keeps them too.
    const lead = after && groups.length === 1 && gap[gap.length - 1]!.marker ? leadingChildren(r, origNodes[after.orig]!, items[after.lazy]!.node!) : undefined;
    if (gapOrig.length === 0 && !wrappedTop && !memberList(l) && !newNamed && !lead) {
      throw new Refusal(`the marker ${named(groups[0]![0]!)} would keep nothing where it stands (the code beside it is paired with code of the file next to each other), so it is unclear what it stands for`);
    }
    kept.push(...gapOrig);
    if (groups.length > 1 && gapOrig.length > 0 && !memberList(l)) {
      throw new BetweenMarkersRefusal(
        `the markers ${named(groups[0]![0]!)} and ${named(groups[1]![0]!)} have new code between them and no unchanged line to tell which of the file's lines each keeps`,
        gap.flatMap((it) => (it.node ? [it.node] : [])),
      );
    }
    let from = gapOrig.length ? gapOrig[0]!.startPosition.row : 0;
    let to = gapOrig.length ? gapOrig[gapOrig.length - 1]!.endPosition.row : -1;
    const prevEnd = before ? origNodes[before.orig]!.endPosition.row : -1;
    if (lead) [from, to] = [gapOrig.length ? from : lead.from, lead.to];
    const nextStart = lead ? lead.to + 1 : after ? origNodes[after.orig]!.startPosition.row : Infinity;
    if (wrappedTop && g === 0) [from, to] = [0, nextStart - 1];
    if (wrappedTop && g === pairs.length) [from, to] = [prevEnd + 1, r.orig.length - 1];
    if (to >= from && (from <= prevEnd || to >= nextStart)) {
      throw new Refusal(`the marker ${named(groups[0]![0]!)} stands for code that shares a line with code the text keeps or changes`);
    }
    while (from <= to && r.orig[from]!.trim() === '') from++;
    while (to >= from && r.orig[to]!.trim() === '') to--;
    if (to >= from) {
      // The file's blank lines between the kept code and its neighbours stay, all of them (two
      // between Python's top-level definitions), where the text has none beside the marker.
      const first = groups[0]![0]!.row;
      const lastRow = groups[0]![groups[0]!.length - 1]!.row;
      if ((r.lazy[first - 1] ?? '').trim() !== '') while (from - 1 > prevEnd && r.orig[from - 1]!.trim() === '') from--;
      if ((r.lazy[lastRow + 1] ?? '').trim() !== '') while (to + 1 < Math.min(nextStart, r.orig.length) && r.orig[to + 1]!.trim() === '') to++;
    }
    // In a class body, members the text adds beside a marker go after the members it keeps (where a
    // model puts a new method between "existing code" markers is no statement of order; Continue's apply does the same).
    const newBefore = gap.findIndex((it) => it.node);
    const moveTo = memberList(l) && g > 0 && !(wrappedTop && g === pairs.length) && newBefore !== -1 && gap[newBefore]!.row < groups[0]![0]!.row ? gap[newBefore]!.row : undefined;
    groups.forEach((group, k) =>
      group.forEach((m, j) => out.push(k === 0 && j === 0 ? { marker: m, from, to, delta, ...(moveTo !== undefined ? { at: moveTo } : {}) } : { marker: m, from: 0, to: -1, delta })),
    );
  }
  // New code is new only if it is no changed copy of code a marker keeps (a new name, or nothing
  // alike); else it is unclear which of the file's lines it replaces. Beside a marker that is a
  // question of where the marker's stretch ends. Between two pairs with no marker, new code stands
  // where the text puts it, after and before code that stays: there only a declaration whose name
  // a marker keeps elsewhere would be a copy (statements alike to others are common in a body).
  if (kept.length > 0 && firstMarker) {
    const keptNames = new Set(kept.map((o) => nameKey(o, inBody)).filter((k) => k !== undefined));
    for (const { node: n, besideMarker } of added) {
      const k = nameKey(n, inBody);
      if (!besideMarker && (inBody || k === undefined)) continue;
      const fresh = k !== undefined ? !keptNames.has(k) : !kept.some((o) => likeness(n, o) >= CHANGED_COPY);
      if (!fresh) throw new CopyRefusal(`the text has new code (line ${n.startPosition.row + 1}) like code of the file that the marker ${named(firstMarker)} would keep, so it is unclear which lines it replaces`, n);
    }
  }
  return out;
}

/**
 * A line the text repeats from the file, where the file has it more than once, pairs with none
 * (siblingAlignment pairs only what is unique). When that leaves the markers unclear, each way to
 * pair the first such node is tried: the one reading that is clear is taken.
 */
function readAmbiguous(r: Reading, l: SyntaxNode, items: Item[], origNodes: SyntaxNode[], pairs: Pair[], delta: number, wrappedTop: boolean, refusal: CopyRefusal): { pairs: Pair[]; placements: Placement[] } {
  const pairedL = new Set(pairs.map((p) => p.lazy));
  const pairedO = new Set(pairs.map((p) => p.orig));
  for (let li = 0; li < items.length; li++) {
    const ln = items[li]!.node;
    if (!ln || pairedL.has(li)) continue;
    const before = [...pairs].reverse().find((p) => p.lazy < li);
    const after = pairs.find((p) => p.lazy > li);
    const key = textKey(ln);
    const candidates = origNodes.map((o, oi) => ({ o, oi })).filter(({ o, oi }) => !pairedO.has(oi) && oi > (before?.orig ?? -1) && oi < (after?.orig ?? Infinity) && textKey(o) === key);
    if (candidates.length < 2) continue;
    const readings: { pairs: Pair[]; placements: Placement[] }[] = [];
    for (const { oi } of candidates) {
      const tried = extendByText([...pairs, { lazy: li, orig: oi, by: 'text' as const }].sort((a, b) => a.lazy - b.lazy), items.map((i) => i.node), origNodes);
      try {
        readings.push({ pairs: tried, placements: readGaps(r, l, items, origNodes, tried, delta, wrappedTop) });
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
      }
    }
    if (readings.length === 1) return readings[0]!;
    break;
  }
  // The new code may be the changed copy of one node much alike to it: taken when exactly one such
  // pairing leaves a clear reading that drops no node of the file's list the text did not drop already.
  const li = items.findIndex((i) => i.node?.id === refusal.copy.id);
  const readings: { pairs: Pair[]; placements: Placement[] }[] = [];
  for (let oi = 0; oi < origNodes.length && li !== -1; oi++) {
    if (pairedO.has(oi) || likeness(refusal.copy, origNodes[oi]!) < ALIKE) continue;
    const tried = [...pairs, { lazy: li, orig: oi, by: 'likeness' as const }].sort((a, b) => a.lazy - b.lazy);
    if (tried.some((p, k) => k > 0 && p.orig <= tried[k - 1]!.orig)) continue;
    try {
      const placements = readGaps(r, l, items, origNodes, tried, delta, wrappedTop);
      if (dropsNothing(items, origNodes, tried, pairs)) readings.push({ pairs: tried, placements });
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
    }
  }
  if (readings.length === 1) return readings[0]!;
  throw refusal;
}

/** The original nodes of the list that are neither paired nor in a stretch a marker keeps: what the text drops. */
function dropped(items: Item[], origNodes: SyntaxNode[], pairs: Pair[]): Set<number> {
  const out = new Set<number>();
  for (let g = 0; g <= pairs.length; g++) {
    const before = pairs[g - 1];
    const after = pairs[g];
    const gap = items.slice(before ? before.lazy + 1 : 0, after ? after.lazy : items.length);
    if (gap.some((it) => it.marker)) continue;
    for (let o = before ? before.orig + 1 : 0; o < (after ? after.orig : origNodes.length); o++) out.add(o);
  }
  return out;
}

/** Whether the pairs `tried` drop no original node that `pairs` (the reading without the guess) did not drop already. */
function dropsNothing(items: Item[], origNodes: SyntaxNode[], tried: Pair[], pairs: Pair[]): boolean {
  const before = dropped(items, origNodes, pairs);
  return [...dropped(items, origNodes, tried)].every((o) => before.has(o));
}

/**
 * New code between two markers is placed only as the changed form of code of the file it is much
 * like — the one node of its kind and name that is its best match and it theirs — so that the
 * markers keep what stands around that node. Taken when the reading is then clear and drops no
 * node of the file the text did not drop already; a node with no such match (new code) is refused.
 */
function readBetweenMarkers(r: Reading, l: SyntaxNode, items: Item[], origNodes: SyntaxNode[], pairs: Pair[], delta: number, wrappedTop: boolean, refusal: BetweenMarkersRefusal): { pairs: Pair[]; placements: Placement[] } {
  const between = new Set(refusal.between.map((n) => n.id));
  const tried = alignSiblings(items.map((i) => i.node), origNodes, (n) => holdsMarker(n, r.markers), !declarative(l), (n) => holdsMarker(n, r.markers) || between.has(n.id));
  if (tried.length === pairs.length || !dropsNothing(items, origNodes, tried, pairs)) throw refusal;
  try {
    return { pairs: tried, placements: readGaps(r, l, items, origNodes, tried, delta, wrappedTop) };
  } catch (e) {
    if (e instanceof Refusal) throw refusal;
    throw e;
  }
}

/** Reads the markers among `l`'s children against `o`'s, then goes down into the pairs that hold markers deeper. */
function readLevel(r: Reading, o: SyntaxNode, l: SyntaxNode, inherited: number, top: boolean): number {
  const items = lazyItems(l, r.markers, r.grammar);
  const lazyNodes = items.map((i) => i.node);
  const origNodes = listKids(o, r.grammar).filter((c) => !blankText(c));
  let pairs = alignSiblings(lazyNodes, origNodes, (n) => holdsMarker(n, r.markers), !declarative(l));
  const delta = levelDelta(r, pairs, lazyNodes, origNodes) ?? inherited;
  const wrappedTop = top && r.wrapped !== undefined;
  let placements: Placement[];
  try {
    placements = readGaps(r, l, items, origNodes, pairs, delta, wrappedTop);
  } catch (e) {
    if (e instanceof BetweenMarkersRefusal) ({ pairs, placements } = readBetweenMarkers(r, l, items, origNodes, pairs, delta, wrappedTop, e));
    else if (e instanceof CopyRefusal) ({ pairs, placements } = readAmbiguous(r, l, items, origNodes, pairs, delta, wrappedTop, e));
    else throw e;
  }
  r.placements.push(...placements);
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
function assemble(r: Reading, lazyRows: [number, number], plainLazy: (row: number) => string, origVerbatim: (from: number, to: number) => Set<number>, lazyVerbatim: Set<number>): { text: string; kept: number } {
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
      const asIs = by === 0 && tabs === origTabs;
      const verbatim = asIs ? new Set<number>() : origVerbatim(p.from, p.to);
      for (let k = p.from; k <= p.to; k++) out.push(asIs || verbatim.has(k) ? r.orig[k]! : reindent(r.orig[k]!, by, tabs));
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

/**
 * Why the rebuilt text is refused when a marker keeps a block that the text writes again beside it
 * (keptBlockTwice.ts); undefined when none does.
 */
function keptTwice(r: Reading, lazyRows: [number, number], result: string): string | undefined {
  const rows = [...new Set(r.markers.map((m) => m.row))].sort((a, b) => a - b);
  const resultLines = result.split('\n');
  for (const p of r.placements) {
    if (p.to < p.from) continue;
    const k = rows.indexOf(p.marker.row);
    const before = r.lazy.slice(k > 0 ? rows[k - 1]! + 1 : lazyRows[0], p.marker.row);
    const after = r.lazy.slice(p.marker.row + 1, k + 1 < rows.length ? rows[k + 1]! : lazyRows[1]);
    const t = keptBlockTwice(r.orig, p.from, p.to + 1, before, after, resultLines);
    if (t) {
      return `the marker ${named(p.marker)} would keep lines of the file that the text writes again beside it, so ${describeKeptTwice(t)} would appear twice (the file has them once); ` +
        'it is unclear where the marker\'s lines end';
    }
  }
  return undefined;
}

/** How many line feeds end `s` (a loop: /\n*$/ on a whole file tries every position). */
function trailingNewlines(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(s.length - 1 - n) === 10) n++;
  return n;
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
    return await readByStructure(file, original, lazy, isMarkerLine, grammar, parse);
  } catch (e) {
    if (e instanceof NotStructural) return undefined;
    throw e;
  } finally {
    for (const t of trees) t.delete();
  }
}

async function readByStructure(
  file: string,
  original: string,
  lazy: string,
  isMarkerLine: (line: string) => boolean,
  grammar: string,
  parse: (text: string) => Promise<ParsedTree | undefined>,
): Promise<Reconstruction | undefined> {
  {
    // The original's tree is the guard's (shared, not deleted here), so its check of the result reparses only what changed.
    const origTree = (await guardTreeOf(file, original)) as ParsedTree | undefined;
    const lazyTree = await parse(lazy);
    if (!origTree || !lazyTree) return undefined;
    const origLines = original.split('\n');
    const lazyLines = lazy.split('\n');
    const markers = findElisionMarkers(lazyTree.rootNode, lazyLines, grammar, isMarkerLine);
    if (markers.length === 0) return undefined;
    // A marker's wording where the grammar sees no comment (inside a string, or JSX text) would be written as it is.
    const seen = new Set(markers.map((m) => m.row));
    const stray = lazyLines.findIndex((l, row) => !seen.has(row) && isMarkerLine(l));
    if (stray !== -1) return { ok: false, reason: `"${lazyLines[stray]!.trim()}" (line ${stray + 1}) reads as a marker but is not a comment there (inside a string or text), so it is unclear what it keeps` };
    const origVerbatim = (from: number, to: number) => verbatimRows(origTree.rootNode, from, to);

    const finish = async (r: Reading, lazyRows: [number, number], plainLazy: (row: number) => string, lazyVerbatim: Set<number>): Promise<Reconstruction> => {
      const placed = new Set(r.placements.map((p) => p.marker.node.id));
      const lost = r.markers.find((m) => !placed.has(m.node.id));
      if (lost) return { ok: false, reason: `the marker ${named(lost)} stands in code that matches nothing in the file, so it is unclear which lines it keeps` };
      const built = assemble(r, lazyRows, plainLazy, origVerbatim, lazyVerbatim);
      const twice = keptTwice(r, lazyRows, built.text);
      if (twice) return { ok: false, reason: twice, clearer: true };
      // The file ends as the original does when the text's last line is a marker keeping the original's last code; else as the text does.
      let lastOrig = origLines.length - 1;
      while (lastOrig > 0 && origLines[lastOrig]!.trim() === '') lastOrig--;
      const lastMarker = r.placements.find((p) => p.to === lastOrig && r.lazy.slice(p.marker.row + 1).every((l) => l.trim() === '' || /^[)}\]]*;?$/.test(l.trim())));
      const ending = lastMarker || r.wrapped ? '\n'.repeat(trailingNewlines(original)) : lazy.endsWith('\n') ? '\n' : '';
      const text = built.text.slice(0, built.text.length - trailingNewlines(built.text)) + ending;
      // Whether the result parses with no new error is the syntax guard's to judge, as for any edit.
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
      const pairs = alignSiblings(lazyItems(body, wrappedMarkers, grammar).map((i) => i.node), listKids(c, grammar), () => false, false);
      return { c, named: pairs.filter((p) => p.by === 'text' || p.by === 'name').length };
    }).filter((x) => x.named > 0).sort((a, b) => b.named - a.named);
    if (fits.length === 0) return { ok: false, reason: `the marker ${named(wrappedMarkers[0] ? { ...wrappedMarkers[0], row: wrappedMarkers[0].row - 1 } : markers[0]!)} stands among code that matches nothing in the file` };
    if (fits.length > 1 && fits[1]!.named === fits[0]!.named) return { ok: false, reason: 'the text is a part of a class, and it fits more than one class of the file' };
    const r: Reading = { grammar, orig: origLines, lazy: wrappedLines, markers: wrappedMarkers, placements: [], wrapped: { from: 0, to: 0 } };
    try {
      // The class level's offset: the text moves to it, the file's lines stay.
      const items = lazyItems(body, wrappedMarkers, grammar);
      const origNodes = listKids(fits[0]!.c, grammar);
      const pairs = alignSiblings(items.map((i) => i.node), origNodes, (n) => holdsMarker(n, wrappedMarkers), false);
      r.wrapped = { from: 0, to: levelDelta(r, pairs, items.map((i) => i.node), origNodes) ?? 0 };
      readLevel(r, fits[0]!.c, body, r.wrapped.to, true);
      const unwrap = (row: number) => (grammar === 'python' ? lazyLines[row - 1]! : wrappedLines[row]!);
      const done = await finish(r, [1, 1 + lazyLines.length], unwrap, verbatimRows(wrappedTree.rootNode));
      return done.ok ? done : { ok: false, reason: done.reason.replace(/\(line (\d+)\)/g, (_, n: string) => `(line ${Number(n) - 1})`) };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      return { ok: false, reason: e.message.replace(/\(line (\d+)\)/g, (_, n: string) => `(line ${Number(n) - 1})`) };
    }
  }
}
