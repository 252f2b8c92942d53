/**
 * The lazy-edit corpus (lazyEditCorpus.ts) from the real commits frozen in test/fixtures/real-patches
 * and bench/fixtures/edits, replayed through the real write_file and edit_file on real files. Each
 * outcome is landed (the file is exactly the commit's), refused (an error, the file untouched) or
 * wrong. Held: no wrong write, the commit's exact edits all land, and the share of lazy ones that
 * land does not fall.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { editFileTool } from '../../../src/core/tools/editFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { lazyCases, type LazyCase } from './lazyEditCorpus';
import { makeHarness } from './toolHarness';

interface Commit { path: string; pre: string; post: string }

function commits(): Commit[] {
  const out: Commit[] = [];
  for (const dir of [path.join('test', 'fixtures', 'real-patches'), path.join('test', 'fixtures', 'lazy-commits'), path.join('bench', 'fixtures', 'edits')]) {
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
      const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Commit;
      out.push(c);
    }
  }
  return out;
}

describe('lazy edits built from real commits', function () {
  this.timeout(120_000);

  it('land as the commit has them or are refused, never written wrong', async () => {
    const tally = new Map<string, { landed: number; refused: number; wrong: number }>();
    const wrong: string[] = [];
    let n = 0;
    for (const c of commits()) {
      const file = c.path.split('/').pop()!;
      for (const x of await lazyCases(file, c.pre, c.post, n)) {
        const h = makeHarness();
        try {
          const abs = h.write(file, c.pre);
          h.reads.record(abs, c.pre);
          const r = await h.call(x.tool === 'write_file' ? writeFileTool : editFileTool, x.args);
          const after = h.read(file);
          const t = tally.get(x.kind) ?? { landed: 0, refused: 0, wrong: 0 };
          if (!r.isError && after === x.expect) t.landed++;
          else if (r.isError && after === c.pre) t.refused++;
          else {
            t.wrong++;
            wrong.push(`${x.kind} ${c.path}: ${r.content.slice(0, 200)}`);
          }
          tally.set(x.kind, t);
        } finally {
          h.cleanup();
        }
      }
    }
    const lazy = [...tally.entries()].filter(([k]) => k !== 'exact').map(([, t]) => t);
    const all = lazy.reduce((a, t) => ({ landed: a.landed + t.landed, refused: a.refused + t.refused, wrong: a.wrong + t.wrong }), { landed: 0, refused: 0, wrong: 0 });
    const total = all.landed + all.refused + all.wrong;
    const summary = [...tally.entries()].map(([k, t]) => `${k}: ${t.landed} landed, ${t.refused} refused, ${t.wrong} wrong`).join('\n');
    assert.ok(total >= 100, `corpus too small (${total})\n${summary}`);
    assert.deepEqual(wrong, [], summary);
    const exact = tally.get('exact')!;
    assert.equal(exact.landed, exact.landed + exact.refused + exact.wrong, summary);
    // The target (96.8 % on this corpus): what is refused is a text whose repeated lines
    // leave more than one reading, or a renamed function with its body elided.
    assert.ok(all.landed / total >= 0.95, `${all.landed} of ${total} landed\n${summary}`);
  });
});
