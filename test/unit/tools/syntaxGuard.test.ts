import * as assert from 'node:assert/strict';
import { editFileTool } from '../../../src/core/tools/editFile';
import { applyPatchTool } from '../../../src/core/tools/applyPatch';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { readFileTool } from '../../../src/core/tools/readFile';
import { checkSyntax } from '../../../src/core/syntax/syntaxGuard';
import { makeHarness, type Harness } from './toolHarness';

const PY = 'import os\n\n\ndef home(user):\n    if user:\n        return os.path.join("/home", user)\n    return "/root"\n';
const TS = 'export function total(xs: number[]): number {\n  let sum = 0;\n  for (const x of xs) {\n    sum += x;\n  }\n  return sum;\n}\n';
const GO = 'package calc\n\nfunc Total(xs []int) int {\n\tsum := 0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n}\n';

describe('syntax guard (tree-sitter)', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(() => (h = makeHarness()));
  afterEach(() => h.cleanup());

  it('refuses an edit_file that leaves a Python file with a new syntax error, showing the line; nothing is written or asked', async () => {
    h.write('home.py', PY);
    const r = await h.call(editFileTool, { path: 'home.py', edits: [{ old_text: '    if user:', new_text: '    if user' }] });
    assert.equal(r.isError, true);
    assert.match(r.content, /would leave home\.py with a syntax error it did not have: line 5/);
    assert.match(r.content, /^5\t    if user$/m);
    assert.match(r.content, /python parser/);
    assert.equal(h.read('home.py'), PY);
    assert.equal(h.approvals.length, 0);
  });

  it('lets a clean TypeScript edit through and says on the approval that the guard checked it', async () => {
    h.write('total.ts', TS);
    const r = await h.call(editFileTool, { path: 'total.ts', edits: [{ old_text: '    sum += x;', new_text: '    sum += x * 2;' }] });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.approvals[0]!.info.syntax_checked, 'typescript');
  });

  it('refuses a Go apply_patch that drops a closing brace', async () => {
    h.write('calc.go', GO);
    const patch = '--- a/calc.go\n+++ b/calc.go\n@@ -5,5 +5,4 @@\n \tfor _, x := range xs {\n \t\tsum += x\n-\t}\n \treturn sum\n }\n';
    const r = await h.call(applyPatchTool, { patch });
    assert.equal(r.isError, true, r.content);
    assert.match(r.content, /syntax error it did not have/);
    assert.equal(h.read('calc.go'), GO);
    assert.equal(h.approvals.length, 0);
  });

  it('judges a file that already had errors by "no new errors": an edit elsewhere passes, a second error is refused', async () => {
    const broken = TS.replace('  let sum = 0;', '  let sum = ;');
    h.write('total.ts', broken);
    const ok = await h.call(editFileTool, { path: 'total.ts', edits: [{ old_text: '  return sum;', new_text: '  return sum + 0;' }] });
    assert.equal(ok.isError, undefined, ok.content);
    const bad = await h.call(editFileTool, { path: 'total.ts', edits: [{ old_text: '    sum += x;', new_text: '    sum += (x;' }] });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /besides the ones it already had/);
  });

  it('leaves languages without a grammar alone (YAML), and a lazy write_file of Python is checked too', async () => {
    h.write('ci.yml', 'on: push\njobs: {}\n');
    const y = await h.call(editFileTool, { path: 'ci.yml', edits: [{ old_text: 'jobs: {}', new_text: 'jobs: {' }] });
    assert.equal(y.isError, undefined, y.content);
    assert.equal(h.approvals.at(-1)!.info.syntax_checked, undefined);
    h.write('home.py', PY);
    await h.call(readFileTool, { path: 'home.py' });
    const w = await h.call(writeFileTool, { path: 'home.py', content: 'import os\n\n\ndef home(user):\n    if user:\n        return os.path.join("/home", user\n    return "/root"\n' });
    assert.equal(w.isError, true);
    assert.equal(h.read('home.py'), PY);
  });

  it('does not judge new files (there is no clean state to keep)', async () => {
    assert.deepEqual(await checkSyntax('new.py', undefined, 'def (:\n'), { checked: false });
  });
});
