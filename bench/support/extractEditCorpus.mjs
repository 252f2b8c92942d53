// Freezes a small corpus of real single-file commits (the before and after text of one file) into
// bench/fixtures/edits/, for bench/edits.bench.mjs to replay as damaged tool calls. Sources are git
// repositories read with plain git: this repository and any clones passed as NAME=PATH.
// Re-run by hand to refresh: node bench/support/extractEditCorpus.mjs click=/path/to/clone …
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const outDir = join('bench', 'fixtures', 'edits');
const sources = [['tandem', '.'], ...process.argv.slice(2).map((a) => a.split('='))];
const PER_SOURCE = 8;
const EXT = /\.(py|go|ts|yml|yaml)$/;

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
let total = 0;
for (const [name, dir] of sources) {
  const git = (...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const log = git('log', '--no-merges', '--format=@%H', '--name-status', '-n', '4000');
  const commits = log.split('@').slice(1).map((block) => {
    const [hash, ...rest] = block.trim().split('\n');
    return { hash, files: rest.filter(Boolean).map((l) => l.split('\t')) };
  });
  const byExt = new Map();
  const seen = new Set();
  for (const c of commits) {
    // Single-file commits that modify one file of a kind the bench covers.
    if (c.files.length !== 1 || c.files[0][0] !== 'M' || !EXT.test(c.files[0][1])) continue;
    const path = c.files[0][1];
    const ext = path.split('.').pop();
    if (seen.has(path) || (byExt.get(ext) ?? 0) >= PER_SOURCE / 2) continue;
    let pre, post;
    try {
      pre = git('show', `${c.hash}^:${path}`);
      post = git('show', `${c.hash}:${path}`);
    } catch { continue; }
    if (pre.length > 16_000 || pre.length < 300 || pre === post || pre.includes('\r')) continue;
    seen.add(path);
    byExt.set(ext, (byExt.get(ext) ?? 0) + 1);
    const n = [...byExt.values()].reduce((a, b) => a + b, 0);
    writeFileSync(join(outDir, `${name}-${String(n).padStart(2, '0')}.json`), JSON.stringify({ source: name, commit: c.hash, path, pre, post }, null, 1) + '\n');
    total++;
    if (n >= PER_SOURCE) break;
  }
}
console.log(`${total} real single-file commits written to ${outDir}`);
