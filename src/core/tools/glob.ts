/**
 * Glob matching for find_files and search's include filter, with ripgrep's `-g` meaning so both
 * search back ends agree: a pattern without `/` matches a file's name at any depth (`*.ts`), one
 * with `/` matches the path from the search folder (`src/**\/*.test.ts`).
 * Supports `*`, `**`, `?`, `[abc]`, `[!abc]` and `{a,b}`.
 */

/**
 * One step of a compiled glob. Matching runs these as an NFA (every live position advanced per
 * character), so it takes time proportional to pattern × path whatever the pattern is. A
 * backtracking RegExp of the same glob can take exponential time: `*a*a*a*a*a*a*a*a*a*a*b` on a
 * 60-character name of a's froze the agent (and the editor's extension host) for minutes.
 * test/unit/security/globReference.ts keeps the backtracking RegExp translation this replaced, as
 * the oracle the matcher is compared against.
 */
type Step =
  | { kind: 'char'; test: (c: string) => boolean }
  /** `*`: any run of characters within one path segment. */
  | { kind: 'star' }
  /** `**` not forming a whole segment: any run of characters, `/` included. */
  | { kind: 'any' }
  /** Epsilon edges (always forward): the optional `.../` of `**\/`, the alternatives of `{a,b}`. */
  | { kind: 'eps'; to: number[] };

function compileInto(glob: string, steps: Step[]): void {
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        if (atSegmentStart && slashAfter) {
          // `**/`: nothing, or anything ending in `/`.
          const at = steps.length;
          steps.push({ kind: 'eps', to: [at + 1, at + 3] }, { kind: 'any' }, { kind: 'char', test: (x) => x === '/' });
          i += 2;
        } else {
          steps.push({ kind: 'any' });
          i += 1;
        }
      } else steps.push({ kind: 'star' });
    } else if (c === '?') steps.push({ kind: 'char', test: (x) => x !== '/' });
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) steps.push({ kind: 'char', test: (x) => x === '[' });
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        // A one-character class never backtracks.
        const cls = new RegExp(`^[${body.replace(/\\/g, '\\\\')}]$`);
        steps.push({ kind: 'char', test: (x) => cls.test(x) });
        i = close;
      }
    } else if (c === '{') {
      let depth = 0;
      let j = i;
      const parts: string[] = [];
      let start = i + 1;
      for (; j < glob.length; j++) {
        if (glob[j] === '{') depth++;
        else if (glob[j] === '}') {
          depth--;
          if (depth === 0) break;
        } else if (glob[j] === ',' && depth === 1) {
          parts.push(glob.slice(start, j));
          start = j + 1;
        }
      }
      if (j >= glob.length) steps.push({ kind: 'char', test: (x) => x === '{' });
      else {
        parts.push(glob.slice(start, j));
        // split → part 1 → jump to end, part 2 → jump to end, …
        const split: Step & { kind: 'eps' } = { kind: 'eps', to: [] };
        steps.push(split);
        const jumps: (Step & { kind: 'eps' })[] = [];
        for (const part of parts) {
          split.to.push(steps.length);
          compileInto(part, steps);
          const jump: Step & { kind: 'eps' } = { kind: 'eps', to: [] };
          steps.push(jump);
          jumps.push(jump);
        }
        for (const jump of jumps) jump.to.push(steps.length);
        i = j;
      }
    } else steps.push({ kind: 'char', test: (x) => x === c });
  }
}

function nfaMatch(steps: Step[], text: string): boolean {
  const n = steps.length;
  let live = new Uint8Array(n + 1);
  const close = (set: Uint8Array) => {
    // Steps that can match nothing let the next one start too (edges only go forward).
    for (let i = 0; i < n; i++) {
      if (!set[i]) continue;
      const s = steps[i]!;
      if (s.kind === 'star' || s.kind === 'any') set[i + 1] = 1;
      else if (s.kind === 'eps') for (const t of s.to) set[t] = 1;
    }
  };
  live[0] = 1;
  close(live);
  for (const ch of text) {
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!live[i]) continue;
      const s = steps[i]!;
      if (s.kind === 'char') { if (s.test(ch)) { next[i + 1] = 1; any = true; } }
      else if (s.kind === 'star') { if (ch !== '/') { next[i] = 1; any = true; } }
      else if (s.kind === 'any') { next[i] = 1; any = true; }
    }
    if (!any) return false;
    close(next);
    live = next;
  }
  return live[n] === 1;
}

/** A predicate on a path relative to the search folder (forward slashes). */
export function globMatcher(pattern: string): (relPath: string) => boolean {
  let p = pattern.trim().replace(/\\/g, '/');
  if (p.startsWith('./')) p = p.slice(2);
  const anchored = p.includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  const steps: Step[] = [];
  compileInto(p, steps);
  const test = (s: string) => nfaMatch(steps, s);
  return anchored ? (rel) => test(rel) : (rel) => test(rel.slice(rel.lastIndexOf('/') + 1));
}
