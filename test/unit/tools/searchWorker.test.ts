/**
 * The JS fallback (no ripgrep, or one without PCRE2) runs the model's regex in a worker thread under
 * a time limit: a catastrophic pattern ends as an error the model can act on, the main thread keeps
 * running meanwhile (timers, Stop), and Stop ends a runaway scan at once.
 */
import * as assert from 'node:assert/strict';
import { searchTool, searchWithJs } from '../../../src/core/tools/search';
import { IgnoreMatcher } from '../../../src/core/policy/ignorePolicy';
import { makeHarness, type Harness } from './toolHarness';

/** `^(a+)+\1$` against this backtracks for hours in V8's regex engine. */
const BAIT = `${'a'.repeat(40)}!\nneedle needle\n`;
const RUNAWAY = '^(a+)+\\1$';

describe('search (js): a runaway regex is bounded', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(() => {
    h = makeHarness({ rg: undefined });
    h.write('bait.txt', BAIT);
    h.write('src/a.ts', 'const needle = 1;\n');
  });
  afterEach(() => h.cleanup());

  it('tells the model the pattern took too long and to simplify it, and the main thread keeps running meanwhile', async () => {
    let ticks = 0;
    const tick = setInterval(() => ticks++, 50);
    try {
      const r = await h.call(searchTool, { pattern: RUNAWAY });
      assert.equal(r.isError, true, r.content);
      assert.match(r.content, /took too long.*bait\.txt.*simplify it/s);
    } finally {
      clearInterval(tick);
    }
    // Before the worker, the match held the event loop: not one timer fired until it ended.
    assert.ok(ticks > 0, 'timers fired while the pattern ran');
  });

  it('after a runaway, the next search works normally', async () => {
    const root = await h.ctx.paths.resolve('.');
    await assert.rejects(
      searchWithJs(h.ctx, root, { regex: RUNAWAY, ignoreCase: false, matchTimeLimitMs: 200 }, new IgnoreMatcher(h.host.fs)),
      /took too long/,
    );
    const r = await h.call(searchTool, { pattern: 'needle' });
    assert.equal(r.content, 'bait.txt\n  2: needle needle\nsrc/a.ts\n  1: const needle = 1;\n[2 matches in 2 files]');
  });

  it('Stop (abort) ends a runaway scan without waiting for the time limit', async () => {
    const started = searchWithJs(h.ctx, await h.ctx.paths.resolve('.'), { regex: RUNAWAY, ignoreCase: false, matchTimeLimitMs: 3_600_000 }, new IgnoreMatcher(h.host.fs));
    setTimeout(() => h.abort.abort(), 300);
    await assert.rejects(started, (e: Error) => e.name === 'AbortError');
  });

  it('back-references and look-around still match where they are cheap, ignore_case too', async () => {
    const r = await h.call(searchTool, { pattern: '(needle) \\1' });
    assert.equal(r.content, 'bait.txt\n  2: needle needle\n[1 match in 1 file]');
    const r2 = await h.call(searchTool, { pattern: 'NEEDLE(?= =)', ignore_case: true });
    assert.equal(r2.content, 'src/a.ts\n  1: const needle = 1;\n[1 match in 1 file]');
  });
});
