import assert from 'node:assert/strict';
import { extractJson } from '../../../src/core/plans/extractJson';

describe('extractJson (endpoints without structured outputs)', () => {
  it('reads a whole-JSON answer', () => {
    const r = extractJson(' {"goal":"x"} ');
    assert.deepEqual(r, { ok: true, value: { goal: 'x' }, source: 'whole' });
  });
  it('prefers a ```json block over other fenced blocks and prose', () => {
    const text = 'Here is the plan:\n```ts\nconst a = {b: 1}\n```\n```json\n{"goal": "fix {braces} in strings"}\n```\nDone.';
    const r = extractJson(text);
    assert.equal(r.ok, true);
    assert.deepEqual(r.ok && r.value, { goal: 'fix {braces} in strings' });
    assert.equal(r.ok && r.source, 'fenced');
  });
  it('falls back to the outermost balanced object, ignoring braces inside strings', () => {
    const r = extractJson('Plan: {"goal": "a } tricky", "steps": [{"n": 1}]} and then some {text}');
    assert.deepEqual(r.ok && r.value, { goal: 'a } tricky', steps: [{ n: 1 }] });
    assert.equal(r.ok && r.source, 'braces');
  });
  it('says why when there is no usable JSON', () => {
    const none = extractJson('I would first read the file, then edit it.');
    assert.equal(none.ok, false);
    assert.match(!none.ok ? none.error : '', /no JSON object/);
    const broken = extractJson('```json\n{"goal": "x",}\n```');
    assert.equal(broken.ok, false);
    assert.match(!broken.ok ? broken.error : '', /not valid JSON/);
  });
});
