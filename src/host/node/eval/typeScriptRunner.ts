/**
 * The TypeScript compiler `tandem eval` offers a task's verifier: Node 20 cannot run `.ts` files,
 * and a task folder carries no node_modules, so the runner gives the verifier (and only the
 * verifier) the path of an esbuild package in TANDEM_EVAL_ESBUILD; the task's own `--require` hook
 * (eval-suite/.shared/typescript.js) compiles each file with it as Node loads it. Which esbuild:
 * TANDEM_EVAL_ESBUILD when the user set it, else Tandem's own (the node_modules beside its code:
 * a checkout of Tandem), else one the user's project has installed (the editor's workspace, the
 * CLI's current folder): an editor install of the extension carries none of its own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ESBUILD_ENV = 'TANDEM_EVAL_ESBUILD';

/** An esbuild package folder, or undefined when there is none (a path the user gave that does not hold one counts as none). */
export function findEsbuild(env: NodeJS.ProcessEnv, projects: readonly string[] = [], own: string = __dirname): string | undefined {
  const isPackage = (dir: string) => fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'lib', 'main.js'));
  const given = env[ESBUILD_ENV];
  if (given) return isPackage(given) ? path.resolve(given) : undefined;
  for (const from of [own, ...projects]) {
    for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', 'esbuild');
      if (isPackage(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** Why a TypeScript task cannot be verified here (said before the agent starts, so no model is blamed). */
export function noEsbuildReason(env: NodeJS.ProcessEnv): string {
  const given = env[ESBUILD_ENV];
  return given
    ? `this task's verifier runs TypeScript with esbuild, and ${ESBUILD_ENV}=${given} holds no esbuild package`
    : `this task's verifier runs TypeScript with esbuild, and neither this install of Tandem nor the project has one: install it in the project (npm install --save-dev esbuild) or set ${ESBUILD_ENV} to an esbuild package folder`;
}
