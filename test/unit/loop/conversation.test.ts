/**
 * The model's conversation and its one writer: readers get a view they cannot write (the compiler
 * refuses it: the `@ts-expect-error` lines stop compiling if the view ever becomes writable), a
 * tool result gets a folder's instructions by replacement (a reader holding the old message keeps
 * what it read), and a revert's notes reach the model through the agent, before its next turn.
 */
import assert from 'node:assert/strict';
import { Conversation } from '../../../src/core/context/conversation';
import { harness, type Harness } from '../../support/agentHarness';

describe('the model conversation has one writer', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('readers get a read-only view of the messages and of each message', () => {
    const c = new Conversation([{ role: 'user', content: 'hi' }]);
    const view = c.messages;
    // @ts-expect-error the view has no push (and it is a frozen snapshot: a cast would not get through either)
    assert.throws(() => view.push({ role: 'user', content: 'x' }), TypeError);
    const first = view[0]!;
    // @ts-expect-error a message in the view cannot be rewritten
    if (false as boolean) first.content = 'rewritten';
    assert.equal(c.length, 1);
    c.appendUser('more');
    assert.equal(view.length, 1, 'a snapshot taken earlier stays as it was');
    assert.equal(c.messages.length, 2);
  });

  it('a folder instruction is added to the last tool result by replacing it, never in place', () => {
    const c = new Conversation();
    c.append({ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'read_file', arguments: '{}' } }] });
    c.appendToolResult('a', 'file text');
    const before = c.last();
    assert.equal(c.extendLastToolResult('AGENTS.md of sub/'), true);
    assert.equal(before?.content, 'file text', 'the message a reader held is unchanged');
    assert.equal(c.last()?.content, 'file text\n\nAGENTS.md of sub/');
    c.appendUser('next');
    assert.equal(c.extendLastToolResult('more'), false, 'only a tool result is extended');
    assert.deepEqual([...c.usedCallIds()], ['a']);
  });

  it('notes and a restore go through the owner: the agent conversation is what the model is sent next', async () => {
    h = await harness({
      steps: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }],
    });
    assert.equal(await h.agent.send('one'), 'done');
    h.agent.noteToModel(['The user reverted a.txt.']);
    assert.deepEqual(h.agent.conversation.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(await h.agent.send('two'), 'done');
    // On the wire the note and the next message are one user message (the task's context fitting merges them), note first.
    const body = h.server.chatRequests().at(-1) as { messages: Array<{ role: string; content: string }> };
    assert.deepEqual(body.messages.slice(1).map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(body.messages[3]!.content, '[Note from Tandem] The user reverted a.txt.\n\ntwo');
  });
});
