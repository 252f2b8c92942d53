/**
 * The `@` picker's fuzzy search over the workspace's paths (files, and the folders they imply).
 * Built once from the editor's file search and kept until files are created or deleted; a query
 * scans lowercase copies made at build time (no allocation per path), so a 100k-file workspace
 * answers in a few milliseconds and a repeated query comes from a small cache.
 *
 * Ranking: the query inside the file name beats the query inside the path, which beats the query's
 * letters in order (`crtts` → `cart.ts`); then a match at a name's start, then shorter paths.
 */

const RESULT_CACHE = 64;

export class PathIndex {
  private readonly lower: string[];
  private readonly nameStart: number[];
  private readonly cache = new Map<string, string[]>();
  /** The paths the last query matched at all: typing one more letter only narrows them, so the next query scans just these. */
  private last: { q: string; matched: number[] } | undefined;
  private readonly empty: string[] = [];

  /** `paths` are workspace-relative with `/`; folders are derived from them (and end in `/`). */
  constructor(files: readonly string[]) {
    const folders = new Set<string>();
    for (const f of files) {
      for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i + 1));
    }
    this.paths = [...folders, ...files];
    this.lower = this.paths.map((p) => p.toLowerCase());
    this.nameStart = this.paths.map((p) => p.lastIndexOf('/', p.length - 2) + 1);
    // What an empty query shows (the top of the tree), computed once.
    this.empty = this.paths
      .map((p, i) => ({ i, s: 1000 - p.length - 50 * depth(p) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 50)
      .map((x) => this.paths[x.i]!);
  }

  readonly paths: string[];

  get size(): number {
    return this.paths.length;
  }

  search(query: string, limit: number): string[] {
    const key = `${limit}\n${query}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const q = query.trim().toLowerCase();
    const result = q ? this.rank(q, limit) : this.empty.slice(0, limit);
    if (this.cache.size >= RESULT_CACHE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, result);
    return result;
  }

  private rank(q: string, limit: number): string[] {
    // The best `limit` so far, worst last (a small sorted array beats sorting 100k scores).
    const top: { i: number; s: number }[] = [];
    const consider = (i: number, s: number) => {
      if (top.length === limit && s <= top[top.length - 1]!.s) return;
      let at = top.length;
      while (at > 0 && top[at - 1]!.s < s) at--;
      top.splice(at, 0, { i, s });
      if (top.length > limit) top.pop();
    };
    const narrowing = this.last && q.startsWith(this.last.q) ? this.last.matched : undefined;
    const matched: number[] = [];
    const n = narrowing ? narrowing.length : this.lower.length;
    for (let k = 0; k < n; k++) {
      const i = narrowing ? narrowing[k]! : k;
      const s = score(this.lower[i]!, this.nameStart[i]!, q);
      if (s === -Infinity) continue;
      matched.push(i);
      consider(i, s);
    }
    this.last = { q, matched };
    return top.map((t) => this.paths[t.i]!);
  }
}

function depth(p: string): number {
  let d = 0;
  for (let i = 0; i < p.length - 1; i++) if (p.charCodeAt(i) === 47) d++;
  return d;
}

/** Higher is better; -Infinity when the query's letters do not all occur in order. */
function score(p: string, nameStart: number, q: string): number {
  const inName = p.indexOf(q, nameStart);
  if (inName !== -1) return 3000 + (inName === nameStart ? 500 : 0) - p.length;
  const inPath = p.indexOf(q);
  if (inPath !== -1) return 2000 + (inPath === 0 || p.charCodeAt(inPath - 1) === 47 ? 300 : 0) - p.length;
  let at = 0;
  let gaps = 0;
  for (let k = 0; k < q.length; k++) {
    const found = p.indexOf(q[k]!, at);
    if (found === -1) return -Infinity;
    if (found !== at) gaps++;
    at = found + 1;
  }
  return 1000 - 10 * gaps - p.length;
}
