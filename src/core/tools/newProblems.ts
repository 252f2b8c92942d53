/**
 * New problems in a file since a moment before: what a change broke that the parser cannot see (a
 * type error, an unknown name), as the editor's language services report it. Write tools report
 * them to the model after an approved write; plan steps can use "no new problems in the touched
 * files" as evidence.
 *
 * Problems are compared by severity, source and message, counting repeats, not by line: lines
 * move with every edit above them, and a problem that only moved is not new.
 */
import type { Diagnostic, DiagnosticsProvider } from '../ports/ports';

export type Severity = Diagnostic['severity'];

const keyOf = (d: Diagnostic) => `${d.severity}\u0000${d.source ?? ''}\u0000${d.message}`;

/** The problems of `after` that `before` did not have (of the given severities, errors by default). */
export function newProblems(before: readonly Diagnostic[], after: readonly Diagnostic[], severities: readonly Severity[] = ['error']): Diagnostic[] {
  const had = new Map<string, number>();
  for (const d of before) had.set(keyOf(d), (had.get(keyOf(d)) ?? 0) + 1);
  const out: Diagnostic[] = [];
  for (const d of after) {
    if (!severities.includes(d.severity)) continue;
    const left = had.get(keyOf(d)) ?? 0;
    if (left > 0) had.set(keyOf(d), left - 1);
    else out.push(d);
  }
  return out;
}

/**
 * The file's new problems since `before` (taken with `diagnostics.get(file)` or a watch's `before`).
 * undefined when the host has no language services, so "no new problems" is never claimed there.
 */
export async function newProblemsSince(
  diagnostics: DiagnosticsProvider | undefined,
  file: string,
  before: readonly Diagnostic[],
  severities: readonly Severity[] = ['error'],
): Promise<Diagnostic[] | undefined> {
  if (!diagnostics) return undefined;
  return newProblems(before, await diagnostics.get(file), severities);
}

const MAX_LISTED = 20;

/**
 * The lines a tool result carries: where each new problem is and what it says. `checkedBefore`
 * false: the language services had given no verdict before the change (still starting), so the
 * problems are not claimed to be new.
 */
export function describeNewProblems(shown: string, problems: readonly Diagnostic[], checkedBefore = true): string {
  const lines = problems.slice(0, MAX_LISTED).map((d) => `${shown}:${d.line} ${d.severity}: ${d.message}${d.source ? ` [${d.source}]` : ''}`);
  if (problems.length > MAX_LISTED) lines.push(`[${problems.length - MAX_LISTED} more not shown]`);
  const n = problems.length;
  const what = checkedBefore ? `${n} new problem${n === 1 ? '' : 's'}` : `${n} problem${n === 1 ? '' : 's'} (it had not checked the file before, so some may be older)`;
  return `The editor reports ${what} in ${shown} after this change:\n${lines.join('\n')}`;
}
