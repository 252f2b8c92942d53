/**
 * What changed between two plan versions, for the card: steps added, removed and edited (field by
 * field). Steps are paired by identical action first (wherever they moved), then what is left by
 * step number, so a reworded step reads as an edit and an inserted one as an addition.
 */
import type { Plan, PlanStep, PlanVersionDiff } from '../../protocol';
import { declaresGraph, dependenciesOf } from './graph/stepGraph';

const FIELDS: readonly (keyof PlanStep)[] = ['action', 'reason', 'files', 'commands', 'check', 'tools_needed'];

export function planVersionDiff(before: Plan, after: Plan, fromVersion: number): PlanVersionDiff {
  const oldLeft = [...before.steps];
  const pairs: [PlanStep, PlanStep][] = [];
  const unmatchedNew: PlanStep[] = [];
  for (const s of after.steps) {
    const i = oldLeft.findIndex((o) => norm(o.action) === norm(s.action));
    if (i >= 0) pairs.push([oldLeft.splice(i, 1)[0]!, s]);
    else unmatchedNew.push(s);
  }
  // What is left on both sides pairs up by number: the same slot reworded is an edit.
  const added: PlanVersionDiff['added'] = [];
  for (const s of unmatchedNew) {
    const o = oldLeft.find((x) => x.step_number === s.step_number);
    if (o) {
      oldLeft.splice(oldLeft.indexOf(o), 1);
      pairs.push([o, s]);
    } else added.push({ step: s.step_number, action: s.action });
  }
  const edited: PlanVersionDiff['edited'] = [];
  let unchanged = 0;
  // Dependencies are compared as they are meant (an omitted depends_on is the previous step), so
  // writing out what was implied is no change. Between two plans that name none, the order is the
  // only dependency: a moved step reads as moved, not as a step with new needs.
  const graph = declaresGraph(before.steps) || declaresGraph(after.steps);
  const needsBefore = dependenciesOf(before.steps);
  const needsAfter = dependenciesOf(after.steps);
  for (const [o, s] of pairs) {
    const changes = FIELDS.flatMap((f) => {
      const a = show(o[f]);
      const b = show(s[f]);
      return a === b ? [] : [{ field: f, before: a, after: b }];
    });
    const depsBefore = showNeeds(needsBefore.get(o.step_number) ?? [], pairs, 'old');
    const depsAfter = showNeeds(needsAfter.get(s.step_number) ?? [], pairs, 'new');
    if (graph && depsBefore !== depsAfter) changes.push({ field: 'depends_on', before: depsBefore, after: depsAfter });
    if (changes.length) edited.push({ step: s.step_number, from_step: o.step_number, changes });
    else unchanged++;
  }
  edited.sort((a, b) => a.step - b.step);
  return {
    from_version: fromVersion,
    added,
    removed: oldLeft.map((o) => ({ step: o.step_number, action: o.action })),
    edited,
    unchanged,
  };
}

/** A step's needs, in the new version's numbers where a step was paired (so renumbering alone is no change). */
function showNeeds(needs: readonly number[], pairs: readonly [PlanStep, PlanStep][], side: 'old' | 'new'): string {
  const mapped = needs.map((n) => (side === 'old' ? pairs.find(([o]) => o.step_number === n)?.[1].step_number ?? `old ${n}` : n));
  return mapped.length ? mapped.map(String).sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).join(', ') : 'none (ready at once)';
}

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

function show(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}
