/**
 * An edit_file old_text with elision markers ("// ... existing code ..." in the lines to replace)
 * read by the file's syntax tree. The line rules (editMatching.ts) find where the old text's
 * written lines occur in order, a marker standing for any run of lines between them; when the last
 * written line recurs further down (an assert, a closing brace) that gives several regions. Read by
 * structure, a marker stands for whole nodes among the nodes written around it: a region is the one
 * the old text means when the file with that region written as the old text (markers and all) is a
 * lazy text that lazyReconstruction.ts makes into the file again, exactly. One such region is
 * taken; more than one is refused, naming the marker; none leaves the line rules' answer.
 */
import { reconstructLazyText } from './lazyReconstruction';
import { elidedLineReadings } from './editMatching';

export type ElidedReading = { ok: true; start: number; end: number } | { ok: false; reason: string };

/** Regions read by structure at most: each costs a parse of the file. */
const MAX_REGIONS = 8;

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];

/**
 * The region (lines [start, end) of `original`) that `oldText` describes, by the syntax; undefined
 * when the file's language has no grammar, the old text has no marker, its indentation is not the
 * file's, or no region reads whole.
 */
/**
 * The old text with each marker line written as the file's language writes a comment, at the
 * indentation of the code after it: models write `// …` in Python and `# …` in TypeScript, at
 * four spaces whatever the file, and the syntax places a comment by what it is and (in Python) by
 * its column.
 */
function nativeMarkers(file: string, oldLines: string[], isMarker: (l: string) => boolean): string[] {
  const comment = /\.pyi?$/.test(file) ? '#' : '//';
  return oldLines.map((l, i) => {
    if (!isMarker(l)) return l;
    const next = oldLines.slice(i + 1).find((x) => x.trim() !== '' && !isMarker(x)) ?? [...oldLines.slice(0, i)].reverse().find((x) => x.trim() !== '' && !isMarker(x)) ?? l;
    return `${indentOf(next)}${comment} ... existing code ...`;
  });
}

export async function readElidedOldText(file: string, original: string, oldText: string, isMarker: (l: string) => boolean): Promise<ElidedReading | undefined> {
  const lines = original.split('\n');
  // Blank lines at its edges are no part of the region (the line rules drop them too).
  const written = oldText.split('\n');
  while (written.length > 1 && written[0]!.trim() === '') written.shift();
  while (written.length > 1 && written[written.length - 1]!.trim() === '') written.pop();
  const oldLines = nativeMarkers(file, written, isMarker);
  // Named as the model wrote it.
  const marker = oldText.split('\n').find(isMarker);
  if (!marker) return undefined;
  const regions = elidedLineReadings(lines, oldLines, isMarker, MAX_REGIONS + 1);
  if (regions.length === 0 || regions.length > MAX_REGIONS) return undefined;
  const firstWritten = oldLines.find((l) => l.trim() !== '' && !isMarker(l))!;
  const whole: { start: number; end: number }[] = [];
  for (const x of regions) {
    // Only an old text indented as the file is read here (the line rules map other indentation).
    const at = lines.slice(x.start, x.end).find((l) => l.trim() === firstWritten.trim());
    if (at === undefined || indentOf(at) !== indentOf(firstWritten)) return undefined;
    const lazy = [...lines.slice(0, x.start), ...oldLines, ...lines.slice(x.end)].join('\n');
    const r = await reconstructLazyText(file, original, lazy, isMarker);
    if (r === undefined) return undefined;
    if (r.ok && r.text === original) whole.push(x);
  }
  if (whole.length === 1) return { ok: true, ...whole[0]! };
  if (whole.length === 0) return undefined;
  return {
    ok: false,
    reason: `old_text's elision marker "${marker.trim()}" can stand for whole statements in more than one place (lines ${whole.map((x) => `${x.start + 1}-${x.end}`).join(' and ')}), so it is unclear which lines old_text means`,
  };
}
