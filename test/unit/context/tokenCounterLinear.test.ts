/**
 * Token counting stays linear on text without spaces. A 5 MB tool-call argument of base64 (or a
 * minified bundle) used to stall a run for minutes, because BPE is quadratic in one pre-token and a
 * run of letters is one. The count must finish, stay close to the tokenizer's own count where that
 * is cheap to get, and be exactly the tokenizer's count on ordinary prose and code. The time it
 * takes is a figure of bench/tokenCount.bench.mjs, not an assertion here.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { countTextTokens, ESTIMATE_PAST, MAX_STRETCH, stretchEnds } from '../../../src/core/context/tokenCounter';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const exactCount = (require('gpt-tokenizer/encoding/cl100k_base') as { countTokens: (t: string) => number }).countTokens;

describe('token counting: linear on long runs without spaces', function () {
  this.timeout(120_000);

  it('counts a 5 MB base64 blob of repeated bytes (one endless run of letters) and a 5 MB random one', () => {
    const repeated = Buffer.alloc(3_750_000, 0).toString('base64'); // "AAAA…": a single 5 MB pre-token
    const random = Buffer.from(Array.from({ length: 3_750_000 }, (_, i) => (i * 2654435761) >>> 24)).toString('base64');
    for (const blob of [repeated, random]) {
      assert.equal(blob.length, 5_000_000);
      const n = countTextTokens(blob);
      // Never fewer than one token per 8 characters of base64, never more than one per character.
      assert.ok(n >= blob.length / 8 && n <= blob.length, `${n} tokens for ${blob.length} characters`);
    }
  });

  it('estimates a text past the size limit from samples within 3% of counting it all', () => {
    const random = Buffer.from(Array.from({ length: 1_200_000 }, (_, i) => (i * 2654435761) >>> 24)).toString('base64');
    assert.ok(random.length > ESTIMATE_PAST);
    const estimate = countTextTokens(random);
    let whole = 0;
    for (let i = 0; i < random.length; i += ESTIMATE_PAST) whole += countTextTokens(random.slice(i, i + ESTIMATE_PAST));
    assert.ok(Math.abs(estimate - whole) <= whole * 0.03, `${estimate} estimated vs ${whole} counted`);
  });

  it('stays within 2% of the exact count, and never under it, on a run short enough to count exactly', () => {
    const blob = Buffer.alloc(9_000, 7).toString('base64') + Buffer.from('x'.repeat(3_000)).toString('base64');
    const exact = exactCount(blob);
    const n = countTextTokens(blob);
    assert.ok(n >= exact && n <= exact * 1.02, `${n} counted vs ${exact} exact`);
  });

  it('equals the exact count on ordinary prose and source code', () => {
    const source = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'src', 'core', 'turn', 'dispatcher.ts'), 'utf8');
    const prose = 'The quick brown fox jumps over the lazy dog. It\'s 3.14159 o\'clock;  spaces   here, tabs\there. '.repeat(400);
    for (const t of [source, prose]) {
      assert.ok(t.length > MAX_STRETCH * 10);
      assert.equal(countTextTokens(t), exactCount(t));
    }
  });

  it('cuts text into stretches no longer than the limit, covering it whole', () => {
    const t = `${'word '.repeat(200)}${'Z'.repeat(2_000)} tail`;
    const ends = stretchEnds(t);
    let start = 0;
    for (const e of ends) {
      assert.ok(e > start && e - start <= MAX_STRETCH, `stretch ${start}..${e}`);
      start = e;
    }
    assert.equal(start, t.length);
  });
});
