// Freezes real single-file commits of open-source projects nobody here wrote into
// test/fixtures/foreign-commits/<project>/ (each project's licence beside its commits), for the
// damaged-edit replay through the built CLI (test/support/damagedEdits.ts, test/unit/cli/
// foreignEdits.test.ts, bench/edits.bench.mjs). Sources are git repositories (bare or not), one per
// argument as NAME=PATH:LICENCE-FILE:PATH-REGEX[:MUST-HAVE-REGEX]. Re-run by hand to refresh:
//   node bench/support/extractForeignCorpus.mjs 'flask=/path/flask:LICENSE.txt:\.py$:^\s*@' \
//     'ky=/path/ky:license:^test/.*\.ts$' 'chi=/path/chi:LICENSE:\.go$'
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PER_SOURCE = 14;
for (const arg of process.argv.slice(2)) {
  const [name, spec] = arg.split(/=(.*)/s);
  const [dir, licence, pathRe, mustRe] = spec.split(':');
  const outDir = join('test', 'fixtures', 'foreign-commits', name);
  const git = (...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', maxBuffer: 256 << 20 });
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const head = git('rev-parse', 'HEAD').trim();
  writeFileSync(join(outDir, 'LICENSE'), git('show', `${head}:${licence}`));
  const log = git('log', '--no-merges', '--format=@%H', '--name-status', '-n', '4000');
  const commits = log.split('@').slice(1).map((block) => {
    const [hash, ...rest] = block.trim().split('\n');
    return { hash, files: rest.filter(Boolean).map((l) => l.split('\t')) };
  });
  const seen = new Set();
  let n = 0;
  for (const c of commits) {
    if (c.files.length !== 1 || c.files[0][0] !== 'M' || !new RegExp(pathRe).test(c.files[0][1])) continue;
    const path = c.files[0][1];
    if (seen.has(path) && n < PER_SOURCE / 2) continue;
    let pre, post, stat;
    try {
      pre = git('show', `${c.hash}^:${path}`);
      post = git('show', `${c.hash}:${path}`);
      stat = git('diff', '--numstat', `${c.hash}^`, c.hash, '--', path).split('\t');
    } catch { continue; }
    const changed = Number(stat[0]) + Number(stat[1]);
    if (pre.length > 24_000 || pre.length < 600 || pre === post || pre.includes('\r') || changed < 2 || changed > 60) continue;
    if (mustRe && !new RegExp(mustRe, 'm').test(pre)) continue;
    seen.add(path);
    n++;
    writeFileSync(join(outDir, `${String(n).padStart(2, '0')}.json`), JSON.stringify({ source: name, commit: c.hash, path, pre, post }, null, 1) + '\n');
    if (n >= PER_SOURCE) break;
  }
  console.log(`${name}: ${n} real single-file commits written to ${outDir}`);
}
