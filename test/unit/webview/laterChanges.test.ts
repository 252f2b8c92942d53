import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type L = typeof import('../../../webview-ui/src/state/laterChanges');

describe('Edit & resend: what comes after a message', () => {
  let M: L;
  before(async () => {
    M = await loadWebviewModule<L>('webview-ui/src/state/laterChanges.ts');
  });

  const user = (id: string) => ({ kind: 'text', id, author: 'user', text: id, ts: 0 });
  const tool = (id: string, extra: Record<string, unknown>) => ({ kind: 'tool_call', id, call_id: `call-${id}`, tool: 'x', summary: '', args: {}, status: 'done', ts: 0, ...extra });

  it('lists the files changed after the message (revertible or not), the commands that ran, and how many cards go', () => {
    const cards = [
      user('u1'),
      tool('t0', { approval: { kind: 'edit', path: 'before.ts' }, revertible: true }),
      user('u2'),
      tool('t1', { approval: { kind: 'edit', path: 'a.ts' }, revertible: true }),
      tool('t2', { approval: { kind: 'create', path: 'big.bin' }, revertible: false, revert_note: 'too big' }),
      tool('t3', { approval: { kind: 'edit', path: 'gone.ts' }, revertible: false, reverted: true }),
      tool('t4', { approval: { kind: 'command', command: 'npm install' } }),
      tool('t5', { approval: { kind: 'edit', path: 'a.ts' }, revertible: true }),
      { kind: 'text', id: 'a1', author: 'assistant', text: 'done', ts: 0 },
    ];
    const later = M.laterChanges(cards as never, 'u2');
    assert.deepEqual(later, { dropped: 7, files: ['a.ts'], unrevertible: ['big.bin'], commands: ['npm install'] });
    assert.deepEqual(M.laterChanges(cards as never, 'a1'), { dropped: 1, files: [], unrevertible: [], commands: [] });
    assert.deepEqual(M.laterChanges(cards as never, 'nope'), { dropped: 0, files: [], unrevertible: [], commands: [] });
  });
});
