/**
 * Which esbuild a TypeScript task's verifier gets (host/node/eval/typeScriptRunner.ts), on real
 * folders: the one the user names in TANDEM_EVAL_ESBUILD, else Tandem's own, else the one the
 * user's project has installed — what an editor install of the extension, which carries none of
 * its own, runs TypeScript tasks with.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findEsbuild } from '../../../src/host/node/eval/typeScriptRunner';

describe('the esbuild a TypeScript task is verified with', () => {
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
});
