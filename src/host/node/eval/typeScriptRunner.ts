/**
 * The TypeScript compiler `tandem eval` offers a task's verifier: Node 20 cannot run `.ts` files,
 * and a task folder carries no node_modules, so the runner gives the verifier (and only the
 * verifier) the path of a compiler package in an environment variable; the task's own `--require`
 * hook (eval-suite/.shared/typescript.js) compiles each file with it as Node loads it.
 * Two kinds: esbuild (TANDEM_EVAL_ESBUILD) or TypeScript's own transpiler (TANDEM_EVAL_TYPESCRIPT).
 * Which one: what the user set (esbuild first), else Tandem's own esbuild (the node_modules beside
 * its code: a checkout of Tandem), else the TypeScript the editor ships with (an installed
 * extension carries no compiler of its own, and every VS Code has TypeScript for its language
 * features), else an esbuild or a TypeScript the user's project has installed (the CLI's current
 * folder, the editor's workspace).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ESBUILD_ENV = 'TANDEM_EVAL_ESBUILD';
export const TYPESCRIPT_ENV = 'TANDEM_EVAL_TYPESCRIPT';

export interface TypeScriptCompiler {
  /** The variable the verifier's hook reads, and the package folder it names. */
  env: typeof ESBUILD_ENV | typeof TYPESCRIPT_ENV;
  dir: string;
}

const isEsbuild = (dir: string) => fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'lib', 'main.js'));
const isTypeScript = (dir: string) => fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'lib', 'typescript.js'));

/** The package `name` in a node_modules at or above `from`, or undefined. */
function installedAbove(from: string, name: string, is: (dir: string) => boolean): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (is(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The compiler for TypeScript tasks, or undefined when there is none (a path the user gave that does
 * not hold one counts as none). `editor`: the TypeScript package of the editor running the eval.
 */
export function findTypeScriptCompiler(env: NodeJS.ProcessEnv, projects: readonly string[] = [], own: string = __dirname, editor?: string): TypeScriptCompiler | undefined {
  const given = env[ESBUILD_ENV];
  if (given) return isEsbuild(given) ? { env: ESBUILD_ENV, dir: path.resolve(given) } : undefined;
  const givenTs = env[TYPESCRIPT_ENV];
  if (givenTs) return isTypeScript(givenTs) ? { env: TYPESCRIPT_ENV, dir: path.resolve(givenTs) } : undefined;
  const ownEsbuild = installedAbove(own, 'esbuild', isEsbuild);
  if (ownEsbuild) return { env: ESBUILD_ENV, dir: ownEsbuild };
  if (editor && isTypeScript(editor)) return { env: TYPESCRIPT_ENV, dir: path.resolve(editor) };
  for (const project of projects) {
    const esbuild = installedAbove(project, 'esbuild', isEsbuild);
    if (esbuild) return { env: ESBUILD_ENV, dir: esbuild };
    const ts = installedAbove(project, 'typescript', isTypeScript);
    if (ts) return { env: TYPESCRIPT_ENV, dir: ts };
  }
  return undefined;
}

/** Where VS Code keeps the TypeScript its built-in language features run on, below its `appRoot`. */
export function editorTypeScript(appRoot: string): string {
  return path.join(appRoot, 'extensions', 'node_modules', 'typescript');
}

/** Why a TypeScript task cannot be verified here (said before the agent starts, so no model is blamed). */
export function noCompilerReason(env: NodeJS.ProcessEnv): string {
  if (env[ESBUILD_ENV]) return `this task's verifier compiles TypeScript, and ${ESBUILD_ENV}=${env[ESBUILD_ENV]} holds no esbuild package`;
  if (env[TYPESCRIPT_ENV]) return `this task's verifier compiles TypeScript, and ${TYPESCRIPT_ENV}=${env[TYPESCRIPT_ENV]} holds no TypeScript package`;
  return `this task's verifier compiles TypeScript, and neither this install of Tandem nor the project has a compiler: install one in the project (npm install --save-dev typescript) or set ${TYPESCRIPT_ENV} to a TypeScript package folder (${ESBUILD_ENV} to an esbuild one)`;
}
