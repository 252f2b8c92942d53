import assert from 'node:assert/strict';
import { Card, HostEvent, WebviewMessage, Question } from '../../src/protocol';

describe('protocol', () => {
  it('rejects a webview message of an unknown type or with an oversized field', () => {
    assert.equal(WebviewMessage.safeParse({ type: 'rm_rf' }).success, false);
    assert.equal(WebviewMessage.safeParse({ type: 'send', text: 'x'.repeat(100_001) }).success, false);
    assert.equal(WebviewMessage.safeParse({ type: 'send', text: 'hello' }).success, true);
  });
  it('accepts a card_added event carrying a text card', () => {
    const ev = { type: 'card_added', seq: 1, card: { kind: 'text', id: 'c1', author: 'user', text: 'hi', ts: 1 } };
    assert.equal(HostEvent.safeParse(ev).success, true);
    assert.equal(Card.safeParse({ kind: 'nope', id: 'x' }).success, false);
  });
  it('requires a question default to be one of its options', () => {
    const q = { question: 'Delete?', severity: 'major', options: [{ label: 'Yes', value: 'y' }, { label: 'No', value: 'n' }], default: 'maybe', allow_custom: false };
    assert.equal(Question.safeParse(q).success, false);
    assert.equal(Question.safeParse({ ...q, default: 'n' }).success, true);
  });
});
