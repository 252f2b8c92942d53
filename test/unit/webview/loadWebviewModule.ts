/**
 * The webview's pure modules are browser code bundled by esbuild, not part of the Node build that
 * compile-tests.mjs transpiles. Tests bundle the one module they need the way the webview bundle is
 * built and require it.
 */
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root, from out/test/unit/webview (compiled) or test/unit/webview (source). */
export const repoRoot = resolve(__dirname, __dirname.includes(`${join('out', 'test')}`) ? '../../../..' : '../../..');

const cache = new Map<string, unknown>();

export async function loadWebviewModule<T>(relPath: string): Promise<T> {
  const key = relPath;
  if (cache.has(key)) return cache.get(key) as T;
  const r = await esbuild.build({
    entryPoints: [join(repoRoot, relPath)],
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false,
    jsx: 'automatic', jsxImportSource: 'preact', logLevel: 'error',
  });
  const dir = mkdtempSync(join(tmpdir(), 'tandem-webview-test-'));
  try {
    const file = join(dir, 'module.cjs');
    writeFileSync(file, r.outputFiles[0]!.text);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(file) as T;
    cache.set(key, loaded);
    return loaded;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
