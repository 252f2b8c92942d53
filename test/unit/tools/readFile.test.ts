import * as assert from 'node:assert/strict';
import { readFileTool, READ_MAX_LINES, READ_MAX_LINE_CHARS } from '../../../src/core/tools/readFile';
import { makeHarness, type Harness } from './toolHarness';

describe('read_file', () => {
  let h: Harness;
  beforeEach(() => (h = makeHarness()));
  afterEach(() => h.cleanup());

  it('numbers lines and reads a small file whole, without truncation notes', async () => {
    h.write('a.txt', 'alpha\nbeta\ngamma\n');
    const r = await h.call(readFileTool, { path: 'a.txt' });
    assert.equal(r.isError, undefined);
    assert.equal(r.content, '1\talpha\n2\tbeta\n3\tgamma');
  });

  it(`caps at ${READ_MAX_LINES} lines and says how to read on`, async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
    h.write('big.txt', lines.join('\n') + '\n');
    const r = await h.call(readFileTool, { path: 'big.txt' });
    const body = r.content.split('\n');
    assert.equal(body.filter((l) => /^\s*\d+\t/.test(l)).length, READ_MAX_LINES);
    assert.match(body[READ_MAX_LINES - 1]!, /^2000\tline 2000$/);
    assert.match(r.content, /Showing lines 1-2000 of 2500 \(capped at 2000 lines per read\)\. Use offset=2001 to read on\./);
    // A limit above the cap is capped too, and says so.
    const r2 = await h.call(readFileTool, { path: 'big.txt', limit: 5000 });
    assert.match(r2.content, /capped at 2000 lines/);
  });

  it('reads a window with offset and limit', async () => {
    h.write('big.txt', Array.from({ length: 50 }, (_, i) => `L${i + 1}`).join('\n'));
    const r = await h.call(readFileTool, { path: 'big.txt', offset: 10, limit: 3 });
    assert.match(r.content, /^10\tL10\n11\tL11\n12\tL12\n/);
    assert.match(r.content, /Showing lines 10-12 of 50\. Use offset=13 to read on\./);
    const end = await h.call(readFileTool, { path: 'big.txt', offset: 49 });
    assert.match(end.content, /^49\tL49\n50\tL50\n\[Showing lines 49-50 of 50\.\]$/);
    const past = await h.call(readFileTool, { path: 'big.txt', offset: 99 });
    assert.match(past.content, /has 50 lines; offset 99 is past the end/);
  });

  it(`cuts lines longer than ${READ_MAX_LINE_CHARS} characters and says so`, async () => {
    h.write('wide.txt', `short\n${'x'.repeat(5000)}\nshort again\n`);
    const r = await h.call(readFileTool, { path: 'wide.txt' });
    const second = r.content.split('\n')[1]!;
    assert.equal(second, `2\t${'x'.repeat(READ_MAX_LINE_CHARS)}… [line cut: 5000 characters]`);
    assert.match(r.content, /1 line was longer than 2000 characters and cut/);
  });

  it('lists a folder instead of failing on it', async () => {
    h.write('src/a.ts', 'a');
    h.write('src/sub/b.ts', 'b');
    const r = await h.call(readFileTool, { path: 'src' });
    assert.match(r.content, /src is a folder/);
    assert.match(r.content, /^a\.ts$/m);
    assert.match(r.content, /^sub\/$/m);
  });

  it('says when a file is empty, missing or binary', async () => {
    h.write('empty.txt', '');
    assert.match((await h.call(readFileTool, { path: 'empty.txt' })).content, /empty/);
    const missing = await h.call(readFileTool, { path: 'nope.txt' });
    assert.equal(missing.isError, true);
    assert.match(missing.content, /No such file: nope\.txt/);
    h.write('bin.dat', 'abc\u0000def');
    assert.match((await h.call(readFileTool, { path: 'bin.dat' })).content, /binary/);
  });

  it('remembers what it read, for the freshness rule of later edits', async () => {
    const p = h.write('a.txt', 'one\n');
    await h.call(readFileTool, { path: 'a.txt' });
    assert.equal(h.reads.isFresh(p, 'one\n'), true);
    assert.equal(h.reads.isFresh(p, 'two\n'), false);
  });
});
