// Runs TypeScript under Node 20 (which cannot strip types) with nothing installed in the task:
// a `--require` hook that compiles each `.ts` file to CommonJS with esbuild as Node loads it, and
// finds `./x.ts` for an import written `./x.js` (as TypeScript's own module resolution does).
// esbuild is Tandem's own: the eval runner gives a task's verifier its path in TANDEM_EVAL_ESBUILD.
// Part of each TypeScript task's verifier (`node --require ./.tandem-eval/typescript.js …`).
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const from = process.env.TANDEM_EVAL_ESBUILD;
if (!from) {
  process.stderr.write('TANDEM_EVAL_ESBUILD is not set: this verifier runs TypeScript with the esbuild `tandem eval` offers\n');
  process.exit(2);
}
const esbuild = require(from);

Module._extensions['.ts'] = (m, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = esbuild.transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20', sourcefile: filename, sourcemap: 'inline' });
  m._compile(code, filename);
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
