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

  it('judges a new file as if it had been empty: write_file of a broken Python file is refused and nothing is created; a clean one goes through', async () => {
    const r = await h.call(writeFileTool, { path: 'pkg/new.py', content: 'def f(x:\n    return x\n' });
    assert.equal(r.isError, true);
    assert.match(r.content, /Refused: the new file pkg\/new\.py would have a syntax error: line 1/);
    assert.equal(h.approvals.length, 0, 'nothing was asked');
    assert.throws(() => h.read('pkg/new.py'), /ENOENT/);
    const ok = await h.call(writeFileTool, { path: 'pkg/new.py', content: 'def f(x):\n    return x\n' });
    assert.equal(ok.isError, undefined, ok.content);
    assert.equal(h.approvals[0]!.info.syntax_checked, 'python');
    const patch = await h.call(applyPatchTool, { patch: '--- /dev/null\n+++ b/pkg/other.go\n@@ -0,0 +1,3 @@\n+package pkg\n+\n+func F() {\n' });
    assert.equal(patch.isError, true);
    assert.match(patch.content, /new file pkg\/other\.go would have a syntax error/);
    assert.deepEqual(await checkSyntax('new.yaml', undefined, 'a: [\n'), { checked: false }, 'no grammar: not judged');
  });

  it("the user's own edit of the proposal is written as they approved it, and a syntax error in it is reported to the model", async () => {
    h.write('home.py', PY);
    h.approver.script = (req) => ({ approved: true, editedText: req.proposedText!.replace('if user:', 'if user') });
    const r = await h.call(editFileTool, { path: 'home.py', edits: [{ old_text: '    return "/root"', new_text: '    return "/"' }] });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('home.py'), PY.replace('"/root"', '"/"').replace('if user:', 'if user'));
    assert.match(r.content, /The user edited your proposal/);
    assert.match(r.content, /Note: the text the user approved has a syntax error \(it was written as they approved it\): the change would leave home\.py with a syntax error it did not have: line 5/);
  });
});
