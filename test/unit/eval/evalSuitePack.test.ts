/**
 * The packed built-in suite (host/node/eval/builtinSuite.ts) on real folders: a checkout's
 * eval-suite/ comes first; a pack is unpacked once into the cache folder, and a pack that is
 * damaged or names a path outside the suite is refused with a clear error, writing nothing.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { builtinSuite, PACK_FORMAT, PACKED_SUITE } from '../../../src/host/node/eval/builtinSuite';

describe('the packed built-in eval suite', () => {
  let tmp: string;
  let dist: string;
  let cache: string;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-suitepack-')));
    dist = path.join(tmp, 'extension', 'dist');
    cache = path.join(tmp, 'storage');
    fs.mkdirSync(dist, { recursive: true });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const pack = (files: unknown, format: string = PACK_FORMAT) => {
    fs.mkdirSync(path.join(dist, path.dirname(PACKED_SUITE)), { recursive: true });
    fs.writeFileSync(path.join(dist, PACKED_SUITE), brotliCompressSync(Buffer.from(JSON.stringify({ format, files }))));
  };

  it('unpacks once into the cache folder; a checkout\'s own eval-suite/ is used as it is', () => {
    pack([['README.md', '# suite\n'], ['js/a/task.json', '{}\n']]);
    const suite = builtinSuite(dist, cache)!;
    assert.equal(path.dirname(suite), cache);
    assert.equal(fs.readFileSync(path.join(suite, 'js', 'a', 'task.json'), 'utf8'), '{}\n');
    const mtime = fs.statSync(path.join(suite, 'README.md')).mtimeMs;
    assert.equal(builtinSuite(dist, cache), suite);
    assert.equal(fs.statSync(path.join(suite, 'README.md')).mtimeMs, mtime, 'an intact copy is not written again');
    assert.deepEqual(fs.readdirSync(cache), [path.basename(suite)], 'no leftovers beside it');

    fs.mkdirSync(path.join(tmp, 'extension', 'eval-suite'));
    fs.writeFileSync(path.join(tmp, 'extension', 'eval-suite', 'README.md'), '# checkout\n');
    assert.equal(builtinSuite(dist, cache), path.join(tmp, 'extension', 'eval-suite'));
  });

  it('an updated pack replaces the suite unpacked from the one before, and nothing else in the folder', () => {
    pack([['README.md', '# one\n']]);
    const first = builtinSuite(dist, cache)!;
    fs.writeFileSync(path.join(cache, 'eval-results.json'), '{}');
    pack([['README.md', '# two\n']]);
    const second = builtinSuite(dist, cache)!;
    assert.notEqual(second, first);
    assert.equal(fs.readFileSync(path.join(second, 'README.md'), 'utf8'), '# two\n');
    assert.deepEqual(fs.readdirSync(cache).sort(), [path.basename(second), 'eval-results.json'].sort());
  });

  it('refuses a pack that names a path outside the suite, or is not a pack, and writes nothing', () => {
    for (const bad of ['../escaped.txt', '/tmp/abs.txt', 'a/../../x', '']) {
      pack([['README.md', 'x'], [bad, 'owned']]);
      assert.throws(() => builtinSuite(dist, cache), /holds a bad entry .*reinstall Tandem/, bad);
    }
    pack([['README.md', 'x']], 'something-else/1');
    assert.throws(() => builtinSuite(dist, cache), /is not a tandem-eval-suite-pack\/1 pack/);
    fs.writeFileSync(path.join(dist, PACKED_SUITE), 'not brotli');
    assert.throws(() => builtinSuite(dist, cache), /is damaged/);
    assert.ok(!fs.existsSync(cache), 'nothing was written');
    assert.ok(!fs.existsSync(path.join(tmp, 'extension', 'escaped.txt')));
  });

  it('without a folder or a pack there is no built-in suite', () => {
    assert.equal(builtinSuite(dist, cache), undefined);
  });
});
