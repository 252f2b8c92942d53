import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { searchTool } from '../../../src/core/tools/search';
import { requireRipgrep } from '../../support/prerequisites';
import { makeHarness, type Harness } from './toolHarness';

/** A tree with one real match of each kind and a decoy behind each exclusion rule. */
function fixture(h: Harness): void {
  h.write('src/app.ts', 'const needle = 1;\nfunction needleFn() {}\nconst other = 2;\n');
  h.write('src/deep/x/y.ts', 'a needle here\n');
  h.write('README.md', 'no match\nNeedle with a capital\n');
  h.write('.hidden/visible.ts', 'needle in a dot folder\n');
  h.write('crlf.txt', 'first\r\nneedle crlf\r\n');
  // Decoys: each must never show up.
  h.write('.gitignore', '.env\n*.log\n');
  h.write('.env', 'SECRET_needle=1\n');
  h.write('debug.log', 'needle in a log\n');
  h.write('.tandemignore', 'private/\n');
  h.write('private/key.txt', 'needle private\n');
  h.write('gen/.gitignore', '*.gen.ts\n');
  h.write('gen/a.gen.ts', 'needle generated\n');
  h.write('gen/keep.ts', 'needle kept\n');
  h.write('node_modules/pkg/index.js', 'needle dep\n');
  h.write('dist/bundle.js', 'needle dist\n');
  h.write('build/out.js', 'needle build\n');
  h.write('.git/HEAD', 'needle git\n');
  h.write('package-lock.json', '{"needle": 1}\n');
  h.write('yarn.lock', 'needle\n');
  h.write('vendor/app.min.js', 'needle minified\n');
  h.write('bin.dat', 'needle\u0000binary\n');
  fs.writeFileSync(path.join(h.outside, 'leak.ts'), 'needle outside\n');
  fs.symlinkSync(path.join(h.outside, 'leak.ts'), path.join(h.ws, 'src/ext.ts'));
  // A symlink cycle: src/deep/loop -> src. Following it would never end.
  fs.symlinkSync(path.join(h.ws, 'src'), path.join(h.ws, 'src/deep/loop'));
}

const EXPECTED = [
  '.hidden/visible.ts',
  '  1: needle in a dot folder',
  'crlf.txt',
  '  2: needle crlf',
  'gen/keep.ts',
  '  1: needle kept',
  'src/app.ts',
  '  1: const needle = 1;',
  '  2: function needleFn() {}',
  'src/deep/x/y.ts',
  '  1: a needle here',
  '[6 matches in 5 files]',
].join('\n');

for (const engine of ['ripgrep', 'js'] as const) {
  describe(`search (${engine})`, () => {
    let h: Harness;
    beforeEach(() => {
      h = makeHarness({ rg: engine === 'ripgrep' ? requireRipgrep() : undefined });
      fixture(h);
    });
    afterEach(() => h.cleanup());

    it('finds the matches and skips ignored, excluded, binary, minified, lock and symlinked files (and ends despite a symlink cycle)', async () => {
      const r = await h.call(searchTool, { pattern: 'needle' });
      assert.equal(r.content, EXPECTED);
    });

    it('ignores case on request', async () => {
      const r = await h.call(searchTool, { pattern: 'needle', ignore_case: true });
      assert.match(r.content, /^README\.md\n {2}2: Needle with a capital$/m);
      assert.match(r.content, /\[7 matches in 6 files\]/);
    });

    it('filters by include glob and by folder or file', async () => {
      assert.equal(
        (await h.call(searchTool, { pattern: 'needle', include: '*.ts' })).content,
        '.hidden/visible.ts\n  1: needle in a dot folder\ngen/keep.ts\n  1: needle kept\nsrc/app.ts\n  1: const needle = 1;\n  2: function needleFn() {}\nsrc/deep/x/y.ts\n  1: a needle here\n[5 matches in 4 files]',
      );
      assert.equal((await h.call(searchTool, { pattern: 'needle', path: 'src/deep' })).content, 'src/deep/x/y.ts\n  1: a needle here\n[1 match in 1 file]');
      assert.equal((await h.call(searchTool, { pattern: 'Fn', path: 'src/app.ts' })).content, 'src/app.ts\n  2: function needleFn() {}\n[1 match in 1 file]');
      // A minified file stays skipped even when the include glob names it.
      assert.match((await h.call(searchTool, { pattern: 'needle', include: '*.js' })).content, /^No matches/);
    });

    it('applies the root .gitignore when searching a subfolder (ripgrep alone would not see it from there)', async () => {
      h.write('.gitignore', '.env\n*.log\n/src/deep/gen/\n');
      h.write('src/deep/gen/z.ts', 'needle generated below root rule\n');
      const r = await h.call(searchTool, { pattern: 'needle', path: 'src/deep' });
      assert.equal(r.content, 'src/deep/x/y.ts\n  1: a needle here\n[1 match in 1 file]');
    });

    it('refuses to search an ignored file directly', async () => {
      const r = await h.call(searchTool, { pattern: 'SECRET', path: '.env' });
      assert.equal(r.isError, true);
      assert.match(r.content, /ignore rules/);
      assert.doesNotMatch(r.content, /SECRET_needle/);
    });

    it('caps the results and says how many there were', async () => {
      h.write('many.txt', Array.from({ length: 300 }, (_, i) => `hit ${i}`).join('\n'));
      const r = await h.call(searchTool, { pattern: '^hit', max_results: 20 });
      assert.equal(r.content.split('\n').filter((l) => l.startsWith('  ')).length, 20);
      assert.match(r.content, /Showing 20 of 300 matches in 1 files; narrow the search/);
    });

    it('reports an invalid regex as an error', async () => {
      const r = await h.call(searchTool, { pattern: '(unclosed' });
      assert.equal(r.isError, true);
    });

    it('supports look-around (ripgrep falls back to the built-in search for it)', async () => {
      const r = await h.call(searchTool, { pattern: 'needle(?=Fn)' });
      assert.match(r.content, /^src\/app\.ts\n {2}2: function needleFn\(\) \{\}$/m);
    });
  });
}

describe('search: ripgrep and the JS fallback agree', () => {
  it('prints the same results for the same queries on the same tree', async () => {
    const rgH = makeHarness({ rg: requireRipgrep() });
    try {
      fixture(rgH);
      const jsH = { ...rgH, ctx: { ...rgH.ctx, host: { ...rgH.ctx.host, ripgrepPath: undefined } } };
      for (const q of [{ pattern: 'needle' }, { pattern: 'e', max_results: 500 }, { pattern: '[0-9]', include: '*.{ts,md}' }, { pattern: '^\\w+$', ignore_case: true }]) {
        const parsed = searchTool.input.parse(q);
        const a = await searchTool.run(parsed, rgH.ctx);
        const b = await searchTool.run(parsed, jsH.ctx);
        assert.equal(a.content, b.content, JSON.stringify(q));
      }
    } finally {
      rgH.cleanup();
    }
  });
});
