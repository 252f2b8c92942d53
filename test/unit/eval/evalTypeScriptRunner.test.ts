/**
 * Which compiler a TypeScript task's verifier gets (host/node/eval/typeScriptRunner.ts), on real
 * folders: the one the user names (TANDEM_EVAL_ESBUILD, TANDEM_EVAL_TYPESCRIPT), else Tandem's own
 * esbuild, else the editor's TypeScript, else one the user's project has installed — what an editor
 * install of the extension, which carries none of its own, runs TypeScript tasks with.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findTypeScriptCompiler } from '../../../src/host/node/eval/typeScriptRunner';

const findEsbuild = (env: NodeJS.ProcessEnv, projects: readonly string[], own: string, editor?: string) => findTypeScriptCompiler(env, projects, own, editor)?.dir;

describe('the compiler a TypeScript task is verified with', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-esbuild-')));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** A folder with an esbuild package installed (what `npm install esbuild` leaves: its manifest and API). */
  const withEsbuild = (dir: string): string => {
    const pkg = path.join(dir, 'node_modules', 'esbuild');
    fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), '{"name":"esbuild","main":"lib/main.js"}\n');
    fs.writeFileSync(path.join(pkg, 'lib', 'main.js'), 'module.exports = {};\n');
    return pkg;
  };

  it("an extension install with none of its own uses the project's (found from a subfolder too)", () => {
    const extension = path.join(tmp, 'extension', 'dist');
    fs.mkdirSync(extension, { recursive: true });
    const project = path.join(tmp, 'project');
    const installed = withEsbuild(project);
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    assert.equal(findEsbuild({}, [path.join(project, 'src')], extension), installed);
    assert.equal(findEsbuild({}, [], extension), undefined, 'no project, none of its own: none');
  });

  it("Tandem's own comes first; the user's TANDEM_EVAL_ESBUILD before both, and a wrong one is none", () => {
    const own = withEsbuild(path.join(tmp, 'tandem'));
    const project = path.join(tmp, 'project');
    withEsbuild(project);
    assert.equal(findEsbuild({}, [project], path.join(tmp, 'tandem', 'dist')), own);
    const chosen = withEsbuild(path.join(tmp, 'chosen'));
    assert.equal(findEsbuild({ TANDEM_EVAL_ESBUILD: chosen }, [project], path.join(tmp, 'tandem', 'dist')), chosen);
    assert.equal(findEsbuild({ TANDEM_EVAL_ESBUILD: path.join(tmp, 'nothing') }, [project], path.join(tmp, 'tandem', 'dist')), undefined, 'what the user named is not replaced by a guess');
  });

  /** A folder with the TypeScript package (its manifest and its transpiler, as VS Code ships it). */
  const withTypeScript = (pkg: string): string => {
    fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), '{"name":"typescript","main":"lib/typescript.js"}\n');
    fs.writeFileSync(path.join(pkg, 'lib', 'typescript.js'), 'module.exports = {};\n');
    return pkg;
  };

  it("an installed extension with no esbuild anywhere uses the editor's TypeScript, before a project's", () => {
    const extension = path.join(tmp, 'extension', 'dist');
    fs.mkdirSync(extension, { recursive: true });
    const editor = withTypeScript(path.join(tmp, 'vscode', 'extensions', 'node_modules', 'typescript'));
    const project = path.join(tmp, 'project');
    const projectTs = withTypeScript(path.join(project, 'node_modules', 'typescript'));
    assert.deepEqual(findTypeScriptCompiler({}, [project], extension, editor), { env: 'TANDEM_EVAL_TYPESCRIPT', dir: editor });
    assert.deepEqual(findTypeScriptCompiler({}, [project], extension), { env: 'TANDEM_EVAL_TYPESCRIPT', dir: projectTs }, "the CLI: the project's TypeScript");
    assert.deepEqual(findTypeScriptCompiler({}, [project], extension, path.join(tmp, 'nowhere')), { env: 'TANDEM_EVAL_TYPESCRIPT', dir: projectTs }, 'an editor without TypeScript: the next one');
    const projectEsbuild = withEsbuild(project);
    assert.deepEqual(findTypeScriptCompiler({}, [project], extension), { env: 'TANDEM_EVAL_ESBUILD', dir: projectEsbuild }, "a project's esbuild before its TypeScript");
    const chosen = withTypeScript(path.join(tmp, 'chosen'));
    assert.deepEqual(findTypeScriptCompiler({ TANDEM_EVAL_TYPESCRIPT: chosen }, [project], extension, editor), { env: 'TANDEM_EVAL_TYPESCRIPT', dir: chosen });
    assert.equal(findTypeScriptCompiler({ TANDEM_EVAL_TYPESCRIPT: path.join(tmp, 'nothing') }, [project], extension, editor), undefined, 'what the user named is not replaced by a guess');
  });
});
