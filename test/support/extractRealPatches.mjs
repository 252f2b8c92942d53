// Freezes real unified diffs from this repository's history into test/fixtures/real-patches/ so the
// apply_patch tests use real-world diffs without depending on the clone's depth or on which
// commits happen to be recent. Re-run by hand to refresh: node test/support/extractRealPatches.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const git = (...a) => execFileSync('git', a, { encoding: 'utf8', maxBuffer: 64 << 20 });
const outDir = join('test', 'fixtures', 'real-patches');
const want = Number(process.argv[2] ?? 12);
const log = git('log', '--reverse', '--diff-filter=M', '--format=@%H', '--name-only', '--', '*.ts', '*.tsx', '*.mjs', '*.css');
const picked = [];
const seen = new Set();
let commit = '';
for (const line of log.split('\n')) {
  if (line.startsWith('@')) { commit = line.slice(1); continue; }
  if (!line || seen.has(line) || picked.length >= want) continue;
  let pre, post, patch;
  try {
    pre = git('show', `${commit}^:${line}`);
    post = git('show', `${commit}:${line}`);
    patch = git('show', '--format=', '--no-color', '--no-ext-diff', commit, '--', line);
  } catch { continue; }
  // Small files only (the fixtures are committed), with several lines of context and at least one removal.
  if (pre.length > 20_000 || !patch.includes('@@') || !/\n-[^-]/.test(patch)) continue;
  seen.add(line);
  picked.push({ commit, path: line, pre, post, patch });
}
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
picked.forEach((c, i) => writeFileSync(join(outDir, `${String(i + 1).padStart(2, '0')}.json`), JSON.stringify(c, null, 1) + '\n'));
console.log(`${picked.length} real diffs written to ${outDir}`);
