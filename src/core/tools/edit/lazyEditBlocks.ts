/**
 * edit_file blocks whose new_text keeps code with elision markers ("// ... existing code ..."),
 * read by the file's syntax: the block is put in place (its old_text must occur exactly once) and
 * the file so written, markers and all, is a lazy text of the whole file that
 * lazyReconstruction.ts makes whole — a marker then keeps the file's nodes it stands among,
 * whether or not old_text covered them. Where the file's language has no grammar, or old_text is
 * not found as it is, the line rules of editMatching.ts apply as before. An old_text with markers
 * that the line rules place in several regions is read by the syntax too (elidedOldText.ts).
 */
import { reconstructLazyText } from './lazyReconstruction';
import { applyEditBlocks, type EditBlock, type EditOutcome, type EditTrace } from './editMatching';
import { looksLikeElisionMarker } from './editMarkers';
import { commonLineEnds } from '../../text/commonLineEnds';
import { readElidedOldText } from './elidedOldText';

/** Which result lines are original lines and which original lines changed, from the common start and end of the two texts. */
function traceOfChange(before: string, after: string, block: number): EditTrace {
  const { b, a, start: p, end: q } = commonLineEnds(before, after);
  const origin = a.map((_, i) => (i < p ? i : i >= a.length - q ? i - a.length + b.length : -1));
  const touched = new Map<number, number>();
  for (let i = p; i < b.length - q; i++) touched.set(i, block);
  return { origin, touched };
}

const occurrences = (text: string, needle: string) => {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && at.length < 2; i = text.indexOf(needle, i + 1)) at.push(i);
  return at;
};

/**
 * The blocks applied in order, those with markers in new_text by the file's syntax; undefined when
 * no block has such markers or the file's language has no grammar (the caller applies the line rules).
 */
export async function applyLazyEditBlocks(file: string, original: string, blocks: readonly EditBlock[], eol: '\n' | '\r\n'): Promise<EditOutcome | undefined> {
  if (eol !== '\n') return undefined;
  const markerTest = (text: string) => {
    const had = new Set(text.split('\n').map((l) => l.trim()));
    return (l: string) => looksLikeElisionMarker(l) && !had.has(l.trim());
  };
  const lazyNew = (text: string, b: EditBlock) => {
    const isMarker = markerTest(text);
    return b.new_text.split('\n').some(isMarker) && !b.old_text.split('\n').some(isMarker);
  };
  const elidedOld = (text: string, b: EditBlock) => b.old_text.split('\n').some(markerTest(text));
  if (!blocks.some((b) => lazyNew(original, b) || elidedOld(original, b))) return undefined;
  let text = original;
  const notes: string[] = [];
  const total = blocks.length;
  let structural = false;
  const nothing = `\nNothing was changed${total > 1 ? ' (all blocks or none)' : ''}.`;
  for (let k = 0; k < total; k++) {
    const b = blocks[k]!;
    const name = total > 1 ? `Block ${k + 1} of ${total}` : 'The edit';
    if (elidedOld(text, b)) {
      // The line rules first; where they find several regions, the syntax tells which one old_text means.
      const step = applyEditBlocks(text, [b], eol, file);
      if (step.ok) {
        text = step.text;
        notes.push(...step.notes.map((n) => n.replace(/^The edit/, name)));
        continue;
      }
      const isMarker = markerTest(text);
      const read = await readElidedOldText(file, text, b.old_text, isMarker);
      if (read && !read.ok) return { ok: false, block: k + 1, clearer: true, error: `${name}: ${read.reason}. Include more lines before and after the marker, or send old_text without markers.${nothing}` };
      if (!read) return { ...step, block: k + 1, error: step.error.replace(/^The edit/, name).replace(/\nNothing was changed\.$/, nothing) };
      const lines = text.split('\n');
      // The region has no blank lines at its edges (old_text's are dropped), so new_text's go too, as the line rules do.
      const newLines = b.new_text.split('\n');
      while (newLines.length > 1 && newLines[0]!.trim() === '') newLines.shift();
      while (newLines.length > 1 && newLines[newLines.length - 1]!.trim() === '') newLines.pop();
      const placed = [...lines.slice(0, read.start), ...newLines, ...lines.slice(read.end)].join('\n');
      if (b.new_text.split('\n').some(isMarker)) {
        const rebuilt = await reconstructLazyText(file, text, placed, isMarker);
        if (!rebuilt?.ok) {
          return { ok: false, block: k + 1, error: `${name}: new_text's elision markers could not be placed${rebuilt ? `: ${rebuilt.reason}` : ''}. Send new_text complete (no markers) for the lines old_text covers.${nothing}` };
        }
        text = rebuilt.text;
      } else text = placed;
      structural = true;
      notes.push(`${name}: old_text's elision marker was read by the file's syntax as lines ${read.start + 1}-${read.end}. Check the result.`);
      continue;
    }
    const at = lazyNew(text, b) ? occurrences(text, b.old_text) : [];
    if (at.length === 1) {
      const lazy = text.slice(0, at[0]) + b.new_text + text.slice(at[0]! + b.old_text.length);
      const rebuilt = await reconstructLazyText(file, text, lazy, markerTest(text));
      if (rebuilt?.ok) {
        text = rebuilt.text;
        structural = true;
        notes.push(`${name}: the elision markers in new_text kept ${rebuilt.kept} existing line${rebuilt.kept === 1 ? '' : 's'} of the file (placed by its syntax). Check the result.`);
        continue;
      }
      if (rebuilt && !rebuilt.ok) {
        return { ok: false, block: k + 1, ...(rebuilt.clearer ? { clearer: true as const } : {}), error: `${name}: new_text's elision markers could not be placed: ${rebuilt.reason}. Send new_text complete (no markers) for the lines old_text covers.${nothing}` };
      }
      if (k === 0 && total === 1) return undefined;
    }
    const step = applyEditBlocks(text, [b], eol, file);
    if (!step.ok) return { ...step, block: k + 1, error: step.error.replace(/^The edit/, name).replace(/\nNothing was changed\.$/, nothing) };
    text = step.text;
    notes.push(...step.notes.map((n) => n.replace(/^The edit/, name)));
  }
  if (!structural) return undefined;
  return { ok: true, text, notes, fuzzyBlocks: [], trace: traceOfChange(original, text, 1) };
}
