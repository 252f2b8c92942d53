import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin, WorkspacePaths } from '../../../src/core/workspace/workspacePaths';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { readFileTool } from '../../../src/core/tools/readFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { editFileTool } from '../../../src/core/tools/editFile';
import { deleteFileTool } from '../../../src/core/tools/deleteFile';
import { applyPatchTool } from '../../../src/core/tools/applyPatch';
import { listFilesTool } from '../../../src/core/tools/listFiles';
import { searchTool } from '../../../src/core/tools/search';
import { makeHarness, type Harness } from './toolHarness';

describe('workspace paths', () => {
  let h: Harness;
  beforeEach(() => (h = makeHarness()));
  afterEach(() => h.cleanup());

  it('compares whole path segments: /ws-evil is not inside /ws', () => {
    assert.equal(isWithin('/ws', '/ws'), true);
    assert.equal(isWithin('/ws', '/ws/a/b'), true);
    assert.equal(isWithin('/ws', '/ws-evil'), false);
    assert.equal(isWithin('/ws', '/ws-evil/x'), false);
    assert.equal(isWithin('/ws', '/'), false);
    assert.equal(isWithin('/ws', '/ws/../etc'), false);
  });

  it('resolves relative, absolute, missing and symlinked paths to real ones', async () => {
    const paths = new WorkspacePaths(new NodeWorkspaceFs([h.ws]));
    const rel = await paths.resolve('src/new/file.ts');
    assert.deepEqual([rel.inside, rel.rel, rel.real], [true, 'src/new/file.ts', path.join(h.ws, 'src/new/file.ts')]);
    assert.equal((await paths.resolve('../outside/x')).inside, false);
    assert.equal((await paths.resolve(path.join(h.outside, 'x'))).inside, false);
    fs.symlinkSync(h.outside, path.join(h.ws, 'link'));
    const viaLink = await paths.resolve('link/secret.txt');
    assert.deepEqual([viaLink.inside, viaLink.real], [false, path.join(h.outside, 'secret.txt')]);
    // A dangling symlink is followed to where it points: creating through it would write outside.
    fs.symlinkSync(path.join(h.outside, 'not-yet'), path.join(h.ws, 'dangling'));
    const dangling = await paths.resolve('dangling');
    assert.deepEqual([dangling.inside, dangling.real], [false, path.join(h.outside, 'not-yet')]);
    assert.equal((await paths.resolve('.')).rel, '.');
  });

  // Each trick, with each tool that could leak or change something: refused when the user says no, file untouched.
  const tricks: { name: string; setup: (h: Harness) => string }[] = [
    { name: '..', setup: () => '../outside/target.txt' },
    { name: 'absolute path outside', setup: (h) => path.join(h.outside, 'target.txt') },
    {
      name: 'symlink pointing out',
      setup: (h) => {
        fs.symlinkSync(path.join(h.outside, 'target.txt'), path.join(h.ws, 'innocent.txt'));
        return 'innocent.txt';
      },
    },
    {
      name: 'sibling prefix (/ws-evil beside /ws)',
      setup: (h) => {
        const evil = `${h.ws}-evil`;
        fs.mkdirSync(evil);
        fs.writeFileSync(path.join(evil, 'target.txt'), 'EVIL ORIGINAL\n');
        return path.join(evil, 'target.txt');
      },
    },
  ];

  for (const t of tricks) {
    it(`refuses ${t.name} for read, write, edit, patch, delete and search without approval`, async () => {
      fs.writeFileSync(path.join(h.outside, 'target.txt'), 'ORIGINAL\n');
      const p = t.setup(h);
      const realTarget = fs.realpathSync(path.isAbsolute(p) ? p : path.join(h.ws, p));
      const before = fs.readFileSync(realTarget, 'utf8');
      h.approver.script = 'deny';
      const calls: [string, () => Promise<{ content: string; isError?: boolean }>][] = [
        ['read_file', () => h.call(readFileTool, { path: p })],
        ['write_file', () => h.call(writeFileTool, { path: p, content: 'PWNED\n' })],
        ['edit_file', () => h.call(editFileTool, { path: p, edits: [{ old_text: before.trim(), new_text: 'PWNED' }] })],
        ['apply_patch', () => h.call(applyPatchTool, { path: p, patch: `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${before.trim()}\n+PWNED\n` })],
        ['delete_file', () => h.call(deleteFileTool, { path: p })],
        ['search', () => h.call(searchTool, { pattern: 'ORIGINAL', path: p })],
      ];
      for (const [name, call] of calls) {
        h.approvals.length = 0;
        const r = await call();
        assert.equal(r.isError, true, `${name} should be refused`);
        assert.match(r.content, /outside the workspace/, name);
        assert.doesNotMatch(r.content, /ORIGINAL/, `${name} must not leak the contents`);
        assert.equal(h.approvals.length, 1, `${name} asks exactly once`);
        assert.equal(h.approvals[0]!.info.kind, 'outside_workspace');
        assert.equal(h.approvals[0]!.info.real_path, realTarget, `${name} names the real path`);
        assert.equal(fs.readFileSync(realTarget, 'utf8'), before, `${name} left the file untouched`);
      }
      assert.deepEqual(h.changed, []);
    });
  }

  it('reads outside only after an approval naming the real path', async () => {
    fs.writeFileSync(path.join(h.outside, 'notes.txt'), 'hello\n');
    fs.symlinkSync(h.outside, path.join(h.ws, 'ext'));
    h.approver.script = 'approve';
    const r = await h.call(readFileTool, { path: 'ext/notes.txt' });
    assert.equal(r.content, '1\thello');
    assert.equal(h.approvals[0]!.info.real_path, path.join(h.outside, 'notes.txt'));
  });

  it('lists a folder reached through a symlink pointing out only after approval', async () => {
    fs.writeFileSync(path.join(h.outside, 'secret.txt'), 's');
    fs.symlinkSync(h.outside, path.join(h.ws, 'ext'));
    h.approver.script = 'deny';
    const r = await h.call(listFilesTool, { path: 'ext' });
    assert.equal(r.isError, true);
    assert.doesNotMatch(r.content, /secret/);
  });

  it('creates a new file through a dangling symlink only as an outside write', async () => {
    fs.symlinkSync(path.join(h.outside, 'planted.txt'), path.join(h.ws, 'dangling.txt'));
    h.approver.script = 'deny';
    const r = await h.call(writeFileTool, { path: 'dangling.txt', content: 'x' });
    assert.equal(r.isError, true);
    assert.equal(fs.existsSync(path.join(h.outside, 'planted.txt')), false);
  });
});
