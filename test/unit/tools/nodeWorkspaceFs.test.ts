import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { findRipgrep } from '../../../src/host/node/findRipgrep';

describe('NodeWorkspaceFs', () => {
  let base: string;
  beforeEach(() => (base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-nfs-')))));
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('realpaths its roots, so a workspace opened through a symlink compares by real path', () => {
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'alias'));
    assert.deepEqual(new NodeWorkspaceFs([path.join(base, 'alias')]).roots, [path.join(base, 'real')]);
  });

  it('resolves missing paths via the nearest existing ancestor, and dangling or chained symlinks to their targets', async () => {
    const nfs = new NodeWorkspaceFs([base]);
    fs.mkdirSync(path.join(base, 'a'));
    fs.symlinkSync(path.join(base, 'a'), path.join(base, 'link'));
    assert.equal(await nfs.realpath(path.join(base, 'link/new/file.txt')), path.join(base, 'a/new/file.txt'));
    fs.symlinkSync('/nonexistent-target-dir/x', path.join(base, 'dangling'));
    assert.equal(await nfs.realpath(path.join(base, 'dangling')), '/nonexistent-target-dir/x');
    fs.symlinkSync(path.join(base, 'dangling'), path.join(base, 'chain'));
    assert.equal(await nfs.realpath(path.join(base, 'chain')), '/nonexistent-target-dir/x');
    fs.symlinkSync(path.join(base, 'loop2'), path.join(base, 'loop1'));
    fs.symlinkSync(path.join(base, 'loop1'), path.join(base, 'loop2'));
    await assert.rejects(nfs.realpath(path.join(base, 'loop1')), /ELOOP|too many levels/i);
  });

  it('writes with parent folders, lists with types, deletes', async () => {
    const nfs = new NodeWorkspaceFs([base]);
    await nfs.writeText(path.join(base, 'x/y/z.txt'), 'hi');
    fs.symlinkSync(path.join(base, 'x'), path.join(base, 'x/y/up'));
    const entries = (await nfs.readDir(path.join(base, 'x/y'))).sort((a, b) => (a.name < b.name ? -1 : 1));
    assert.deepEqual(entries, [
      { name: 'up', type: 'symlink' },
      { name: 'z.txt', type: 'file' },
    ]);
    assert.equal((await nfs.stat(path.join(base, 'x/y/z.txt')))!.size, 2);
    await nfs.delete(path.join(base, 'x/y/z.txt'));
    assert.equal(await nfs.stat(path.join(base, 'x/y/z.txt')), undefined);
  });

  it('finds ripgrep on a PATH that has it, and not on one that does not', () => {
    fs.writeFileSync(path.join(base, 'rg'), '#!/bin/sh\n', { mode: 0o755 });
    assert.equal(findRipgrep(`/nonexistent${path.delimiter}${base}`), path.join(base, 'rg'));
    assert.equal(findRipgrep('/nonexistent'), undefined);
  });
});
