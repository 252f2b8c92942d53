import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';
import { sampleCard } from '../tools/toolSamples';

type G = typeof import('../../../webview-ui/src/state/cardGroups');
type R = typeof import('../../../webview-ui/src/state/refusals');

/** A card of a product tool, with the display its tool declares (as the host sends it). */
const tool = (id: string, tool: string, status = 'done') => sampleCard(id, tool, status);
const usage = (id: string) => ({ kind: 'usage', id, model: 'm', role: 'actor', tokens_in: 1, tokens_out: 1, latency_ms: 1, outcome: 'tool_calls', ts: 0 });
const text = (id: string, author = 'assistant', extra: Record<string, unknown> = {}) => ({ kind: 'text', id, author, text: id, ts: 0, ...extra });

describe('grouped reads and searches', () => {
  let M: G;
  before(async () => {
    M = await loadWebviewModule<G>('webview-ui/src/state/cardGroups.ts');
  });

  it('joins a run of finished looking-only calls across folded usage lines into one group, and says it in words', () => {
    const cards = [tool('r1', 'read_file'), usage('u1'), tool('r2', 'read_file'), tool('s1', 'search', 'error'), tool('l1', 'list_files'), text('t1'), tool('r3', 'read_file')];
    const groups = M.cardGroups(cards as never);
    const g = groups.get('r2')!;
    assert.deepEqual(g.members, ['r1', 'r2', 's1', 'l1']);
    assert.equal(g.leader, 'r1');
    assert.equal(groups.get('r3'), undefined, 'a single call after text is not a group');
    assert.equal(M.groupSummary(g), 'Read 2 files, listed 1 folder, searched 1 time · 1 failed');
  });

  it('a call in flight, an edit or text ends the run (what runs stays in view)', () => {
    const cards = [tool('r1', 'read_file'), tool('r2', 'read_file', 'running'), tool('r3', 'read_file'), tool('e1', 'edit_file'), tool('r4', 'read_file')];
    assert.equal(M.cardGroups(cards as never).size, 0);
  });

  it('runs come from the tools\' displays, not their names: code lookups join and count as such; a card with no display (saved by an older version) stands alone', () => {
    const cards = [tool('d1', 'find_symbol'), tool('d2', 'diagnostics'), tool('f1', 'find_files'), tool('r1', 'read_file')];
    const g = M.cardGroups(cards as never).get('d1')!;
    assert.deepEqual(g.members, ['d1', 'd2', 'f1', 'r1']);
    assert.equal(M.groupSummary(g), 'Read 1 file, searched 1 time, looked up 2 symbols');
    const bare = { ...tool('r2', 'read_file') } as Record<string, unknown>;
    delete bare.display;
    assert.equal(M.cardGroups([tool('r1', 'read_file'), bare, tool('r3', 'read_file')] as never).size, 0);
    const renamed = { ...tool('x', 'read_file'), tool: 'some_new_reader' };
    assert.equal(M.cardGroups([tool('r1', 'read_file'), renamed] as never).size, 2, 'a tool the webview never heard of joins by its display');
  });
});

describe('refusals shown by their button', () => {
  let M: R;
  before(async () => {
    M = await loadWebviewModule<R>('webview-ui/src/state/refusals.ts');
  });

  it('keeps the newest refusal per action and target since the last user message, until a revert succeeds', () => {
    const refused = (id: string, action: string, target?: string) => ({ kind: 'error', id, message: `no ${id}`, retryable: false, refused: { action, ...(target ? { target } : {}) }, ts: 0 });
    const cards = [refused('old', 'revert_task'), text('u', 'user'), refused('a', 'revert_call', 'c1'), refused('b', 'revert_call', 'c1'), refused('c', 'revert_task')];
    const now = M.currentRefusals(cards as never);
    assert.equal(now.get(M.refusalKey('revert_call', 'c1')), 'no b');
    assert.equal(now.get(M.refusalKey('revert_task')), 'no c');
    const after = M.currentRefusals([...cards, text('n', 'system', { note: 'revert' })] as never);
    assert.equal(after.size, 0, 'a revert that went through ends them');
    assert.equal(M.currentRefusals([...cards, text('u2', 'user')] as never).size, 0, 'the user wrote again');
  });
});
