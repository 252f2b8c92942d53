/**
 * An installed extension carries no compiler for the built-in suite's TypeScript tasks; the editor
 * running it has one: the TypeScript its own language features run on. Here, in the real extension
 * host, the path the extension offers (host/node/eval/typeScriptRunner.ts) holds it, and the suite's
 * verifier hook (eval-suite/.shared/typescript.js) runs `.ts` files with it under the `node` a
 * verifier gets, `./x.js` imports included.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { editorTypeScript, findTypeScriptCompiler } from '../../../src/host/node/eval/typeScriptRunner';
import { removeDir, tempDir } from './helpers';

const HOOK = path.resolve(__dirname, '..', '..', '..', '..', 'eval-suite', '.shared', 'typescript.js');

describe('the TypeScript an eval verifier gets in the editor', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('tandem-eval-ts-');
  });
  afterEach(() => removeDir(tmp));

  it("is the editor's own, and the suite's hook runs TypeScript with it where no esbuild is installed", () => {
    const ts = editorTypeScript(vscode.env.appRoot);
    const install = path.join(tmp, 'extension', 'dist');
    fs.mkdirSync(install, { recursive: true });
    assert.deepEqual(findTypeScriptCompiler({}, [], install, ts), { env: 'TANDEM_EVAL_TYPESCRIPT', dir: ts });

    fs.copyFileSync(HOOK, path.join(tmp, 'typescript.js'));
    fs.writeFileSync(path.join(tmp, 'twice.ts'), 'export interface N { n: number }\nexport const twice = ({ n }: N): number => n * 2;\n');
    fs.writeFileSync(path.join(tmp, 'main.ts'), "import { twice, type N } from './twice.js';\nconst x: N = { n: 21 };\nconsole.log(`answer ${twice(x) as number}`);\n");
    const env: NodeJS.ProcessEnv = { ...process.env, TANDEM_EVAL_TYPESCRIPT: ts };
    delete env.TANDEM_EVAL_ESBUILD;
    delete env.ELECTRON_RUN_AS_NODE;
    const r = spawnSync('node', ['--require', './typescript.js', 'main.ts'], { cwd: tmp, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    assert.equal(r.stdout.trim(), 'answer 42');
  });
});
