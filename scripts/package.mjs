// `npm run package`: a production build, then `vsce package` into tandem-<version>.vsix. Only what
// runs goes in (see .vscodeignore; `npx vsce ls` lists it). Dependencies are bundled by esbuild,
// so vsce does not need to walk node_modules (--no-dependencies), which also keeps it offline.
// The production build goes into a staging folder (the manifest, README, LICENSE, icon and the
// production dist/), never into the repository's dist/, which stays the development build the tests
// load. The budgets stage (bench/budgets.mjs) measures the same staged build.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './test-host-paths.mjs';

/** What the packaged extension carries besides dist/ (.vscodeignore then picks the files). */
// The built-in eval suite goes in packed (dist/builtin-eval/, written by the production build), not as eval-suite/.
const MANIFEST_FILES = ['package.json', 'README.md', 'LICENSE', '.vscodeignore', 'media'];

/** Runs a step; `quiet` keeps its output unless it fails (the budgets stage prints figures only). */
function run(cmd, args, { cwd = ROOT, quiet = false } = {}) {
  const r = spawnSync(cmd, args, { cwd, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status ?? r.signal}${quiet ? `\n${r.stdout}${r.stderr}` : ''}`);
}

/**
 * A complete extension folder with the production build in `stage/dist`: what the VSIX is made of
 * (and what an extension host can load with extensionDevelopmentPath = stage).
 */
export function stageProductionBuild(stage, opts = {}) {
  mkdirSync(stage, { recursive: true });
  for (const f of MANIFEST_FILES) cpSync(join(ROOT, f), join(stage, f), { recursive: true });
  run(process.execPath, ['esbuild.mjs', '--production', '--outdir', join(stage, 'dist')], opts);
}

/** `vsce package` of a staged folder into `vsix`. */
export function packageStage(stage, vsix, opts = {}) {
  run(process.execPath, [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix], { ...opts, cwd: stage });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const out = join(ROOT, `${name}-${version}.vsix`);
  const stage = mkdtempSync(join(tmpdir(), 'tandem-package-'));
  try {
    stageProductionBuild(stage);
    packageStage(stage, out);
  } catch (e) {
    console.error(`package: ${e.message}`);
    process.exitCode = 1;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  if (!process.exitCode) console.log(`${name}-${version}.vsix: ${(statSync(out).size / 1024).toFixed(1)} KB`);
}
