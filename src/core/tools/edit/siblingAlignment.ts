/**
 * Which of a lazy text's sibling nodes are which of the original's, in order: first by the same
 * text, then by the same name, then by alike tokens, and last (for a node that holds a marker and
 * so must be read against something) by being the only node of its kind left between the pairs
 * already made, or (a node that holds a marker) by a near spelling of its name. Each step pairs only what is unique on both sides in the stretch it looks at (the
 * patience rule), keeps the pairs in order on both sides, and then looks again between them.
 * Likeness and kind pair only nodes that hold a marker: for the others a pair changes nothing
 * written, and a wrong one would move what a marker beside them keeps.
 */
import { contained, likeness, nameKey, nearNames, textKey } from './nodeKeys';
import type { SyntaxNode } from '../../syntax/parsedTree';

export type PairedBy = 'text' | 'name' | 'likeness' | 'kind' | 'renamed';
export interface Pair { lazy: number; orig: number; by: PairedBy }

/** Nodes at least this alike (token overlap) are taken for the same node changed, when each is the other's only best. */
export const ALIKE = 0.7;

/** The longest run of pairs increasing on the original's side (they are given in the lazy order). */
function increasing(pairs: Pair[]): Pair[] {
  const tails: number[] = [];
  const prev: number[] = new Array<number>(pairs.length).fill(-1);
  pairs.forEach((p, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]!.orig < p.orig) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const out: Pair[] = [];
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i !== -1; i = prev[i]!) out.unshift(pairs[i]!);
  return out;
}

function uniqueByKey(li: number[], oi: number[], lazy: (SyntaxNode | undefined)[], orig: SyntaxNode[], key: (n: SyntaxNode) => string | undefined, by: PairedBy): Pair[] {
  const count = (ids: number[], of: (i: number) => SyntaxNode | undefined) => {
    const m = new Map<string, number[]>();
    for (const i of ids) {
      const n = of(i);
      const k = n && key(n);
      if (k !== undefined) m.set(k, [...(m.get(k) ?? []), i]);
    }
    return m;
  };
  const lk = count(li, (i) => lazy[i]);
  const ok = count(oi, (i) => orig[i]);
  const pairs: Pair[] = [];
  for (const [k, ls] of lk) {
    const os = ok.get(k);
    if (ls.length === 1 && os?.length === 1) pairs.push({ lazy: ls[0]!, orig: os[0]!, by });
  }
  return increasing(pairs.sort((a, b) => a.lazy - b.lazy));
}

function mutuallyAlike(li: number[], oi: number[], lazy: (SyntaxNode | undefined)[], orig: SyntaxNode[], mustPair: (n: SyntaxNode) => boolean): Pair[] {
  const best = (from: number, ids: number[], score: (j: number) => number) => {
    let top = -1;
    let topScore = ALIKE;
    let tie = false;
    for (const j of ids) {
      const s = score(j);
      if (s > topScore) [top, topScore, tie] = [j, s, false];
      else if (s === topScore && top !== -1) tie = true;
    }
    void from;
    return tie ? -1 : top;
  };
  const pairs: Pair[] = [];
  for (const l of li) {
    const ln = lazy[l];
    // Only a node that holds a marker needs a counterpart; pairing others by likeness would only move what the markers keep.
    if (!ln || !mustPair(ln)) continue;
    // Named nodes (functions, methods, keys) with different names are different nodes, however alike.
    const comparable = (a: SyntaxNode, b: SyntaxNode) => nameKey(a, true) === nameKey(b, true);
    const o = best(l, oi, (j) => (comparable(ln, orig[j]!) ? likeness(ln, orig[j]!) : 0));
    if (o === -1) continue;
    const back = best(o, li.filter((x) => lazy[x]), (j) => (comparable(lazy[j]!, orig[o]!) ? likeness(lazy[j]!, orig[o]!) : 0));
    if (back === l) pairs.push({ lazy: l, orig: o, by: 'likeness' });
  }
  return increasing(pairs);
}

function onlyOfKind(li: number[], oi: number[], lazy: (SyntaxNode | undefined)[], orig: SyntaxNode[], mustPair: (n: SyntaxNode) => boolean): Pair[] {
  const pairs: Pair[] = [];
  for (const l of li) {
    const ln = lazy[l];
    if (!ln || !mustPair(ln)) continue;
    const same = oi.filter((o) => orig[o]!.type === ln.type);
    const rivals = li.filter((x) => lazy[x]?.type === ln.type);
    if (same.length === 1 && rivals.length === 1) pairs.push({ lazy: l, orig: same[0]!, by: 'kind' });
  }
  return increasing(pairs);
}

/**
 * The text pairs grown over their neighbours: a sibling right after (or before) a pair whose text
 * equals the original's sibling right after (or before) it is the same node, repeated text or not
 * (a run copied unchanged from the file).
 */
export function extendByText(pairs: Pair[], lazy: (SyntaxNode | undefined)[], orig: SyntaxNode[]): Pair[] {
  const usedL = new Set(pairs.map((p) => p.lazy));
  const usedO = new Set(pairs.map((p) => p.orig));
  const out = [...pairs];
  for (const p of pairs) {
    if (p.by !== 'text') continue;
    for (const step of [1, -1]) {
      for (let l = p.lazy + step, o = p.orig + step; ; l += step, o += step) {
        const ln = lazy[l];
        const on = orig[o];
        if (!ln || !on || usedL.has(l) || usedO.has(o) || textKey(ln) !== textKey(on)) break;
        out.push({ lazy: l, orig: o, by: 'text' });
        usedL.add(l);
        usedO.add(o);
      }
    }
  }
  return out.sort((a, b) => a.lazy - b.lazy);
}

function memo<T>(f: (n: SyntaxNode) => T): (n: SyntaxNode) => T {
  const seen = new Map<SyntaxNode, T>();
  return (n) => {
    if (!seen.has(n)) seen.set(n, f(n));
    return seen.get(n)!;
  };
}

/**
 * Pairs of lazy siblings (undefined where a marker stands) with original siblings. `mustPair`
 * names the lazy nodes that hold a marker deeper down; `inBody`, that the siblings are a body of
 * statements (where an assignment's target names nothing); `pairAlike`, the nodes that may pair by
 * likeness (those that hold a marker, unless the caller names more).
 */
/**
 * A node that holds a marker and has no counterpart of its name may be one the text renamed (a
 * typo fixed in a function's name, its body elided): paired with the one node of its kind whose
 * name is a near spelling of its own, when nothing else in the stretch is, and whose text holds
 * what the text's node writes out.
 */
function renamed(li: number[], oi: number[], lazy: (SyntaxNode | undefined)[], orig: SyntaxNode[], mustPair: (n: SyntaxNode) => boolean): Pair[] {
  const pairs: Pair[] = [];
  for (const l of li) {
    const ln = lazy[l];
    if (!ln || !mustPair(ln)) continue;
    const near = oi.filter((o) => nearNames(ln, orig[o]!));
    if (near.length !== 1) continue;
    const rivals = li.filter((x) => lazy[x] && nearNames(lazy[x]!, orig[near[0]!]!));
    if (rivals.length === 1 && contained(ln, orig[near[0]!]!) >= ALIKE) pairs.push({ lazy: l, orig: near[0]!, by: 'renamed' });
  }
  return increasing(pairs);
}

export function alignSiblings(lazy: (SyntaxNode | undefined)[], orig: SyntaxNode[], mustPair: (n: SyntaxNode) => boolean, inBody: boolean, pairAlike: (n: SyntaxNode) => boolean = mustPair): Pair[] {
  // Each stretch between pairs is keyed again at every step of the recursion: the keys are computed once per node.
  const byText = memo(textKey);
  const byName = memo((n: SyntaxNode) => nameKey(n, inBody));
  const steps = [
    (li: number[], oi: number[]) => uniqueByKey(li, oi, lazy, orig, byText, 'text'),
    (li: number[], oi: number[]) => uniqueByKey(li, oi, lazy, orig, byName, 'name'),
    (li: number[], oi: number[]) => mutuallyAlike(li, oi, lazy, orig, pairAlike),
    (li: number[], oi: number[]) => onlyOfKind(li, oi, lazy, orig, mustPair),
    (li: number[], oi: number[]) => renamed(li, oi, lazy, orig, mustPair),
  ];
  const align = (li: number[], oi: number[], step: number): Pair[] => {
    if (step >= steps.length || !li.some((i) => lazy[i]) || oi.length === 0) return [];
    const found = steps[step]!(li, oi);
    if (found.length === 0) return align(li, oi, step + 1);
    const out: Pair[] = [];
    let l0 = -1;
    let o0 = -1;
    for (const p of [...found, { lazy: Infinity, orig: Infinity, by: 'text' as const }]) {
      out.push(...align(li.filter((i) => i > l0 && i < p.lazy), oi.filter((i) => i > o0 && i < p.orig), step));
      if (p.lazy !== Infinity) out.push(p);
      l0 = p.lazy;
      o0 = p.orig;
    }
    return out;
  };
  return extendByText(align(lazy.map((_, i) => i), orig.map((_, i) => i), 0), lazy, orig);
}
