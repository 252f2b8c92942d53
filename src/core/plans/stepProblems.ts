/**
 * "No new errors in the editor's problems for the files the step touched" as step evidence. Before
 * the step first changes a file, its problems are taken; after the step (and its check, which gives
 * the language services time to catch up with the last write) they are taken again, and errors the
 * file did not have before are the step's (newProblems.ts: compared by message, counting repeats,
 * not by line, so a problem that only moved is not new).
 * Hosts without language services (the CLI) have no `DiagnosticsProvider`: nothing is claimed there.
 */
import * as path from 'node:path';
import type { Diagnostic, DiagnosticsProvider } from '../ports/ports';
import { newProblems } from '../tools/newProblems';

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
      for (const d of newProblems(before, after, ['error'])) lines.push(`${rel}:${d.line}: ${d.message}${d.source ? ` [${d.source}]` : ''}`);
    }
    return lines.slice(0, max);
  }
}
