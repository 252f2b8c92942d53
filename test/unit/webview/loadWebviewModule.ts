/**
 * The webview's pure modules are browser code bundled by esbuild, not part of the Node build that
 * compile-tests.mjs transpiles. Tests bundle the one module they need the way the webview bundle is
 * built (zod served by zod/mini through the same plugin, unless told otherwise) and require it.
 */
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root, from out/test/unit/webview (compiled) or test/unit/webview (source). */
export const repoRoot = resolve(__dirname, __dirname.includes(`${join('out', 'test')}`) ? '../../../..' : '../../..');

const cache = new Map<string, unknown>();

export async function loadWebviewModule<T>(relPath: string, opts: { leanZod?: boolean } = {}): Promise<T> {
  const leanZod = opts.leanZod ?? true;
  const key = `${relPath}|${leanZod}`;
  if (cache.has(key)) return cache.get(key) as T;
  const plugins: esbuild.Plugin[] = [];
  if (leanZod) {
    const spec = pathToFileURL(join(repoRoot, 'webview-ui/build/leanZodPlugin.mjs')).href;
    const mod = (await import(spec)) as { leanZodPlugin: esbuild.Plugin };
    plugins.push(mod.leanZodPlugin);
  }
  const r = await esbuild.build({
    entryPoints: [join(repoRoot, relPath)],
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false,
    jsx: 'automatic', jsxImportSource: 'preact', plugins, logLevel: 'error',
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
