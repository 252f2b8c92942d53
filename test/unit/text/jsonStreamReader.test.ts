import assert from 'node:assert/strict';
import { JsonStreamReader, type CompletedValue, type JsonPath } from '../../../src/core/text/jsonStreamReader';

/** The plan's goal and each step: what the plan's draft asks the reader for. */
const wantPlanParts = (p: JsonPath) => (p.length === 1 && p[0] === 'goal') || (p.length === 2 && p[0] === 'steps');

/** A plan whose strings hold what a naive reader trips on: quotes, backslashes, braces, brackets, \u escapes, a surrogate pair. */
const PLAN = {
  format_version: '1.0',
  goal: 'Quote "things" \\ and {braces} [brackets], café ☕ 😀',
  steps: [
    { step_number: 1, action: 'Edit src/a.ts: replace "}" with "]"', reason: 'a \\"tricky\\" one\nwith a newline', tools_needed: ['edit_file'], estimated_time: '1 min', files: ['src/a.ts'], check: 'npm test -- --grep "a}b"' },
    { step_number: 2, action: 'Empty things', reason: '', tools_needed: [], estimated_time: '', files: [], commands: [], depends_on: [] },
    { step_number: 3, action: 'Numbers and literals', reason: 'n', tools_needed: [], estimated_time: '2.5e1 s', files: ['b.json'], extra: { n: -1.5e-3, t: true, f: false, z: null, nested: [[1, [2]], { a: {} }] } },
  ],
  estimated_total_time: '3 min',
  risks: ['none at all'],
  prerequisites: [],
};
// As a model writes it: \u escapes for non-ASCII (some do), spaces and newlines between tokens.
const TEXT = JSON.stringify(PLAN, null, 2).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function readInChunks(chunks: readonly string[]): { values: CompletedValue[]; reader: JsonStreamReader; perChunk: number[] } {
  const reader = new JsonStreamReader(wantPlanParts);
  const values: CompletedValue[] = [];
  const perChunk: number[] = [];
  for (const c of chunks) {
    const got = reader.push(c);
    values.push(...got);
    perChunk.push(got.length);
  }
  return { values, reader, perChunk };
}

function expectWhole(values: readonly CompletedValue[], why: string): void {
  assert.deepEqual(values.map((v) => v.path), [['goal'], ['steps', 0], ['steps', 1], ['steps', 2]], why);
  assert.equal(JSON.parse(values[0]!.text), PLAN.goal, why);
  assert.deepEqual(values.slice(1).map((v) => JSON.parse(v.text)), PLAN.steps, why);
}

/** Deterministic pseudo-random chunk sizes (a model's deltas are 1 to a dozen characters). */
function chunked(text: string, seed: number, max: number): string[] {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = 1 + (x % max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

describe('JsonStreamReader: values completed as JSON streams in', () => {
  it('split in two at every position (mid-string, mid-escape, mid-\\u, mid-number, mid-literal), the goal and every step come out whole, once, in order', () => {
    assert.ok(TEXT.includes('\\"') && TEXT.includes('\\\\') && TEXT.includes('\\u00e9') && TEXT.includes('\\ud83d'), 'the text has the escapes the splits must cross');
    for (let at = 0; at <= TEXT.length; at++) {
      const { values, reader } = readInChunks([TEXT.slice(0, at), TEXT.slice(at)]);
      expectWhole(values, `split at ${at}: ${JSON.stringify(TEXT.slice(Math.max(0, at - 8), at))}|${JSON.stringify(TEXT.slice(at, at + 8))}`);
      assert.equal(reader.error, undefined);
      assert.ok(reader.done);
    }
  });

  it('one character at a time, and in pseudo-random chunk sizes', () => {
    expectWhole(readInChunks([...TEXT]).values, 'one character a chunk');
    for (let seed = 1; seed <= 40; seed++) expectWhole(readInChunks(chunked(TEXT, seed, 13)).values, `seed ${seed}`);
  });

  it('a provider-like delta sequence: each step comes out with the chunk that closes it, not before and not at the end', () => {
    // Recorded in the shape an OpenAI-compatible server streams `function.arguments`: short pieces,
    // a piece ending on a backslash, a \u escape cut after "\u00", a number cut mid-digits.
    const deltas = [
      '{"', 'format', '_version', '":"', '1.', '0', '","', 'goal', '":"', 'Fix \\', '"the\\', '" ', 'caf', '\\u00', 'e9', ' bug', '",',
      '"steps', '":[', '{"step', '_number', '":', '1', ',"action":"', 'Edit } and ] in', ' a', '","reason":"', 'r","tools_needed":["edit_file"],',
      '"estimated_time":"1', ' min","files":["a.ts"]', '}', ',{"step_number":', '2', ',"action":"B","reason":"","tools_needed":[],"estimated_time":"","files":[]', '}', ']',
      ',"estimated_total_time":"2 min","risks":[],"prerequisites":[]}',
    ];
    const { values, perChunk } = readInChunks(deltas);
    assert.deepEqual(values.map((v) => v.path), [['goal'], ['steps', 0], ['steps', 1]]);
    assert.equal(JSON.parse(values[0]!.text), 'Fix "the" café bug');
    assert.equal(JSON.parse(values[1]!.text).action, 'Edit } and ] in a');
    // The goal with its closing quote (delta 16), step 1 with its '}' (delta 30), step 2 with its '}' (delta 34).
    assert.deepEqual(perChunk.flatMap((n, i) => Array(n).fill(i)), [16, 30, 34]);
  });

  it('the values of an envelope or any wanted path, and nothing it was not asked for', () => {
    const reader = new JsonStreamReader((p) => p.length === 3 && p[0] === 'plan' && p[1] === 'steps');
    const got = reader.push('{"plan":{"goal":"g","steps":[{"a":1},{"b":[2,{"c":"}"}]}]}}');
    assert.deepEqual(got.map((v) => [v.path, JSON.parse(v.text)]), [[['plan', 'steps', 0], { a: 1 }], [['plan', 'steps', 1], { b: [2, { c: '}' }] }]]);
    const scalars = new JsonStreamReader((p) => p.length === 1);
    assert.deepEqual(scalars.push('{"a": 12, "b" :true,"c":null , "d":-0.5e3}').map((v) => [v.path[0], v.text]), [['a', '12'], ['b', 'true'], ['c', 'null'], ['d', '-0.5e3']]);
  });

  it('text that is not JSON: the reader says where, gives what completed before, and reads no further', () => {
    const reader = new JsonStreamReader(wantPlanParts);
    const got = reader.push('{"goal":"g","steps":[{"a":1},{"b":2}');
    assert.deepEqual(got.map((v) => v.path), [['goal'], ['steps', 0], ['steps', 1]]);
    assert.deepEqual(reader.push(' oops'), []);
    assert.match(reader.error ?? '', /expected ',' or '\]', found 'o' \(at character 38\)/);
    assert.deepEqual(reader.push(',{"c":3}]}'), [], 'nothing after the problem');
    for (const bad of ['[1,]', '{"a":1,}', '{a:1}', '{"a" 1}', '{"a":1} x', '{"a":}']) {
      const r = new JsonStreamReader(() => true);
      r.push(bad);
      assert.ok(r.error, `${bad} is refused`);
    }
  });
});
