import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePatch } from 'diff';
import { applyPatchTool } from '../../../src/core/tools/applyPatch';
import { readFileTool } from '../../../src/core/tools/readFile';
import { makeHarness, type Harness } from './toolHarness';

interface RealChange {
  commit: string;
  path: string;
  pre: string;
  post: string;
  patch: string;
}

/**
 * Real-world unified diffs: modifications of source files taken from this repository's own history
 * (`git show C^:path`, `git show C:path`, `git show C -- path`), frozen in test/fixtures/real-patches
 * by test/support/extractRealPatches.mjs so the test data does not move with every commit.
 */
let cached: RealChange[] | undefined;
function realChanges(want: number): RealChange[] {
  if (!cached) {
    const dir = path.join(process.cwd(), 'test', 'fixtures', 'real-patches');
    cached = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RealChange);
  }
  return cached.slice(0, want);
}

describe('apply_patch', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(() => (h = makeHarness()));
  afterEach(() => h.cleanup());

  it('applies real diffs from this repository\'s git history to their pre-images, giving the post-images', async () => {
    const changes = realChanges(12);
    assert.ok(changes.length >= 4, `expected at least 4 modifying commits in this repository's history, found ${changes.length}`);
    let hunks = 0;
    for (const c of changes) {
      h.write(c.path, c.pre);
      const r = await h.call(applyPatchTool, { patch: c.patch });
      assert.equal(r.isError, undefined, `${c.commit.slice(0, 8)} ${c.path}: ${r.content}`);
      assert.equal(h.read(c.path), c.post, `${c.commit.slice(0, 8)} ${c.path} gives the committed post-image`);
      hunks += parsePatch(c.patch)[0]!.hunks.length;
    }
    assert.ok(hunks >= changes.length);
  });

  it('applies a real diff whose context has shifted and drifted (bounded fuzz)', async () => {
    const c = realChanges(20).find((x) => parsePatch(x.patch)[0]!.hunks[0]!.lines.filter((l) => l[0] === ' ').length >= 3);
    assert.ok(c, 'a real diff with context lines');
    const hunk = parsePatch(c.patch)[0]!.hunks[0]!;
    // Shift: 7 new lines at the top of the file, so every hunk is 7 lines lower than its header says.
    const header = Array.from({ length: 7 }, (_, i) => `// inserted line ${i}`).join('\n') + '\n';
    // Drift: the first context line of hunk 1 was edited since the diff was made.
    const ctxIndex = hunk.lines.findIndex((l) => l[0] === ' ');
    const oldLineNo = hunk.oldStart + hunk.lines.slice(0, ctxIndex).filter((l) => l[0] !== '+').length;
    const newLineNo = hunk.newStart + hunk.lines.slice(0, ctxIndex).filter((l) => l[0] !== '-').length;
    const drift = (text: string, lineNo: number) => {
      const ls = text.split('\n');
      ls[lineNo - 1] = `${ls[lineNo - 1]} /* drifted */`;
      return ls.join('\n');
    };
    h.write(c.path, header + drift(c.pre, oldLineNo));
    const r = await h.call(applyPatchTool, { patch: c.patch });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read(c.path), header + drift(c.post, newLineNo));
  });

  it('fails clearly, with the closest lines, when a removed line is not there; the file is unchanged', async () => {
    const uniqueRemoved = (x: RealChange) => parsePatch(x.patch)[0]!.hunks[0]!.lines
      .find((l) => l[0] === '-' && l.trim().length > 3 && x.pre.split(l.slice(1)).length === 2)?.slice(1);
    const c = realChanges(20).find((x) => uniqueRemoved(x) !== undefined);
    assert.ok(c, 'a real diff that removes a line found once in its file');
    const removed = uniqueRemoved(c)!;
    const pre = c.pre.replace(removed, `${removed} CHANGED SINCE`);
    h.write(c.path, pre);
    const r = await h.call(applyPatchTool, { patch: c.patch });
    assert.equal(r.isError, true);
    assert.match(r.content, /^Hunk 1 of \d+ \(@@ -\d+,\d+ @@\) does not fit /);
    assert.match(r.content, /closest text in the file is at lines \d+-\d+/);
    assert.match(r.content, /CHANGED SINCE/);
    assert.match(r.content, /Nothing was changed/);
    assert.equal(h.read(c.path), pre);
    assert.equal(h.approvals.length, 0);
  });

  it('recomputes wrong hunk line counts (a common model mistake)', async () => {
    h.write('a.txt', 'one\ntwo\nthree\nfour\n');
    const r = await h.call(applyPatchTool, { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,9 +1,2 @@\n one\n-two\n+TWO\n three\n' });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('a.txt'), 'one\nTWO\nthree\nfour\n');
    const r2 = await h.call(applyPatchTool, { patch: '--- a/a.txt\n+++ b/a.txt\n@@ @@\n three\n-four\n+FOUR\n' });
    assert.equal(r2.isError, undefined, r2.content);
    assert.equal(h.read('a.txt'), 'one\nTWO\nthree\nFOUR\n');
  });

  it('is all or none across files: one failing file leaves the other untouched', async () => {
    h.write('a.txt', 'a1\na2\na3\n');
    h.write('b.txt', 'b1\nb2\nb3\n');
    const patch = '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n a1\n-a2\n+A2\n a3\n--- a/b.txt\n+++ b/b.txt\n@@ -1,3 +1,3 @@\n b1\n-bX\n+B2\n b3\n';
    const r = await h.call(applyPatchTool, { patch });
    assert.equal(r.isError, true);
    assert.match(r.content, /does not fit b\.txt/);
    assert.equal(h.read('a.txt'), 'a1\na2\na3\n');
    assert.equal(h.approvals.length, 0);
    // The same patch fixed applies to both, after one approval each.
    const ok = await h.call(applyPatchTool, { patch: patch.replace('-bX', '-b2') });
    assert.equal(ok.isError, undefined, ok.content);
    assert.deepEqual([h.read('a.txt'), h.read('b.txt')], ['a1\nA2\na3\n', 'b1\nB2\nb3\n']);
    assert.equal(h.approvals.length, 2);
  });

  it('writes nothing when the user rejects one file of a multi-file patch', async () => {
    h.write('a.txt', 'a1\n');
    h.write('b.txt', 'b1\n');
    h.approver.script = (req) => (req.info.path === 'b.txt' ? { approved: false } : { approved: true });
    const r = await h.call(applyPatchTool, { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a1\n+A1\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b1\n+B1\n' });
    assert.equal(r.isError, true);
    assert.deepEqual([h.read('a.txt'), h.read('b.txt')], ['a1\n', 'b1\n']);
  });

  it('creates a new file from a /dev/null diff, asking as a create', async () => {
    const r = await h.call(applyPatchTool, { patch: '--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n' });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('src/new.txt'), 'hello\nworld\n');
    assert.equal(h.approvals[0]!.info.kind, 'create');
  });

  it('refuses a patch against a file changed since the agent read it', async () => {
    const p = h.write('a.txt', 'one\ntwo\n');
    await h.call(readFileTool, { path: 'a.txt' });
    fs.writeFileSync(p, 'one!\ntwo\nthree\n');
    const r = await h.call(applyPatchTool, { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' });
    assert.match(r.content, /changed since you read it/);
    assert.equal(h.read('a.txt'), 'one!\ntwo\nthree\n');
  });

  it('says what is wrong with a patch that is not a unified diff', async () => {
    h.write('a.txt', 'x\n');
    const r = await h.call(applyPatchTool, { patch: 'please change x to y' });
    assert.equal(r.isError, true);
    assert.match(r.content, /no hunks|Could not parse/);
  });
});
