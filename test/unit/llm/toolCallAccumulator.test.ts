import assert from 'node:assert/strict';
import { ToolCallAccumulator } from '../../../src/core/llm';

const frag = (index: number | undefined, id?: string, name?: string, args?: string) =>
  ({ ...(index === undefined ? {} : { index }), ...(id ? { id } : {}), function: { ...(name ? { name } : {}), ...(args ? { arguments: args } : {}) } }) as any;

describe('tool call accumulator', () => {
  it('joins fragments by index, in order, with interleaved calls', () => {
    const a = new ToolCallAccumulator();
    a.add([frag(0, 'a', 'read_file', '{"pa')]);
    a.add([frag(1, 'b', 'search', '{"pat')]);
    a.add([frag(0, undefined, undefined, 'th":"x"}'), frag(1, undefined, undefined, 'tern":"y"}')]);
    assert.deepEqual(a.list().map((c) => [c.id, c.name, JSON.parse(c.arguments)]), [['a', 'read_file', { path: 'x' }], ['b', 'search', { pattern: 'y' }]]);
  });

  it('treats a new id at a reused index as a new call (servers that give every call index 0)', () => {
    const a = new ToolCallAccumulator();
    a.add([frag(0, 'one', 'read_file', '{"path":"a"}')]);
    a.add([frag(0, 'two', 'read_file', '{"path":"b"}')]);
    assert.deepEqual(a.list().map((c) => [c.id, c.arguments]), [['one', '{"path":"a"}'], ['two', '{"path":"b"}']]);
  });

  it('tolerates a repeated id and name on every fragment, and a name sent in pieces', () => {
    const a = new ToolCallAccumulator();
    a.add([frag(0, 'x', 'read_', '{"path"')]);
    a.add([frag(0, 'x', 'file', ':"q"}')]);
    const b = new ToolCallAccumulator();
    b.add([frag(0, 'y', 'search', '{')]);
    b.add([frag(0, 'y', 'search', '}')]);
    assert.deepEqual(a.list().map((c) => [c.name, c.arguments]), [['read_file', '{"path":"q"}']]);
    assert.deepEqual(b.list().map((c) => [c.name, c.arguments]), [['search', '{}']]);
  });

  it('gives calls without an id, or with duplicate ids, unique ids', () => {
    const a = new ToolCallAccumulator();
    a.add([frag(0, undefined, 'read_file', '{}'), frag(1, undefined, 'read_file', '{}')]);
    a.add([frag(2, 'dup', 'x', '{}'), frag(3, 'dup', 'y', '{}')]);
    const ids = a.list().map((c) => c.id);
    assert.equal(new Set(ids).size, 4, ids.join(','));
  });
});
