/**
 * edit_file and apply_patch on a file that changed since the agent read it. The blocks are applied
 * twice: to the text the agent read (what it meant) and to the text now. They go through only when
 * the user's change and the edit's regions are apart and the two ways agree (userChangeMerge.ts);
 * otherwise the edit is refused as stale, as it always was. write_file over a changed file stays
 * refused (a whole-file rewrite always meets the user's change).
 */
import { ToolError } from '../tool';
import { applyEditBlocks, type EditBlock, type EditTrace } from './editMatching';
import { describeUserLines, mergeOverUserChange, userHunks } from './userChangeMerge';
import { summarizeDiff } from '../toolSupport';

const READ_AGAIN = 'Their change is kept. Read the file again and make your change against its current text. Nothing was changed.';

export interface Rematched {
  text: string;
  notes: string[];
  /** The trace of the blocks on the current text. */
  trace: EditTrace;
}

/**
 * `base` is the text the agent last saw (undefined when no longer kept), `current` the text now.
 * `intended`, when given, is what the caller's own reading of the change makes of `base` (a patch
 * applied as a diff): the blocks must agree with it, or the change is refused.
 */
export function editOverUserChange(
  shown: string,
  base: string | undefined,
  current: string,
  blocks: readonly EditBlock[],
  eol: '\n' | '\r\n',
  intended?: string,
): Rematched {
  const stale = `Refused: ${shown} changed since you read it`;
  if (base === undefined) throw new ToolError(`${stale}; read it again before changing it.`);
  const where = describeUserLines(userHunks(base, current));
  const userSaid = `${stale} (the user changed ${where})`;
  const onBase = applyEditBlocks(base, blocks, eol);
  if (!onBase.ok || (intended !== undefined && onBase.text !== intended)) {
    throw new ToolError(`${userSaid}, and your change could not be placed unambiguously in the text you read. ${READ_AGAIN}`);
  }
  const merged = mergeOverUserChange(base, onBase.text, onBase.trace, current);
  if (!merged.ok) {
    const block = blocks.length > 1 ? `block ${merged.conflict.block} of your change` : 'your change';
    throw new ToolError(`${userSaid}, and ${block} covers lines they changed. ${READ_AGAIN}`);
  }
  const onCurrent = applyEditBlocks(current, blocks, eol);
  if (!onCurrent.ok) {
    throw new ToolError(`${userSaid}, and your change no longer matches the file: ${onCurrent.error.replace(/\nNothing was changed.*$/s, '')}\n${READ_AGAIN}`);
  }
  if (onCurrent.text !== merged.text) {
    throw new ToolError(`${userSaid}, and in the current text your change would not land where it did in the text you read. ${READ_AGAIN}`);
  }
  const { diff } = summarizeDiff(shown, base, current);
  const body = diff.split('\n').slice(2).join('\n');
  const capped = body.length > 4000 ? `${body.slice(0, 4000)}\n[… diff cut …]` : body;
  return {
    text: merged.text,
    trace: onCurrent.trace,
    notes: [
      ...onCurrent.notes,
      `${shown} had changed since you read it (the user changed ${where}). Your change does not touch those lines, so it was applied to the current text and the user's change was kept. The user's change:\n${capped}`,
    ],
  };
}
