/**
 * A lazy-edit corpus from real commits, damaged the way models write lazy edits: unchanged code
 * replaced by an elision marker ("// ... existing code ...", "# ...", "/* ... *\/") as whole
 * syntax nodes — runs of unchanged statements, methods, functions or keys — at the start, middle
 * and end of blocks, nested inside changed blocks, several per edit. The model keeps the one
 * unchanged sibling beside each change (as models do, to show where the change goes) and elides
 * the rest, or (whole-file "changes only") writes out only the changed nodes; in old_text (the lines to replace) it writes the first and last line out. Used by the unit suite (lazyEditCorpus.test.ts) and the edits bench.
 */
import { structuredPatch } from 'diff';
import { namedKids, parseWith, type SyntaxNode } from '../../../src/core/syntax/parsedTree';
import { grammarFor } from '../../../src/core/syntax/syntaxGuard';

export interface LazyCase {
  kind: string;
  tool: 'write_file' | 'edit_file';
  args: { path: string; content: string } | { path: string; edits: { old_text: string; new_text: string }[] };
  /** The file as the commit has it after this edit. */
  expect: string;
}

const WORDINGS = ['... existing code ...', '...', '... rest of the code unchanged ...', 'existing code here', '... same as before ...', 'rest of the file unchanged'];

function markerLine(grammar: string, indent: string, k: number): string {
  const w = WORDINGS[k % WORDINGS.length]!;
  if (grammar === 'python') return `${indent}# ${w}`;
  return k % 3 === 2 ? `${indent}/* ${w} */` : `${indent}// ${w}`;
}

/**
 * Rows of `b` that a change from `a` touched, with the nearest line of code either side: where
 * lines were removed, the code on both sides is written out (a marker there would keep them).
 */
function changedRows(a: string, b: string): Set<number> {
  const rows = new Set<number>();
  const lines = b.split('\n');
  for (const h of structuredPatch('a', 'b', a, b, '', '', { context: 0 }).hunks) {
    const start = h.newStart - 1;
    const end = start + h.newLines;
    for (let r = start; r < end; r++) rows.add(r);
    let above = start - 1;
    while (above > 0 && lines[above]!.trim() === '') above--;
    let below = end;
    while (below < lines.length - 1 && lines[below]!.trim() === '') below++;
    for (let r = above; r <= below; r++) rows.add(r);
  }
  return rows;
}

/** A list of nodes one per line or more (statements, members, keys), where a run can be elided by lines. */
function isList(n: SyntaxNode): boolean {
  const kids = namedKids(n);
  if (kids.length < 3) return false;
  for (let i = 1; i < kids.length; i++) if (kids[i]!.startPosition.row <= kids[i - 1]!.endPosition.row) return false;
  return true;
}

/** The rows [lo, hi] of `text` with runs of unchanged whole nodes replaced by markers; undefined when nothing was elided. */
function elide(grammar: string, text: string, root: SyntaxNode, changed: Set<number>, lo: number, hi: number, seed: number, edges = true, context = true): string[] | undefined {
  const lines = text.split('\n');
  const spans: { from: number; to: number }[] = [];
  const hits = (n: SyntaxNode) => {
    for (let r = n.startPosition.row; r <= n.endPosition.row; r++) if (changed.has(r)) return true;
    return false;
  };
  let firstLine = lo;
  while (firstLine < lines.length && lines[firstLine]!.trim() === '') firstLine++;
  let lastLine = Math.min(hi, lines.length - 1);
  while (lastLine > firstLine && lines[lastLine]!.trim() === '') lastLine--;
  const inside = (n: SyntaxNode) => n.startPosition.row >= lo && n.endPosition.row <= hi;
  const visit = (n: SyntaxNode, depth: number) => {
    const kids = namedKids(n);
    if (depth > 5) return;
    if (!isList(n)) {
      for (const k of kids) if (hits(k)) visit(k, depth + 1);
      return;
    }
    const ch = kids.map(hits);
    const keep = kids.map((k, i) => ch[i] || (context && (ch[i - 1] === true || ch[i + 1] === true)) || !inside(k));
    for (let i = 0; i < kids.length; ) {
      if (keep[i]) {
        if (ch[i]) visit(kids[i]!, depth + 1);
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < kids.length && !keep[j + 1]) j++;
      const from = kids[i]!.startPosition.row;
      const to = kids[j]!.endPosition.row;
      const whole = i === 0 && j === kids.length - 1;
      const apart = (i === 0 || kids[i - 1]!.endPosition.row < from) && (j === kids.length - 1 || kids[j + 1]!.startPosition.row > to);
      // Quoting the lines to replace, a model writes their first and last line out (`edges` false).
      const edge = from <= firstLine || to >= lastLine;
      if (!whole && apart && (edges || !edge) && to - from >= 1 && lines[from]!.trim().length > 0) spans.push({ from, to });
      i = j + 1;
    }
  };
  visit(root, 0);
  if (spans.length === 0) return undefined;
  const out: string[] = [];
  let k = seed;
  for (let r = lo; r <= hi && r < lines.length; ) {
    const s = spans.find((x) => x.from === r);
    if (s) {
      out.push(markerLine(grammar, /^[ \t]*/.exec(lines[r]!)![0], k++));
      r = s.to + 1;
    } else out.push(lines[r++]!);
  }
  return out;
}

function commonIndent(lines: string[]): string {
  let p: string | undefined;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const i = /^[ \t]*/.exec(l)![0];
    if (p === undefined) p = i;
    else while (!i.startsWith(p)) p = p.slice(0, -1);
  }
  return p ?? '';
}
const dedent = (lines: string[], p: string) => lines.map((l) => (l.trim() === '' ? '' : l.slice(p.length)));

/** The lazy calls a model could make for the commit `pre` → `post` of `file` (a file name with its extension). */
export async function lazyCases(file: string, pre: string, post: string, seed = 0): Promise<LazyCase[]> {
  const grammar = grammarFor(file);
  if (!grammar || pre === post) return [];
  const preTree = await parseWith(grammar, pre);
  const postTree = await parseWith(grammar, post);
  if (!preTree || !postTree) return [];
  try {
    if (preTree.rootNode.hasError || postTree.rootNode.hasError) return [];
    const out: LazyCase[] = [];
    const postChanged = changedRows(pre, post);
    const preChanged = changedRows(post, pre);
    const whole = elide(grammar, post, postTree.rootNode, postChanged, 0, Infinity, seed);
    if (whole) out.push({ kind: 'lazy whole-file rewrite', tool: 'write_file', args: { path: file, content: whole.join('\n') }, expect: post });
    // Only the changed nodes written out, every unchanged one elided (no neighbour kept to show the place).
    const bare = elide(grammar, post, postTree.rootNode, postChanged, 0, Infinity, seed + 3, true, false);
    if (bare) out.push({ kind: 'lazy whole-file rewrite, changes only', tool: 'write_file', args: { path: file, content: bare.join('\n') }, expect: post });
    const preLines = pre.split('\n');
    const hunks = structuredPatch('a', 'b', pre, post, '', '', { context: 6 }).hunks.filter((h) => !h.lines.some((l) => l.startsWith('\\')));
    for (const h of hunks.slice(0, 6)) {
      const oldL: string[] = [];
      const newL: string[] = [];
      for (const l of h.lines) {
        if (l[0] === ' ' || l[0] === '-') oldL.push(l.slice(1));
        if (l[0] === ' ' || l[0] === '+') newL.push(l.slice(1));
      }
      const expectLines = [...preLines];
      expectLines.splice(h.oldStart - 1, oldL.length, ...newL);
      const expect = expectLines.join('\n');
      const newLazy = elide(grammar, post, postTree.rootNode, postChanged, h.newStart - 1, h.newStart - 2 + newL.length, seed + 1);
      const oldLazy = elide(grammar, pre, preTree.rootNode, preChanged, h.oldStart - 1, h.oldStart - 2 + oldL.length, seed + 2, false);
      const edit = (kind: string, o: string[], n: string[]) => out.push({ kind, tool: 'edit_file', args: { path: file, edits: [{ old_text: o.join('\n'), new_text: n.join('\n') }] }, expect });
      edit('exact', oldL, newL);
      if (newLazy) edit('lazy new_text (whole nodes)', oldL, newLazy);
      if (oldLazy) edit('elided old_text (whole nodes)', oldLazy, newL);
      if (oldLazy && newLazy) edit('elided old_text and lazy new_text (whole nodes)', oldLazy, newLazy);
      const p = commonIndent(oldL);
      if (newLazy && p && commonIndent(newLazy).startsWith(p)) edit('lazy new_text, indentation dropped', dedent(oldL, p), dedent(newLazy, p));
    }
    return out;
  } finally {
    preTree.delete();
    postTree.delete();
  }
}
