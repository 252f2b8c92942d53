/**
 * What a chat message gives a fact remembered from it (its context menu's Remember…): a command
 * card its command and the output it showed; a read of a range those lines; the user's message the
 * ranges it attached; the agent's answer the `path:lines` places it names — from the card's data.
 */
import assert from 'node:assert/strict';
import type { Card } from '../../../src/protocol';
import { citedPlaces, evidenceLabel, messageEvidence } from '../../../src/core/facts/messageEvidence';

const tool = (kind: string, args: unknown, result?: string): Card => ({
  kind: 'tool_call', id: 'c1', call_id: 'k1', tool: 'x', summary: '', args, status: 'done',
  display: { kind: kind as 'read', title: 't', verb: 'v' }, ...(result !== undefined ? { result } : {}), ts: 0,
});

describe('a message as evidence for a fact', () => {
  it('a command card: the command and the output it showed', () => {
    const e = messageEvidence(tool('command', { command: 'npm test' }, '12 passing\n'));
    assert.deepEqual(e, { command: 'npm test', output: '12 passing\n' });
    assert.equal(evidenceLabel(e!), '`npm test`');
    assert.equal(messageEvidence(tool('command', { command: 'npm test' })), undefined, 'no output yet: nothing shown to rest on');
  });

  it('a read of a range: those lines; a whole-file read or an edit: nothing', () => {
    assert.deepEqual(messageEvidence(tool('read', { path: 'src/app.py', offset: 5, limit: 3 })), { lines: [{ path: 'src/app.py', start: 5, end: 7 }] });
    assert.equal(messageEvidence(tool('read', { path: 'src/app.py' })), undefined);
    assert.equal(messageEvidence(tool('edit', { path: 'src/app.py', offset: 1, limit: 2 })), undefined);
  });

  it("the agent's answer: the places it names, each once; the user's message: the ranges it attached", () => {
    const answer: Card = { kind: 'text', id: 't', author: 'assistant', text: 'See src/app.py:5-7 and (lib/util.ts:12), again src/app.py:5-7; not v1.2 or http://x.io:80', ts: 0 };
    const e = messageEvidence(answer);
    assert.deepEqual(e, { lines: [{ path: 'src/app.py', start: 5, end: 7 }, { path: 'lib/util.ts', start: 12, end: 12 }] });
    assert.equal(evidenceLabel(e!), 'src/app.py:5-7, lib/util.ts:12');
    const mine: Card = { kind: 'text', id: 'u', author: 'user', text: 'why is src/b.py:1 odd?', attachments: [{ kind: 'range', label: 'src/cart.ts:12-20', content: '…' }, { kind: 'file', label: 'src/x.ts', content: '…' }], ts: 0 };
    assert.deepEqual(messageEvidence(mine), { lines: [{ path: 'src/cart.ts', start: 12, end: 20 }] });
    assert.equal(messageEvidence({ kind: 'text', id: 's', author: 'system', text: 'src/app.py:1', ts: 0 }), undefined);
    assert.equal(citedPlaces('nothing here').length, 0);
  });
});
