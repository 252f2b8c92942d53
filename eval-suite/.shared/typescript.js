// Runs TypeScript under Node 20 (which cannot strip types) with nothing installed in the task:
// a `--require` hook that compiles each `.ts` file to CommonJS as Node loads it, and finds `./x.ts`
// for an import written `./x.js` (as TypeScript's own module resolution does). The compiler is the
// one `tandem eval` offers the verifier: an esbuild package in TANDEM_EVAL_ESBUILD, else a
// TypeScript package in TANDEM_EVAL_TYPESCRIPT (the editor's own, for an installed extension).
// Part of each TypeScript task's verifier (`node --require ./.tandem-eval/typescript.js …`).
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const compile = (() => {
  if (process.env.TANDEM_EVAL_ESBUILD) {
    const esbuild = require(process.env.TANDEM_EVAL_ESBUILD);
    return (source, filename) => esbuild.transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20', sourcefile: filename, sourcemap: 'inline' }).code;
  }
  if (process.env.TANDEM_EVAL_TYPESCRIPT) {
    const ts = require(process.env.TANDEM_EVAL_TYPESCRIPT);
    const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true, inlineSources: true };
    return (source, filename) => ts.transpileModule(source, { compilerOptions, fileName: filename }).outputText;
  }
  process.stderr.write('neither TANDEM_EVAL_ESBUILD nor TANDEM_EVAL_TYPESCRIPT is set: this verifier runs TypeScript with the compiler `tandem eval` offers\n');
  process.exit(2);
})();

Module._extensions['.ts'] = (m, filename) => {
  m._compile(compile(fs.readFileSync(filename, 'utf8'), filename), filename);
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (e) {
    if (parent && /\.ts$/.test(parent.filename ?? '') && /^\.\.?\/.*\.js$/.test(request)) return resolve.call(this, request.replace(/\.js$/, '.ts'), parent, ...rest);
    throw e;
  }
};
