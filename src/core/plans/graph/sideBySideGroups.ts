/**
 * Pairs of steps that may run at the same time, as groups a user reads at once on the plan card: a
 * step joins a group when it pairs with every step already in it (1+2, 1+3, 2+3 → 1, 2 and 3; 2+3
 * and 2+4 without 3+4 stay two groups), so a group never claims more than the pairs allow.
 */
export function sideBySideGroups(pairs: readonly (readonly [number, number])[]): number[][] {
  const key = (x: number, y: number) => `${Math.min(x, y)} ${Math.max(x, y)}`;
  const paired = new Set(pairs.map(([a, b]) => key(a, b)));
  const groups: number[][] = [];
  for (const [a, b] of pairs) {
    if (groups.some((g) => g.includes(a) && g.includes(b))) continue;
    const joins = groups.find((g) => g.includes(a) && g.every((x) => x === a || paired.has(key(x, b))));
    if (joins) joins.push(b);
    else groups.push([a, b]);
  }
  return groups;
}
