import * as assert from 'node:assert/strict';
import { capHeadTail, HeadTailBuffer, capLine } from '../../../src/core/text/truncate';

describe('head+tail capping', () => {
  it('keeps text under the cap as is', () => {
    assert.equal(capHeadTail('short', 100), 'short');
  });

  it('keeps both ends and counts what it left out', () => {
    const text = 'A'.repeat(500) + 'M'.repeat(1000) + 'Z'.repeat(500);
    const out = capHeadTail(text, 200);
    assert.ok(out.startsWith('A'.repeat(100)));
    assert.ok(out.endsWith('Z'.repeat(100)));
    assert.match(out, /\[… 1800 characters left out …\]/);
  });

  it('streams into the same head and tail as capping the whole text, in bounded memory', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const max of [0, 1, 10, 101, 4096]) {
      let whole = '';
      const buf = new HeadTailBuffer(max);
      for (let i = 0; i < 300; i++) {
        const chunk = String(i).repeat(Math.floor(rand() * 40));
        whole += chunk;
        buf.push(chunk);
      }
      const head = Math.ceil(max / 2);
      const tail = max - head;
      const expectedOmitted = Math.max(0, whole.length - max);
      assert.equal(buf.omitted, expectedOmitted, `max ${max}`);
      const s = buf.toString();
      if (expectedOmitted === 0) assert.equal(s, whole);
      else {
        assert.ok(s.startsWith(whole.slice(0, head)));
        assert.ok(s.endsWith(tail ? whole.slice(-tail) : `…]\n`), `max ${max}`);
        assert.match(s, new RegExp(`\\[… ${expectedOmitted} characters of output left out …\\]`));
      }
    }
  });

  it('cuts a long line and says how long it was', () => {
    assert.deepEqual(capLine('abcdef', 3), { text: 'abc… [line cut: 6 characters]', cut: true });
    assert.deepEqual(capLine('abc', 3), { text: 'abc', cut: false });
  });
});
