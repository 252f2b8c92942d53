/**
 * The facts file: one JSON file in the history folder (the editor's storage, the CLI's data
 * folder), never in the workspace — a fact is as private as a transcript. Written atomically; read
 * fresh before every change, so an editor and a CLI run on the same folder do not undo each other's
 * changes. A file that cannot be read as facts is never overwritten: it is moved aside
 * (`facts.json.corrupt-<time>`) and the caller is told where, and the store starts empty.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FactFile, type Fact } from '../../protocol';
import { writeFileAtomic } from '../storage/atomicWrite';

export const FACTS_FILE = 'facts.json';

export class FactStore {
  /** What went wrong reading the file, once (the caller shows it): where the unreadable file was kept. */
  private problem: string | undefined;

  constructor(readonly file: string) {}

  /** Every fact in the file (all workspaces whose history shares it). */
  read(): Fact[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    let why: string;
    try {
      const parsed = FactFile.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data.facts;
      why = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
    } catch (e) {
      why = (e as Error).message;
    }
    const aside = `${this.file}.corrupt-${Date.now()}`;
    fs.renameSync(this.file, aside);
    this.problem = `The facts file could not be read (${why}); it was kept as ${aside} and facts start empty.`;
    return [];
  }

  write(facts: readonly Fact[]): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, facts: [...facts] } satisfies FactFile, null, 1)}\n`);
  }

  /** Read, change, write: each change starts from the file as it is now. */
  update<T>(change: (facts: Fact[]) => T): T {
    const facts = this.read();
    const result = change(facts);
    this.write(facts);
    return result;
  }

  /** The read problem not yet reported, if any (reported once). */
  takeProblem(): string | undefined {
    const p = this.problem;
    this.problem = undefined;
    return p;
  }
}
