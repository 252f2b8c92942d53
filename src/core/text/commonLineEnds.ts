/**
 * How many lines two texts share at their start and, after that, at their end: what changed between
 * them is lines [start, before.length - end) of `before` (and the same span of `after`).
 */
export function commonLineEnds(before: string, after: string): { b: string[]; a: string[]; start: number; end: number } {
  const b = before.split('\n');
  const a = after.split('\n');
  let start = 0;
  while (start < b.length && start < a.length && b[start] === a[start]) start++;
  let end = 0;
  while (end < b.length - start && end < a.length - start && b[b.length - 1 - end] === a[a.length - 1 - end]) end++;
  return { b, a, start, end };
}
