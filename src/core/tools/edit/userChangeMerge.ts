/**
 * The agent's edit over a file the user changed since the agent read it (they typed in the editor
 * meanwhile). The edit was made against the text the agent saw (`base`); the user's change is the
 * difference from `base` to the text now (`current`). The two are combined only when they are apart:
 * no line the edit matched, replaced or kept inside its region was changed by the user, and no user
 * insertion falls inside such a region. Otherwise the edit is refused; the user's change is never
 * overwritten.
 *
 * The caller also re-applies the edit to the current text on its own and writes only when both ways
 * give the same text, so a block that would now match somewhere else never lands there.
 */
import { diffArrays } from 'diff';
import type { EditTrace } from './editMatching';

/** A run of base lines [start, end) the user replaced by `lines` (end === start: an insertion before base line `start`). */
export interface UserHunk {
  start: number;
  end: number;
  lines: string[];
}

export type MergeOutcome =
  | { ok: true; text: string; user: UserHunk[] }
  | { ok: false; user: UserHunk[]; conflict: { hunk: UserHunk; block: number } };

/** The user's change from `base` to `current`, by lines (a line keeps its \r). */
export function userHunks(base: string, current: string): UserHunk[] {
  const hunks: UserHunk[] = [];
  let at = 0;
  let open: UserHunk | undefined;
  for (const part of diffArrays(base.split('\n'), current.split('\n'))) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = undefined;
      at += part.count ?? part.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  if (open) hunks.push(open);
  return hunks;
}

/**
 * The agent's edit (the result of applying it to `base`, with its trace) combined with the user's
 * change, or the first user hunk that meets a region the edit relied on.
 */
export function mergeOverUserChange(base: string, agentText: string, trace: EditTrace, current: string): MergeOutcome {
  const user = userHunks(base, current);
  const baseCount = base.split('\n').length;
  const isTouched = (i: number) => trace.touched.has(i);
  for (const hunk of user) {
    const block = (i: number) => trace.touched.get(i)!;
    for (let i = hunk.start; i < hunk.end; i++) if (isTouched(i)) return { ok: false, user, conflict: { hunk, block: block(i) } };
    // An insertion strictly inside a region (between two lines the same edit relied on) splits it.
    if (hunk.start === hunk.end && hunk.start > 0 && hunk.start < baseCount && isTouched(hunk.start - 1) && isTouched(hunk.start)) {
      return { ok: false, user, conflict: { hunk, block: block(hunk.start) } };
    }
  }

  // Where each untouched base line sits in the agent's result (they are all there, in order).
  const agentLines = agentText.split('\n');
  const posOf = new Map<number, number>();
  trace.origin.forEach((o, k) => {
    if (o >= 0) posOf.set(o, k);
  });
  // Each user hunk becomes a replacement of a run of the agent's lines: the base lines it replaced
  // (untouched, so present), or for an insertion the point after the untouched line before it (or
  // before the untouched line after it).
  const edits: { from: number; to: number; lines: string[] }[] = [];
  for (const hunk of user) {
    if (hunk.end > hunk.start) {
      const from = posOf.get(hunk.start);
      const last = posOf.get(hunk.end - 1);
      if (from === undefined || last === undefined || last - from !== hunk.end - 1 - hunk.start) {
        return { ok: false, user, conflict: { hunk, block: trace.touched.values().next().value ?? 1 } };
      }
      edits.push({ from, to: last + 1, lines: hunk.lines });
      continue;
    }
    let point: number | undefined;
    if (hunk.start === 0) point = 0;
    else if (!isTouched(hunk.start - 1)) point = posOf.get(hunk.start - 1)! + 1;
    else if (hunk.start >= baseCount) point = agentLines.length;
    else point = posOf.get(hunk.start);
    if (point === undefined) return { ok: false, user, conflict: { hunk, block: trace.touched.get(hunk.start - 1) ?? 1 } };
    edits.push({ from: point, to: point, lines: hunk.lines });
  }
  const out = [...agentLines];
  for (const e of edits.sort((a, b) => b.from - a.from)) out.splice(e.from, e.to - e.from, ...e.lines);
  return { ok: true, text: out.join('\n'), user };
}

/** Where the user changed the file, in the current text's line numbers, for messages. */
export function describeUserLines(user: UserHunk[]): string {
  let shift = 0;
  const parts: string[] = [];
  for (const h of user) {
    const start = h.start + shift + 1;
    const gone = h.end - h.start;
    if (h.lines.length === 0) parts.push(`deleted ${gone} line${gone === 1 ? '' : 's'} before line ${start}`);
    else parts.push(h.lines.length === 1 ? `line ${start}` : `lines ${start}-${start + h.lines.length - 1}`);
    shift += h.lines.length - gone;
  }
  return parts.length > 6 ? `${parts.slice(0, 6).join(', ')} and ${parts.length - 6} more places` : parts.join(', ');
}

/**
 * The trace of a change known only by its result (an approved text): unchanged lines keep their
 * origin; every removed line is touched, and so are both neighbours of a pure insertion, which
 * anchor where it goes.
 */
export function traceOfChange(base: string, changed: string): EditTrace {
  const origin: number[] = [];
  const touched = new Map<number, number>();
  const baseCount = base.split('\n').length;
  let at = 0;
  const parts = diffArrays(base.split('\n'), changed.split('\n'));
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    const n = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      for (let i = 0; i < n; i++) origin.push(at + i);
      at += n;
    } else if (part.removed) {
      for (let i = 0; i < n; i++) touched.set(at + i, 1);
      at += n;
    } else {
      for (let i = 0; i < n; i++) origin.push(-1);
      const replaces = parts[k - 1]?.removed || parts[k + 1]?.removed;
      if (!replaces) {
        if (at > 0) touched.set(at - 1, 1);
        if (at < baseCount) touched.set(at, 1);
      }
    }
  }
  return { origin, touched };
}
