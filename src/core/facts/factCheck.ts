/**
 * The check before use: a fact is sent only while its evidence still holds. Cited lines whose hash
 * differs, a file that is gone (or no longer readable: ignored, a secret, outside), or a fact not
 * re-checked within `maxAgeDays` make it stale. A command's output is not run again to check it (that
 * would need an approval): such a fact expires by age alone. A global fact is checked the same way.
 */
import type { Fact, FactStaleness } from '../../protocol';
import type { WorkspaceFs } from '../ports/ports';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import * as path from 'node:path';
import { citablePath, folderRoot } from './citablePath';
import { citedLines, evidenceHash } from './citedLines';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function checkFact(fact: Fact, fs: WorkspaceFs, now: number, maxAgeDays: number, matcher = new IgnoreMatcher(fs)): Promise<FactStaleness | undefined> {
  // A global fact is sent in every workspace: lines of one workspace prove nothing in another (only a hand-edited file has them).
  if (fact.global && fact.citation?.kind === 'lines') return { reason: 'refused', detail: 'a global fact cannot rest on lines of one workspace' };
  if (fact.citation?.kind === 'lines') {
    for (const f of fact.citation.files) {
      const where = `${f.folder ? `${f.folder}/` : ''}${f.path}:${f.start}-${f.end}`;
      // A citation naming its folder is checked in that folder, not in the first one.
      const root = f.folder ? folderRoot(fs.roots, f.folder) : fs.roots[0];
      if (!root) return { reason: 'gone', detail: `${f.folder}/${f.path}: the folder ${f.folder} is not open` };
      const cite = await citablePath(fs, f.folder ? path.join(root, f.path) : f.path, matcher);
      if (!cite.ok) {
        const gone = / does not exist$/.test(cite.why);
        return { reason: gone ? 'gone' : 'refused', detail: gone ? `${f.folder ? `${f.folder}/` : ''}${f.path} is gone` : cite.why };
      }
      let text: string;
      try {
        text = await fs.readText(cite.real);
      } catch (e) {
        return { reason: 'gone', detail: `${f.folder ? `${f.folder}/` : ''}${f.path} cannot be read (${(e as Error).message})` };
      }
      const lines = citedLines(text, f.start, f.end);
      if (lines === undefined) return { reason: 'changed', detail: `${where}: those lines no longer exist` };
      if (evidenceHash(lines) !== f.hash) return { reason: 'changed', detail: `${where} changed since it was learned` };
    }
  }
  const age = now - fact.checked;
  if (maxAgeDays > 0 && age > maxAgeDays * DAY_MS) {
    return { reason: 'old', detail: `not re-checked for ${Math.floor(age / DAY_MS)} days (tandem.facts.maxAgeDays is ${maxAgeDays})` };
  }
  return undefined;
}
