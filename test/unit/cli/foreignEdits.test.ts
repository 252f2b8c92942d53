/**
 * Edits on other people's code: real single-file commits of open-source projects nobody here wrote
 * (test/fixtures/foreign-commits: Flask's Python with PEP 8 spacing and decorators, zod's and ky's
 * TypeScript tests of repeated blocks, chi's tab-indented Go), each hunk sent as the tool calls a
 * model sends, damaged the way models damage them (test/support/damagedEdits.ts), through the built
 * CLI; and the same for the commits of this repository's own corpora (click, cobra, tandem:
 * bench/fixtures/edits and test/fixtures/lazy-commits). Per project: no wrong write, every exact
 * call lands, and ≥ 95 % of the damaged calls land.
 */
import assert from 'node:assert/strict';
import { buildCli } from '../../support/cliRunner';
import { DAMAGED, damagedCalls, foreignCorpora, ownCorpora, replayThroughCli, tallyByKind, type Commit, type Replayed } from '../../support/damagedEdits';

describe('damaged edits on other people\'s commits, through the built CLI', function () {
  this.timeout(600_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  // Per language, one project each, with ky's few TypeScript tests counted with zod's.
  const all = foreignCorpora();
  // And this repository's own corpora of other projects' commits (and its own), held to the same.
  const own = ownCorpora();
  const corpora: [string, Commit[]][] = [
    ['flask (Python)', all.get('flask')!],
    ['zod and ky (TypeScript tests)', [...all.get('zod')!, ...all.get('ky')!]],
    ['chi (Go)', all.get('chi')!],
    ['click (Python, YAML)', own.get('click')!],
    ['cobra (Go)', own.get('cobra')!],
    ['tandem (TypeScript)', own.get('tandem')!],
  ];
  for (const [project, commits] of corpora) {
    it(`${project}: every exact call lands, no damaged call is written wrong, ≥ 95 % of them land`, async () => {
      const rows: Replayed[] = [];
      for (const c of commits) rows.push(...(await replayThroughCli(cli, c, (file) => damagedCalls(c, file))));
      const t = tallyByKind(rows);
      const table = [...t.entries()].map(([k, v]) => `${k}: ${v.landed} landed, ${v.refused} refused, ${v.wrong} wrong`).join('\n');
      const wrong = rows.filter((r) => r.outcome === 'wrong').map((r) => `${r.call.kind} ${JSON.stringify(r.call.args).slice(0, 300)}\n  → ${r.result.slice(0, 300)}`);
      assert.deepEqual(wrong, [], table);
      const exact = rows.filter((r) => !DAMAGED.has(r.call.kind));
      assert.deepEqual(exact.filter((r) => r.outcome !== 'landed').map((r) => `${r.call.kind}: ${r.result.slice(0, 300)}`), [], table);
      const damaged = rows.filter((r) => DAMAGED.has(r.call.kind));
      const landed = damaged.filter((r) => r.outcome === 'landed').length;
      assert.ok(rows.length >= 100, `${project}: only ${rows.length} calls\n${table}`);
      assert.ok(landed >= 0.95 * damaged.length, `${project}: ${landed} of ${damaged.length} damaged calls landed (${((100 * landed) / damaged.length).toFixed(1)} %)\n${table}`);
    });
  }
});
