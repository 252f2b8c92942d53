/**
 * A development build (`node esbuild.mjs`, what `npm start`, the test stages and F5 run) must not
 * print esbuild's "⚠️" next to every unminified bundle over 1 MB: that reads like a failed size
 * budget. It says plainly that budgets apply to the production build.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function repoRoot(): string {
  let dir = __dirname;
  while (!(existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === 'tandem')) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no repository root');
    dir = up;
  }
  return dir;
}

describe('development build output', function () {
  this.timeout(120_000);

  it('prints no size warnings, and says where the size budgets apply', () => {
    const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot(), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = `${r.stdout}\n${r.stderr}`;
    assert.doesNotMatch(out, /⚠/, 'no warning sign on a development build');
    assert.match(out, /development build/);
    assert.match(out, /dist\/extension\.js \d+ KB/);
    assert.match(out, /budgets apply to the production build/);
  });
});
