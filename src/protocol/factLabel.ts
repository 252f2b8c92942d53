// zod-free (the webview imports it): a fact's citation in one line.
import type { FactCitation } from './facts';

/** `src/app.py:12-20, src/b.py:3` (`api/src/app.py:3` naming its folder in a workspace of several), or the command in backticks; a fact without one is the user's own note. */
export function citationLabel(c: FactCitation | undefined): string {
  if (!c) return 'your own note';
  if (c.kind === 'command') return `\`${c.command}\``;
  return c.files.map((f) => `${f.folder ? `${f.folder}/` : ''}${f.path}:${f.start === f.end ? f.start : `${f.start}-${f.end}`}`).join(', ');
}
