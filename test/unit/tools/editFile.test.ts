import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { editFileTool } from '../../../src/core/tools/editFile';
import { readFileTool } from '../../../src/core/tools/readFile';
import { makeHarness, type Harness } from './toolHarness';

const SRC = [
  'function add(a, b) {',
  '  return a + b;',
  '}',
  '',
  'function sub(a, b) {',
  '  return a - b;',
  '}',
  '',
  'function mul(a, b) {',
  '  const product = a * b;',
  '  return product;',
  '}',
  '',
].join('\n');

describe('edit_file', () => {
  let h: Harness;
  let file: string;
  beforeEach(() => {
    h = makeHarness();
    file = h.write('math.js', SRC);
  });
  afterEach(() => h.cleanup());

  it('applies an exact, unique block after approval, with the diff in the approval', async () => {
    const r = await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return a - b;', new_text: '  return a - b - 0;' }] });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('math.js'), SRC.replace('return a - b;', 'return a - b - 0;'));
    assert.equal(h.approvals.length, 1);
    const info = h.approvals[0]!.info;
    assert.deepEqual([info.kind, info.path, info.added, info.removed], ['edit', 'math.js', 1, 1]);
    assert.match(info.diff!, /^-  return a - b;$/m);
    assert.match(info.diff!, /^\+  return a - b - 0;$/m);
    assert.equal(h.approvals[0]!.proposedText, h.read('math.js'));
    assert.deepEqual(h.changed, [file], 'a checkpoint hook ran before the write');
    assert.match(r.content, /1 block applied \(\+1 -1\)/);
  });

  it('refuses an old text that matches twice, naming the lines, and writes nothing', async () => {
    const r = await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '(a, b) {', new_text: '(x, y) {' }] });
    assert.equal(r.isError, true);
    assert.match(r.content, /matches 3 places \(lines 1, 5, 9\)/);
    assert.match(r.content, /must match exactly one/);
    assert.equal(h.read('math.js'), SRC);
    assert.equal(h.approvals.length, 0);
  });

  it('refuses an old text that matches nowhere and shows the closest lines', async () => {
    const r = await h.call(editFileTool, {
      path: 'math.js',
      edits: [{ old_text: 'function mul(a, b) {\n  const prod = a * b;\n  return prod;\n}', new_text: 'x' }],
    });
    assert.equal(r.isError, true);
    assert.match(r.content, /not found \(not even ignoring indentation and line-end whitespace\)/);
    assert.match(r.content, /closest text is at lines 9-12/);
    assert.match(r.content, /^10\t  const product = a \* b;$/m);
    assert.equal(h.read('math.js'), SRC);
  });

  it('falls back to whitespace-tolerant matching only when exact fails, says so, and keeps the file\'s indentation', async () => {
    // The model indented the body one level too deep and added trailing spaces.
    const r = await h.call(editFileTool, {
      path: 'math.js',
      edits: [{ old_text: 'function sub(a, b) {  \n    return a - b;\n}', new_text: 'function sub(a, b) {\n    return b - a;\n}' }],
    });
    assert.equal(r.isError, undefined, r.content);
    assert.match(r.content, /did not match exactly; it was applied at lines 5-7 by ignoring indentation and line-end whitespace/);
    // The replacement keeps the file's indentation, line for line.
    assert.equal(h.read('math.js'), SRC.replace('  return a - b;', '  return b - a;'));
    // The body one level too shallow with the top-level lines untouched (all at column 0): in a
    // language whose blocks braces close, a line after an opening brace is one level in, the
    // closing brace after it back out.
    const flat = await h.call(editFileTool, {
      path: 'math.js',
      edits: [{ old_text: 'function add(a, b) {\nreturn a + b;\n}', new_text: 'function add(a, b) {\nreturn b + a;\n}' }],
    });
    assert.equal(flat.isError, undefined, flat.content);
    assert.match(h.read('math.js'), /^function add\(a, b\) \{\n  return b \+ a;\n\}$/m);
    // In Python the same flattening places a new line only where Python's rules allow one place
    // (editReadTwoWays.test.ts); a line changed in place keeps its line's place.
    h.write('flat.py', 'def add(a, b):\n  return a + b\n\n\ndef sub(a, b):\n  return a - b\n');
    const flatPy = await h.call(editFileTool, {
      path: 'flat.py',
      edits: [{ old_text: 'def add(a, b):\nreturn a + b', new_text: 'def add(a, b):\nreturn b + a' }],
    });
    assert.equal(flatPy.isError, undefined, flatPy.content);
    assert.equal(h.read('flat.py'), 'def add(a, b):\n  return b + a\n\n\ndef sub(a, b):\n  return a - b\n');
    // A block shifted as a whole (and of a different length) is shifted back:
    const r2 = await h.call(editFileTool, {
      path: 'math.js',
      edits: [{ old_text: '    const product = a * b;\n    return product;', new_text: '    const product = b * a;\n    // swapped\n    return product;' }],
    });
    assert.match(r2.content, /ignoring indentation/);
    assert.match(h.read('math.js'), /^  const product = b \* a;\n  \/\/ swapped\n  return product;$/m);
  });

  it('does not use the fallback when the exact text is there', async () => {
    const r = await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: 'return product;', new_text: 'return product; // done' }] });
    assert.doesNotMatch(r.content, /whitespace/);
  });

  it('is all or nothing: block 2 failing leaves the file byte-for-byte unchanged and names block 2', async () => {
    const before = fs.readFileSync(file);
    const r = await h.call(editFileTool, {
      path: 'math.js',
      edits: [
        { old_text: '  return a + b;', new_text: '  return a + b + 1;' },
        { old_text: '  return a / b;', new_text: '  return 0;' },
        { old_text: '  return product;', new_text: '  return -product;' },
      ],
    });
    assert.equal(r.isError, true);
    assert.match(r.content, /^Block 2 of 3 in math\.js: /);
    assert.match(r.content, /Nothing was changed \(all blocks or none\)/);
    assert.ok(fs.readFileSync(file).equals(before));
    assert.equal(h.approvals.length, 0);
    assert.deepEqual(h.changed, []);
  });

  it('applies several blocks in order', async () => {
    const r = await h.call(editFileTool, {
      path: 'math.js',
      edits: [
        { old_text: '  return a + b;', new_text: '  return a + b + 1;' },
        { old_text: '  return product;', new_text: '  return -product;' },
      ],
    });
    assert.match(r.content, /2 blocks applied \(\+2 -2\)/);
    assert.match(h.read('math.js'), /return a \+ b \+ 1;[\s\S]*return -product;/);
  });

  it('treats $ in the new text literally', async () => {
    await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return a + b;', new_text: "  return `$&${a}$1`;" }] });
    assert.match(h.read('math.js'), /return `\$&\$\{a\}\$1`;/);
  });

  it('keeps CRLF line endings when the model sends LF', async () => {
    h.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    await h.call(editFileTool, { path: 'win.txt', edits: [{ old_text: 'one\ntwo\n', new_text: 'one\n2\n' }] });
    assert.equal(h.read('win.txt'), 'one\r\n2\r\nthree\r\n');
  });

  it('refuses a stale edit: the file changed on disk since the agent read it, in the lines the edit covers', async () => {
    await h.call(readFileTool, { path: 'math.js' });
    fs.writeFileSync(file, SRC.replace('a - b', 'b - a'));
    const r = await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return a - b;', new_text: '  return 0;' }] });
    assert.equal(r.isError, true);
    assert.match(r.content, /changed since you read it \(the user changed line 6\)[\s\S]*Read the file again/);
    assert.equal(h.read('math.js'), SRC.replace('a - b', 'b - a'));
    // After a fresh read an edit of the user's text goes through, and the agent's own write counts as read.
    await h.call(readFileTool, { path: 'math.js' });
    assert.equal((await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return b - a;', new_text: '  return 0;' }] })).isError, undefined);
    assert.equal((await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return 0;', new_text: '  return 1;' }] })).isError, undefined);
  });

  it('changes nothing when the user rejects, and says why', async () => {
    h.approver.script = () => ({ approved: false, reason: 'use a different name' });
    const r = await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return a - b;', new_text: '  return 0;' }] });
    assert.equal(r.isError, true);
    assert.match(r.content, /The user rejected this change to math\.js: use a different name\. Nothing was changed\./);
    assert.equal(h.read('math.js'), SRC);
    assert.deepEqual(h.changed, []);
  });

  it('writes exactly the text the user approved when they edited the proposal, and tells the model', async () => {
    h.approver.script = (req) => ({ approved: true, editedText: req.proposedText!.replace('return 0;', 'return 42;') });
    const r = await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '  return a - b;', new_text: '  return 0;' }] });
    assert.equal(h.read('math.js'), SRC.replace('return a - b;', 'return 42;'));
    assert.match(r.content, /The user edited your proposal/);
    assert.match(r.content, /^\+  return 42;$/m);
  });

  it('refuses edits of missing files and empty old text', async () => {
    assert.match((await h.call(editFileTool, { path: 'none.js', edits: [{ old_text: 'a', new_text: 'b' }] })).content, /No such file.*write_file/);
    assert.match((await h.call(editFileTool, { path: 'math.js', edits: [{ old_text: '', new_text: 'b' }] })).content, /old_text is empty/);
    assert.equal(h.read('math.js'), SRC);
  });
});
