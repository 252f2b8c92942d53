// Builds the three bundles: extension host (Node/CJS), CLI (Node/CJS), webview (browser/ESM+CSS).
// `--production` minifies and drops source maps; `--watch` rebuilds on change; `--outdir <dir>`
// builds somewhere else than dist/ (the budgets stage and `npm run package` build production there,
// leaving the development build in dist/ to the tests).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packEvalSuite } from './scripts/pack-eval-suite.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdirArg = process.argv.indexOf('--outdir');
const dist = outdirArg > 0 ? process.argv[outdirArg + 1] : 'dist';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  // esbuild's own summary marks every file over 1 MB with ⚠️: on an unminified development build
  // that reads like a failed size budget. Development builds print their own plain summary below.
  logLevel: production ? 'info' : 'warning',
  legalComments: 'none',
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: join(dist, 'extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: join(dist, 'cli.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The tokenizer's rank table (core/context/tokenCounter.ts): its own file beside the
    // bundles, loaded on the first request rather than at activation.
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: { tokenizer: 'node_modules/gpt-tokenizer/cjs/encoding/cl100k_base.js' },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // The syntax guard's parser (core/syntax/syntaxGuard.ts): its own file beside the bundles,
    // loaded on the first edit of a language with a grammar; its .wasm files are copied below.
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: { 'tree-sitter': 'node_modules/web-tree-sitter/tree-sitter.cjs' },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // The skills' YAML parser (core/knowledge/yamlParser.ts): its own file beside the bundles,
    // loaded when the first SKILL.md is read.
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: { yaml: 'node_modules/yaml/dist/index.js' },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // The MCP client (host/node/mcp/mcpSdk.ts): its own file beside the bundles, loaded when the
    // first MCP server starts.
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: { 'mcp-sdk': 'src/host/node/mcp/mcpSdkEntry.ts' },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // The openai SDK (core/llm/openaiSdk.ts): its own file beside the bundles, loaded on the first
    // request or connection test, so activation does not load it (~146 KB of extension.js).
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: { 'openai-sdk': 'src/core/llm/openaiSdkEntry.ts' },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: { webview: 'webview-ui/src/main.tsx' },
    outdir: dist,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.ttf': 'file', '.woff2': 'file' },
  },
];

/**
 * The parser's runtime and the grammars the guard knows (SHIPPED_GRAMMARS in syntaxGuard.ts), into
 * dist/tree-sitter/. Only those grammars: the whole set is 20 MB, the VSIX budget 2 MB.
 */
const GRAMMARS = ['python', 'go', 'typescript', 'tsx', 'javascript', 'css', 'java'];
mkdirSync(join(dist, 'tree-sitter'), { recursive: true });
copyFileSync('node_modules/web-tree-sitter/tree-sitter.wasm', join(dist, 'tree-sitter', 'tree-sitter.wasm'));
for (const g of GRAMMARS) copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-${g}.wasm`, join(dist, 'tree-sitter', `tree-sitter-${g}.wasm`));

// The built-in eval suite packed for the VSIX (about 1 s): a checkout runs it from eval-suite/, so
// the development build skips it (src/host/node/eval/builtinSuite.ts).
if (production) packEvalSuite(join(dist, 'builtin-eval', 'suite.json.br'));

if (watch) {
  for (const t of targets) (await esbuild.context(t)).watch();
  console.log('[esbuild] watching…');
} else {
  const t0 = Date.now();
  await Promise.all(targets.map((t) => esbuild.build(t)));
  if (!production) {
    const size = (f) => { try { return `${(statSync(f).size / 1024).toFixed(0)} KB`; } catch { return 'missing'; } };
    const files = ['extension.js', 'cli.js', 'webview.js', 'webview.css', 'tokenizer.js'].map((f) => join(dist, f));
    console.log(`[esbuild] development build in ${Date.now() - t0} ms (unminified, with source maps): ${files.map((f) => `${f} ${size(f)}`).join(', ')}`);
    console.log('[esbuild] size budgets apply to the production build: npm run test:budgets (figures), npm run bench (timings)');
  }
}
