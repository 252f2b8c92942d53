/**
 * "No new errors in the editor's problems for the files the step touched" as step evidence. Before
 * the step first changes a file, its problems are taken; after the step (and its check, which gives
 * the language services time to catch up with the last write) they are taken again, and errors the
 * file did not have before are the step's. Problems are compared by source and message, counting
 * repeats, not by line: lines move with every edit above them, and a problem that only moved is not new.
 * Hosts without language services (the CLI) have no `DiagnosticsProvider`: nothing is claimed there.
 */
import * as path from 'node:path';
import type { Diagnostic, DiagnosticsProvider } from '../ports';

const keyOf = (d: Diagnostic) => `${d.source ?? ''}\u0000${d.message}`;

/** The errors of `after` that `before` did not have. */
export function newErrors(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const had = new Map<string, number>();
  for (const d of before) if (d.severity === 'error') had.set(keyOf(d), (had.get(keyOf(d)) ?? 0) + 1);
  const out: Diagnostic[] = [];
  for (const d of after) {
    if (d.severity !== 'error') continue;
    const left = had.get(keyOf(d)) ?? 0;
    if (left > 0) had.set(keyOf(d), left - 1);
    else out.push(d);
  }
  return out;
}

/** Per file the step changed: its problems before the first change. */
export class StepProblems {
  private readonly before = new Map<string, Diagnostic[]>();

  constructor(private readonly diagnostics: DiagnosticsProvider | undefined) {}

  /** Called before each change of the step; only the first change of a file is taken. */
  async beforeChange(absPath: string): Promise<void> {
    if (!this.diagnostics || this.before.has(absPath)) return;
    this.before.set(absPath, await this.diagnostics.get(absPath).catch(() => []));
  }

  /** One line per new error ("src/a.ts:3: Cannot find name 'x' [ts]"), at most `max`. */
  async newErrorLines(root: string, max = 10): Promise<string[]> {
    if (!this.diagnostics) return [];
    const lines: string[] = [];
    for (const [file, before] of this.before) {
      const after = await this.diagnostics.get(file).catch(() => []);
      const rel = path.relative(root, file).split(path.sep).join('/');
      for (const d of newErrors(before, after)) lines.push(`${rel}:${d.line}: ${d.message}${d.source ? ` [${d.source}]` : ''}`);
    }
    return lines.slice(0, max);
  }
}
