import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFilesTool } from '../../../src/core/tools/listFiles';
import { findFilesTool } from '../../../src/core/tools/findFiles';
import { globMatcher } from '../../../src/core/tools/glob';
import { makeHarness, type Harness } from './toolHarness';

describe('list_files and find_files', () => {
  let h: Harness;
  beforeEach(() => {
    h = makeHarness();
    h.write('README.md', 'r');
    h.write('src/a.ts', 'a');
    h.write('src/b.test.ts', 'b');
    h.write('src/util/c.ts', 'c');
    h.write('node_modules/lib/index.ts', 'n');
    h.write('dist/out.ts', 'd');
    h.write('.git/config', '[core]');
  });
  afterEach(() => h.cleanup());

  it('lists one level by default, folders marked, .git hidden', async () => {
    const r = await h.call(listFilesTool, {});
    assert.deepEqual(r.content.split('\n'), ['README.md', 'dist/', 'node_modules/', 'src/']);
  });

  it('lists recursively without entering node_modules or dist', async () => {
    const r = await h.call(listFilesTool, { recursive: true });
    assert.deepEqual(r.content.split('\n'), [
      'README.md',
      'dist/ (not expanded)',
      'node_modules/ (not expanded)',
      'src/',
      'src/a.ts',
      'src/b.test.ts',
      'src/util/',
      'src/util/c.ts',
    ]);
  });

  it('caps a listing and says so', async () => {
    for (let i = 0; i < 30; i++) h.write(`many/f${String(i).padStart(2, '0')}.txt`, '');
    const r = await h.call(listFilesTool, { path: 'many', max_entries: 10 });
    const lines = r.content.split('\n');
    assert.equal(lines.length, 11);
    assert.match(lines[10]!, /Listing stopped at 10 entries/);
  });

  it('does not follow a symlinked folder (a cycle cannot loop)', async () => {
    fs.symlinkSync(path.join(h.ws, 'src'), path.join(h.ws, 'src/util/loop'));
    const r = await h.call(listFilesTool, { recursive: true });
    assert.match(r.content, /^src\/util\/loop \(symlink\)$/m);
    assert.doesNotMatch(r.content, /loop\//);
  });

  it('finds files by glob at any depth or anchored, skipping node_modules and dist', async () => {
    assert.deepEqual((await h.call(findFilesTool, { pattern: '*.ts' })).content.split('\n'), ['src/a.ts', 'src/b.test.ts', 'src/util/c.ts']);
    assert.deepEqual((await h.call(findFilesTool, { pattern: 'src/*.ts' })).content.split('\n'), ['src/a.ts', 'src/b.test.ts']);
    assert.deepEqual((await h.call(findFilesTool, { pattern: '**/*.test.ts' })).content.split('\n'), ['src/b.test.ts']);
    assert.deepEqual((await h.call(findFilesTool, { pattern: '*.ts', path: 'src/util' })).content.split('\n'), ['src/util/c.ts']);
    assert.match((await h.call(findFilesTool, { pattern: '*.py' })).content, /No files match/);
    const capped = await h.call(findFilesTool, { pattern: '*.ts', max_results: 2 });
    assert.match(capped.content, /Stopped at 2 files/);
  });

  it('matches globs the way ripgrep -g does', () => {
    const m = (g: string, p: string) => globMatcher(g)(p);
    assert.equal(m('*.ts', 'a/b/c.ts'), true);
    assert.equal(m('*.ts', 'a/b/c.tsx'), false);
    assert.equal(m('*.{ts,tsx}', 'x.tsx'), true);
    assert.equal(m('src/**/*.ts', 'src/a.ts'), true);
    assert.equal(m('src/**/*.ts', 'src/x/y/a.ts'), true);
    assert.equal(m('src/*.ts', 'src/x/a.ts'), false);
    assert.equal(m('file?.[jt]s', 'file1.js'), true);
    assert.equal(m('[!a]*.md', 'a.md'), false);
    assert.equal(m('a.b', 'axb'), false);
  });
});
