/**
 * What goes into dist/extension.js, the file VS Code loads at activation. The SDKs it needs only
 * later (openai: the first request or connection test; MCP: the first server) are files of their own
 * beside it, loaded on first use, so activation does not pay for them (DESIGN budgets: activate()
 * ≤ 50 ms). A plain `import … from 'openai'` anywhere on the extension's import graph would put the
 * SDK back into the bundle without failing any size budget (~146 KB under a 900 KB one): this fails.
 */
import * as assert from 'node:assert';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = resolve(__dirname, '..', '..', '..', '..');

describe('the extension bundle', function () {
  this.timeout(60_000);

  it('carries neither the openai SDK nor the MCP SDK: both load on first use from their own files', async () => {
    const r = await esbuild.build({
      entryPoints: [join(ROOT, 'src/extension.ts')], outfile: join(ROOT, 'out/extension-bundle-test.js'), write: false, metafile: true,
      bundle: true, minify: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'error',
    });
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(inputs.some((f) => f.endsWith('src/core/llm/llmClient.ts')), 'the metafile lists the model client');
    assert.deepStrictEqual(inputs.filter((f) => /node_modules\/(openai|@modelcontextprotocol)\//.test(f)), []);
  });
});
