/**
 * What goes into the webview bundle. The host → webview direction is not a trust boundary, so the
 * webview checks host messages against plain-data shapes (src/protocol/wireShapes.ts) instead of
 * shipping a zod runtime (~8 KB of its 55 KB gzipped budget); this fails the moment an import brings
 * zod back (a value imported from a protocol file that defines schemas, say). It also checks that
 * those shapes are the ones the zod schemas define (regenerate with scripts/gen-wire-shapes.mjs).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from './loadWebviewModule';

describe('webview bundle contents', function () {
  this.timeout(60_000);

  it('bundles no zod: no file under node_modules/zod and no protocol file that defines schemas', async () => {
    const r = await esbuild.build({
      entryPoints: { webview: join(repoRoot, 'webview-ui/src/main.tsx') },
      outdir: join(repoRoot, 'out/webview-bundle-test'), write: false, metafile: true, bundle: true, minify: true,
      platform: 'browser', format: 'esm', target: 'es2022', jsx: 'automatic', jsxImportSource: 'preact',
      loader: { '.ttf': 'file', '.woff2': 'file' }, logLevel: 'error',
    });
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(inputs.some((f) => f.includes('webview-ui/src/state/decodeInbound.ts')), 'the metafile lists the webview sources');
    assert.deepEqual(inputs.filter((f) => /node_modules\/zod\//.test(f)), [], 'zod modules in the webview bundle');
  });

  it('checks host messages against the shapes the zod schemas define (src/protocol/wireShapes.ts is current)', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/gen-wire-shapes.mjs'), '--check'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
});
