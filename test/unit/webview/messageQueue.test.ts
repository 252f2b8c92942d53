import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Q = typeof import('../../../webview-ui/src/state/messageQueue');
type P = typeof import('../../../webview-ui/src/state/pendingApproval');

describe('webview message queue (typed while the agent runs)', () => {
  let M: Q;
  let A: P;
  before(async () => {
    M = await loadWebviewModule<Q>('webview-ui/src/state/messageQueue.ts');
    A = await loadWebviewModule<P>('webview-ui/src/state/pendingApproval.ts');
  });

  it('nothing goes out while the agent runs; once idle after a good turn, one message at a time, in order', () => {
    const q = new M.MessageQueue();
    q.add('first');
    q.add('second');
    assert.equal(q.due(true, null, 5), undefined);
    assert.equal(q.due(false, 'done', 5), 'first');
    // Still idle and no new card yet: the first is on its way, the second waits.
    assert.equal(q.due(false, 'done', 5), undefined);
    assert.equal(q.due(true, 'done', 6), undefined);
    assert.equal(q.due(false, 'done', 9), 'second');
    assert.deepEqual(q.list, []);
  });

  it('after a stopped or failed turn the queue waits for the user (Send now)', () => {
    const q = new M.MessageQueue();
    q.add('later');
    assert.equal(q.due(false, 'stopped', 3), undefined);
    assert.equal(q.due(false, 'error', 3), undefined);
    assert.equal(M.MessageQueue.held('error'), true);
    const id = q.list[0]!.id;
    assert.equal(q.sendNow(id, false, 3), 'later');
    assert.deepEqual(q.list, []);
  });

  it('edit and remove take a message out; a deferred send goes back to the front', () => {
    const q = new M.MessageQueue([{ text: 'a' }, { text: 'b' }]);
    assert.equal(q.take(q.list[1]!.id), 'b');
    q.addFront('back');
    assert.deepEqual(q.list.map((m) => m.text), ['back', 'a']);
    assert.equal(q.take(999), undefined);
  });

  it('the approval waited on is the latest pending tool card after the last user message', () => {
    const tool = (id: string, status: string, approval?: object) => ({ kind: 'tool_call', id, call_id: `call-${id}`, tool: 'edit_file', summary: 's', args: {}, status, ts: 1, ...(approval ? { approval } : {}) });
    const user = { kind: 'text', id: 'u', author: 'user', text: 'hi', ts: 1 };
    assert.equal(A.pendingApproval([user, tool('1', 'pending')] as never), null, 'not yet asking');
    assert.deepEqual(A.pendingApproval([user, tool('1', 'pending', { kind: 'edit', path: 'a.ts' })] as never), { callId: 'call-1', cardId: '1', what: 'edit a.ts' });
    assert.deepEqual(A.pendingApproval([user, tool('2', 'pending', { kind: 'command', command: 'npm test' })] as never), { callId: 'call-2', cardId: '2', what: 'run `npm test`' });
    assert.equal(A.pendingApproval([tool('1', 'pending', { kind: 'edit', path: 'a.ts' }), user] as never), null, 'an older one is not waited on');
    assert.equal(A.pendingApproval([user, tool('1', 'done', { kind: 'edit', path: 'a.ts' })] as never), null);
  });

  it('every decision the run waits on, oldest first, each with its step and card: approvals and unanswered questions', () => {
    const tool = (id: string, step: number, approval: object) => ({ kind: 'tool_call', id, call_id: `call-${id}`, tool: 'edit_file', summary: 's', args: {}, status: 'pending', ts: 1, step, approval });
    const question = (id: string, step: number, status: string) => ({ kind: 'question', id, status, step, ts: 1, question: { question: 'Which runner?', options: [], severity: 'minor', allow_custom: true } });
    const user = { kind: 'text', id: 'u', author: 'user', text: 'go', ts: 1 };
    assert.deepEqual(A.pendingDecisions([user, tool('4', 4, { kind: 'edit', path: 'd.ts' }), question('q2', 2, 'waiting'), question('q3', 3, 'answered')] as never), [
      { cardId: '4', kind: 'approval', what: 'edit d.ts', step: 4 },
      { cardId: 'q2', kind: 'question', what: 'Which runner?', step: 2 },
    ]);
    assert.deepEqual(A.pendingDecisions([question('q2', 2, 'waiting'), user] as never), [], 'only after the last message');
  });
});

describe('webview: the host UI messages of the everyday chat decode as UI messages', () => {
  type S = typeof import('./webviewState.entry');
  let D: S;
  before(async () => { D = await loadWebviewModule<S>('test/unit/webview/webviewState.entry.ts'); });

  it('send_deferred (a send that met a busy agent) and recent_tasks are not shown as unrecognised cards', () => {
    const kinds = [
      { type: 'send_deferred', text: 'still mine' },
      { type: 'recent_tasks', tasks: [{ id: 't1', title: 'Change alpha', updated: 1 }] },
    ].flatMap((m) => D.decodeInbound(m).map((i) => (i.kind === 'ui' ? `ui:${i.msg.type}` : i.kind)));
    assert.deepEqual(kinds, ['ui:send_deferred', 'ui:recent_tasks']);
  });
});
