// Freezes the real single-file commits the lazy-edit corpus is built from (test/unit/tools/
// lazyEditCorpus.ts damages them the way models write lazy edits) into test/fixtures/lazy-commits/:
// code files only (Python, Go, TypeScript), changes of a size a model makes in one edit, none of
// the commits bench/fixtures/edits already has. Sources are git repositories (bare or not): this
// one and any passed as NAME=PATH. Re-run by hand to refresh:
//   node bench/support/extractLazyCorpus.mjs click=/path/to/click cobra=/path/to/cobra
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outDir = join('test', 'fixtures', 'lazy-commits');
const sources = [['tandem', '.'], ...process.argv.slice(2).map((a) => a.split('='))];
const PER_SOURCE = 10;
const EXT = /\.(py|go|ts)$/;
const known = new Set(readdirSync(join('bench', 'fixtures', 'edits')).map((f) => JSON.parse(readFileSync(join('bench', 'fixtures', 'edits', f), 'utf8')).commit));

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
let total = 0;
for (const [name, dir] of sources) {
  const git = (...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const log = git('log', '--no-merges', '--format=@%H', '--name-status', '-n', '3000');
  const commits = log.split('@').slice(1).map((block) => {
    const [hash, ...rest] = block.trim().split('\n');
    return { hash, files: rest.filter(Boolean).map((l) => l.split('\t')) };
  });
  const seen = new Set();
  let n = 0;
  for (const c of commits) {
    if (c.files.length !== 1 || c.files[0][0] !== 'M' || !EXT.test(c.files[0][1]) || known.has(c.hash)) continue;
    const path = c.files[0][1];
    if (seen.has(path)) continue;
    let pre, post, stat;
    try {
      pre = git('show', `${c.hash}^:${path}`);
      post = git('show', `${c.hash}:${path}`);
      stat = git('diff', '--numstat', `${c.hash}^`, c.hash, '--', path).split('\t');
    } catch { continue; }
    const changed = Number(stat[0]) + Number(stat[1]);
    if (pre.length > 12_000 || pre.length < 600 || pre === post || pre.includes('\r') || changed < 2 || changed > 40) continue;
    seen.add(path);
    n++;
    writeFileSync(join(outDir, `${name}-${String(n).padStart(2, '0')}.json`), JSON.stringify({ source: name, commit: c.hash, path, pre, post }, null, 1) + '\n');
    total++;
    if (n >= PER_SOURCE) break;
  }
}
console.log(`${total} real single-file commits written to ${outDir}`);
