/**
 * Several step patches as one, in order, so `tandem apply p1 p2 p3` is one all-or-nothing apply:
 * a path a later patch changes again must start from what the earlier one left there (step 3 that
 * edits what step 1 wrote), and the result starts from what the first one started from. A later
 * patch that does not follow the earlier one at a path is refused, naming both.
 */
import { createHash } from 'node:crypto';
import type { StepPatch, StepPatchBefore, StepPatchEntry } from '../ports/stepWorkspaces';
import type { PatchRefusal } from './applyStepPatch';

/** What an entry leaves at its path, in `before`'s terms. */
function leaves(e: StepPatchEntry): StepPatchBefore {
  if (e.kind === 'deletion') return null;
  const bytes = e.kind === 'file' ? e.bytes : Buffer.from(e.target);
  return { kind: e.kind, sha256: createHash('sha256').update(bytes).digest('hex') };
}

const same = (a: StepPatchBefore, b: StepPatchBefore) => (a === null || b === null ? a === b : a.kind === b.kind && a.sha256 === b.sha256);

export function composeStepPatches(patches: readonly { name: string; patch: StepPatch }[]): { patch: StepPatch } | { refusals: PatchRefusal[] } {
  const merged = new Map<string, { entry: StepPatchEntry; from: string; again?: true }>();
  const refusals: PatchRefusal[] = [];
  for (const { name, patch } of patches) {
    for (const e of patch.entries) {
      const earlier = merged.get(e.path);
      if (!earlier) {
        merged.set(e.path, { entry: e, from: name });
        continue;
      }
      if (!same(leaves(earlier.entry), e.before)) {
        refusals.push({ path: e.path, rule: `${name} changes it from something other than what ${earlier.from} leaves there` });
        continue;
      }
      merged.set(e.path, { entry: { ...e, before: earlier.entry.before }, from: name, again: true });
    }
  }
  if (refusals.length) return { refusals };
  // A path made by one patch and deleted by a later one is no change at all (a lone entry is kept: the apply judges it).
  const entries = [...merged.values()].filter((m) => !(m.again && m.entry.kind === 'deletion' && m.entry.before === null)).map((m) => m.entry);
  // What any of them could not carry stays named: the apply refuses it.
  const notCarried = patches.flatMap((p) => p.patch.notCarried ?? []);
  return { patch: { entries: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), ...(notCarried.length ? { notCarried } : {}) } };
}
