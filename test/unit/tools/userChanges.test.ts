/**
 * The user types in the file between the agent's read and its edit. edit_file and apply_patch are
 * re-matched against the current text and go through when the user's change is apart from the
 * edit (the user's change is kept, the model is told); when they meet, or the edit would now land
 * somewhere else, the edit is refused and the user's text is left exactly as they made it.
 * write_file over a changed file stays refused.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { editFileTool } from '../../../src/core/tools/editFile';
import { applyPatchTool } from '../../../src/core/tools/applyPatch';
import { readFileTool } from '../../../src/core/tools/readFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { ReadTracker } from '../../../src/core/tools/readTracker';
import { mergeOverUserChange } from '../../../src/core/tools/edit/userChangeMerge';
import { applyEditBlocks } from '../../../src/core/tools/edit/editMatching';
import { makeHarness, type Harness } from './toolHarness';

const PY = [
  'import os',
  '',
  '',
  'def load(path):',
  '    with open(path) as f:',
  '        return f.read()',
  '',
  '',
  'def save(path, text):',
  '    with open(path, "w") as f:',
  '        f.write(text)',
  '',
  '',
  'def main():',
  '    print(load("a.txt"))',
  '',
].join('\n');

describe('edits over a file the user changed since the agent read it', () => {
  let h: Harness;
  let file: string;
  beforeEach(async () => {
    h = makeHarness();
    file = h.write('io_util.py', PY);
    await h.call(readFileTool, { path: 'io_util.py' });
  });
  afterEach(() => h.cleanup());

  const userTypes = (from: string, to: string) => {
    const now = fs.readFileSync(file, 'utf8');
    assert.ok(now.includes(from));
    fs.writeFileSync(file, now.replace(from, to));
    return now.replace(from, to);
  };

  it('edit_file: a change apart from the user\'s goes through on the current text, keeping theirs, and says so', async () => {
    const user = userTypes('import os\n', 'import os\nimport sys\n');
    const r = await h.call(editFileTool, {
      path: 'io_util.py',
      edits: [{ old_text: '    with open(path, "w") as f:\n        f.write(text)', new_text: '    with open(path, "w", encoding="utf-8") as f:\n        f.write(text)' }],
    });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('io_util.py'), user.replace('open(path, "w")', 'open(path, "w", encoding="utf-8")'));
    assert.match(r.content, /changed since you read it \(the user changed line 2\)/);
    assert.match(r.content, /^\+import sys$/m, 'the model is shown what the user changed');
    // The approval showed the change against the current text (the user's line is not undone).
    assert.doesNotMatch(h.approvals[0]!.info.diff!, /^-import sys/m);
    // What was written counts as read: the next edit is not stale.
    const again = await h.call(editFileTool, { path: 'io_util.py', edits: [{ old_text: 'import sys\n', new_text: 'import sys\nimport json\n' }] });
    assert.equal(again.isError, undefined, again.content);
  });

  it('edit_file: a block covering a line the user changed is refused and their text is left as they made it', async () => {
    const user = userTypes('        f.write(text)', '        f.write(text.strip())');
    const r = await h.call(editFileTool, {
      path: 'io_util.py',
      edits: [{ old_text: '    with open(path, "w") as f:\n        f.write(text)', new_text: '    with open(path, "w", encoding="utf-8") as f:\n        f.write(text)' }],
    });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed since you read it \(the user changed line 11\), and your change covers lines they changed\. Their change is kept\. Read the file again/);
    assert.equal(h.read('io_util.py'), user);
    assert.equal(h.approvals.length, 0, 'nothing was asked');
  });

  it('edit_file: the user pasted a second copy of the matched text: refused, not guessed', async () => {
    const user = userTypes('def main():', 'def save_copy(path, text):\n    with open(path, "w") as f:\n        f.write(text)\n\n\ndef main():');
    const r = await h.call(editFileTool, {
      path: 'io_util.py',
      edits: [{ old_text: '    with open(path, "w") as f:\n        f.write(text)', new_text: '    with open(path, "x") as f:\n        f.write(text)' }],
    });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed since you read it[\s\S]*no longer matches the file: .*matches 2 places/);
    assert.equal(h.read('io_util.py'), user);
  });

  it('edit_file: a user insertion inside the matched region is refused', async () => {
    const user = userTypes('    with open(path) as f:\n', '    with open(path) as f:\n        # cached\n');
    const r = await h.call(editFileTool, {
      path: 'io_util.py',
      // Elided old_text: the region spans the user's new line, which the model never saw.
      edits: [{ old_text: 'def load(path):\n    ...\n        return f.read()', new_text: 'def load(path):\n    ...\n        return f.read().strip()' }],
    });
    assert.equal(r.isError, true, r.content);
    assert.match(r.content, /covers lines they changed/);
    assert.equal(h.read('io_util.py'), user);
  });

  it('apply_patch: hunks apart from the user\'s change go through; the user\'s line is kept', async () => {
    const user = userTypes('def main():\n    print(load("a.txt"))', 'def main():\n    print(load("b.txt"))');
    const r = await h.call(applyPatchTool, {
      patch: '--- a/io_util.py\n+++ b/io_util.py\n@@ -4,3 +4,3 @@\n def load(path):\n-    with open(path) as f:\n+    with open(path, encoding="utf-8") as f:\n         return f.read()\n',
    });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('io_util.py'), user.replace('with open(path) as f', 'with open(path, encoding="utf-8") as f'));
    assert.match(r.content, /changed since you read it \(the user changed line 15\)/);
  });

  it('apply_patch: a hunk whose context the user changed is refused', async () => {
    const user = userTypes('def load(path):', 'def load(path: str):');
    const r = await h.call(applyPatchTool, {
      patch: '--- a/io_util.py\n+++ b/io_util.py\n@@ -4,3 +4,3 @@\n def load(path):\n-    with open(path) as f:\n+    with open(path, encoding="utf-8") as f:\n         return f.read()\n',
    });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed since you read it[\s\S]*Their change is kept/);
    assert.equal(h.read('io_util.py'), user);
  });

  it('edit_file: the user types elsewhere while the change waits for approval: the approved change is written over theirs, keeping it', async () => {
    let user = '';
    h.approver.script = () => {
      user = userTypes('def main():\n', 'def main() -> None:\n');
      return { approved: true };
    };
    const r = await h.call(editFileTool, { path: 'io_util.py', edits: [{ old_text: '        return f.read()', new_text: '        return f.read().strip()' }] });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('io_util.py'), user.replace('return f.read()', 'return f.read().strip()'));
    assert.match(r.content, /changed while the change waited for approval \(the user changed line 14\)[\s\S]*the user's change was kept/);
  });

  it('apply_patch: the user changes a line the approved hunk covers while it waits: refused, their text kept', async () => {
    let user = '';
    h.approver.script = () => {
      user = userTypes('    with open(path) as f:', '    with open(path, "rb") as f:');
      return { approved: true };
    };
    const r = await h.call(applyPatchTool, {
      patch: '--- a/io_util.py\n+++ b/io_util.py\n@@ -4,3 +4,3 @@\n def load(path):\n-    with open(path) as f:\n+    with open(path, encoding="utf-8") as f:\n         return f.read()\n',
    });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed on disk while waiting for approval \(the user changed line 5\), and the change covers lines they changed/);
    assert.equal(h.read('io_util.py'), user);
  });

  it('write_file over a file the user changed stays refused', async () => {
    const user = userTypes('import os\n', 'import os\nimport sys\n');
    const r = await h.call(writeFileTool, { path: 'io_util.py', content: PY.replace('"a.txt"', '"b.txt"') });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed since you read it; read it again/);
    assert.equal(h.read('io_util.py'), user);
  });

  it('refuses as stale when the text the agent read is no longer kept (over the memory budget)', async () => {
    h.ctx.reads = new ReadTracker(10);
    await h.call(readFileTool, { path: 'io_util.py' });
    const user = userTypes('import os\n', 'import os\nimport sys\n');
    const r = await h.call(editFileTool, { path: 'io_util.py', edits: [{ old_text: 'def main():', new_text: 'def main() -> None:' }] });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed since you read it; read it again/);
    assert.equal(h.read('io_util.py'), user);
  });
});

describe('mergeOverUserChange', () => {
  const merge = (base: string, blocks: { old_text: string; new_text: string }[], current: string) => {
    const onBase = applyEditBlocks(base, blocks);
    assert.ok(onBase.ok);
    return mergeOverUserChange(base, onBase.text, onBase.trace, current);
  };

  it('puts a user insertion next to the edit on the side it was made', () => {
    const base = 'a\nb\nc\nd\n';
    const m1 = merge(base, [{ old_text: 'b\nc', new_text: 'B\nC' }], 'a\nuser\nb\nc\nd\n');
    assert.deepEqual(m1.ok && m1.text, 'a\nuser\nB\nC\nd\n');
    const m2 = merge(base, [{ old_text: 'b\nc', new_text: 'B\nC' }], 'a\nb\nc\nuser\nd\n');
    assert.deepEqual(m2.ok && m2.text, 'a\nB\nC\nuser\nd\n');
    const m3 = merge(base, [{ old_text: 'b\nc', new_text: 'B\nC' }], 'a\nb\nuser\nc\nd\n');
    assert.equal(m3.ok, false, 'an insertion between two matched lines splits the region');
  });

  it('tracks the second block in the text the first one changed', () => {
    const base = 'one\ntwo\nthree\nfour\nfive\n';
    const m = merge(base, [{ old_text: 'two', new_text: 'TWO\nTWO-B' }, { old_text: 'four', new_text: 'FOUR' }], 'one\ntwo\nthree\nfour\nfive!\n');
    assert.deepEqual(m.ok && m.text, 'one\nTWO\nTWO-B\nthree\nFOUR\nfive!\n');
    const clash = merge(base, [{ old_text: 'two', new_text: 'TWO\nTWO-B' }, { old_text: 'four', new_text: 'FOUR' }], 'one\ntwo\nthree\nfour!\nfive\n');
    assert.equal(clash.ok, false);
    assert.equal(!clash.ok && clash.conflict.block, 2);
  });
});
