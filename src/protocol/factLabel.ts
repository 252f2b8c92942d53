// zod-free (the webview imports it): a fact's citation in one line.
import type { FactCitation } from './facts';

/** One cited place: `src/app.py:12-20`, or `src/app.py:3` for one line. */
export function placeLabel(path: string, start: number, end: number): string {
  return `${path}:${start === end ? start : `${start}-${end}`}`;
}

/** `src/app.py:12-20, src/b.py:3` (`api/src/app.py:3` naming its folder in a workspace of several), or the command in backticks; a fact without one is the user's own note. */
export function citationLabel(c: FactCitation | undefined): string {
  if (!c) return 'your own note';
  if (c.kind === 'command') return `\`${c.command}\``;
  return c.files.map((f) => placeLabel(`${f.folder ? `${f.folder}/` : ''}${f.path}`, f.start, f.end)).join(', ');
}
