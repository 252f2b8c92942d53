/**
 * Where to find the diff of a refused revert, said where it is shown. The refusal message itself
 * (checkpointStore.ts) does not point anywhere: the chat puts the diffs in the error card's
 * details (there is no "Show diff" button there), while `tandem history revert` prints them below
 * the message. Each says so with the diffs attached, never a pointer to something that is not there.
 */
import type { RevertConflict } from './checkpointStore';

/** The conflicts' diffs, joined; empty when none has one. */
export function revertDiffs(conflicts: readonly RevertConflict[]): string {
  return conflicts.filter((c) => c.diff).map((c) => c.diff).join('\n');
}

/** The refusal message plus a pointer to the diffs, when there are any. */
export function revertRefusalText(message: string, conflicts: readonly RevertConflict[], where: 'card' | 'below'): string {
  if (!revertDiffs(conflicts)) return message;
  return `${message}\n${where === 'card' ? "What changed since the agent's change: see the diff in this card's details." : "What changed since the agent's change: the diff is below."}`;
}
