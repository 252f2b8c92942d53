import { createHash } from 'node:crypto';

/**
 * The text a citation rests on and its hash. Line ends are normalised first, so a checkout that
 * turns LF into CRLF does not make every fact stale; anything else that changes the lines does.
 */
export function citedLines(fileText: string, start: number, end: number): string | undefined {
  const lines = fileText.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (start < 1 || end < start || end > lines.length) return undefined;
  return lines.slice(start - 1, end).join('\n');
}

export function evidenceHash(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n?/g, '\n')).digest('hex').slice(0, 16);
}

/** How many lines a file has, as `citedLines` counts them. */
export function lineCount(fileText: string): number {
  const lines = fileText.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.length;
}
