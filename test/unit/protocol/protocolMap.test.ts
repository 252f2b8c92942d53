import assert from 'node:assert/strict';
import { dispatchWebviewMessage, type HostEvent, type WebviewHandlers, type WebviewReply } from '../../../src/protocol';

describe('the webview handler table', () => {
  const snapshot: Extract<HostEvent, { type: 'snapshot' }> = { type: 'snapshot', seq: 7, cards: [], role: 'planner' };
  const calls: string[] = [];
  const none = (m: { type: string }) => void calls.push(m.type);
  const handlers: WebviewHandlers = {
    ready: () => snapshot,
    test_connection: async () => ({ type: 'connection_result', ok: false, error: 'refused' }),
    save_settings: async () => ({ type: 'connection_result', ok: true }),
    send: none, approve: none, reject: none, open_diff: none, answer: none, execute_plan: none, revise_plan: none, review_plan: none, replan: none,
    set_role: none, stop: none, retry: none, new_task: none, revert_call: none, revert_task: none, continue: none,
    open_file_diff: none, revert_file: none, open_file: none, resume_task: none, set_api_key: none,
    mention_search: (m) => ({ type: 'mention_results', query: m.query, paths: [] }),
    edit_message: none, edit_plan: none, allow_command: none, remove_allowed_command: none, set_model: none, forget_fact: none,
  };

  it('posts an answer given at once in the same tick, before any event the host sends after it', () => {
    const posted: WebviewReply[] = [];
    void dispatchWebviewMessage(handlers, { type: 'ready' }, (r) => posted.push(r));
    posted.push({ type: 'agent_state', seq: 8, state: 'thinking' });
    assert.deepEqual(posted.map((p) => p.type), ['snapshot', 'agent_state']);
  });

  it('posts an answer that takes time once it is there, and nothing for a message whose effect comes as events', async () => {
    const posted: WebviewReply[] = [];
    await dispatchWebviewMessage(handlers, { type: 'test_connection', base_url: 'http://127.0.0.1:9/v1' }, (r) => posted.push(r));
    await dispatchWebviewMessage(handlers, { type: 'stop' }, (r) => posted.push(r));
    assert.deepEqual(posted, [{ type: 'connection_result', ok: false, error: 'refused' }]);
    assert.deepEqual(calls, ['stop']);
  });
});
