import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { deleteFileTool } from '../../../src/core/tools/deleteFile';
import { readFileTool } from '../../../src/core/tools/readFile';
import { makeHarness, type Harness } from './toolHarness';

describe('write_file and delete_file', () => {
  let h: Harness;
  beforeEach(() => (h = makeHarness()));
  afterEach(() => h.cleanup());

  it('needs create for a new file and write for an existing one', async () => {
    h.write('old.txt', 'x');
    const perms = async (p: string) => writeFileTool.permissionsFor!(writeFileTool.input.parse({ path: p, content: 'y' }), h.ctx);
    assert.deepEqual(await perms('new/dir/file.txt'), ['create']);
    assert.deepEqual(await perms('old.txt'), ['write']);
    assert.deepEqual(writeFileTool.permissions, ['create']);
  });

  it('creates a new file (and its folders) after a create approval', async () => {
    const r = await h.call(writeFileTool, { path: 'src/deep/new.ts', content: 'export const a = 1;\n' });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.read('src/deep/new.ts'), 'export const a = 1;\n');
    const info = h.approvals[0]!.info;
    assert.deepEqual([info.kind, info.path, info.added, info.removed], ['create', 'src/deep/new.ts', 1, 0]);
    assert.match(info.diff!, /^--- \/dev\/null$/m);
    assert.equal(h.approvals[0]!.originalText, undefined);
    assert.match(r.content, /Created src\/deep\/new\.ts \(\+1 -0\)/);
  });

  it('refuses to overwrite an existing file the agent has not read', async () => {
    h.write('keep.txt', 'precious\n');
    const r = await h.call(writeFileTool, { path: 'keep.txt', content: 'gone\n' });
    assert.equal(r.isError, true);
    assert.match(r.content, /already exists and you have not read it/);
    assert.equal(h.read('keep.txt'), 'precious\n');
    assert.equal(h.approvals.length, 0);
  });

  it('refuses to overwrite a file changed since the agent read it, and allows it after a fresh read', async () => {
    const p = h.write('keep.txt', 'v1\n');
    await h.call(readFileTool, { path: 'keep.txt' });
    fs.writeFileSync(p, 'v2 by the user\n');
    const stale = await h.call(writeFileTool, { path: 'keep.txt', content: 'agent\n' });
    assert.match(stale.content, /changed since you read it; read it again/);
    assert.equal(h.read('keep.txt'), 'v2 by the user\n');
    await h.call(readFileTool, { path: 'keep.txt' });
    const ok = await h.call(writeFileTool, { path: 'keep.txt', content: 'agent\n' });
    assert.equal(ok.isError, undefined, ok.content);
    assert.equal(h.read('keep.txt'), 'agent\n');
    assert.equal(h.approvals.at(-1)!.info.kind, 'edit');
    assert.equal(h.approvals.at(-1)!.originalText, 'v2 by the user\n');
  });

  it('creates nothing when the user rejects', async () => {
    h.approver.script = 'deny';
    const r = await h.call(writeFileTool, { path: 'no.txt', content: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.content, /rejected/);
    assert.equal(fs.existsSync(path.join(h.ws, 'no.txt')), false);
  });

  it('deletes a file after a delete approval that shows what is removed', async () => {
    const p = h.write('old.txt', 'a\nb\n');
    const r = await h.call(deleteFileTool, { path: 'old.txt' });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(fs.existsSync(p), false);
    const info = h.approvals[0]!.info;
    assert.deepEqual([info.kind, info.path, info.removed], ['delete', 'old.txt', 2]);
    assert.deepEqual(h.changed, [p], 'the checkpoint hook saw it before deletion');
  });

  it('keeps the file when the deletion is rejected, and refuses folders', async () => {
    const p = h.write('old.txt', 'a\n');
    h.approver.script = 'deny';
    const r = await h.call(deleteFileTool, { path: 'old.txt' });
    assert.equal(r.isError, true);
    assert.equal(fs.readFileSync(p, 'utf8'), 'a\n');
    h.write('dir/x.txt', 'x');
    h.approver.script = 'approve';
    const d = await h.call(deleteFileTool, { path: 'dir' });
    assert.match(d.content, /is a folder/);
    assert.equal(fs.existsSync(path.join(h.ws, 'dir/x.txt')), true);
  });
});
