/**
 * The lint stage's conversation check: only the owner module writes the model's conversation. A
 * tree where another file writes it (each way of writing it) fails the stage and names every
 * place; a tree that only reads it, or builds a request of its own under another name, passes.
 */
import * as assert from 'node:assert/strict';
import { lintTrees } from './lintTree';

const owner = [
  'export type Msg = { role: string; content: string };',
  'export class Conversation {',
  '  private readonly messages: Msg[] = [];',
  '  get view(): readonly Msg[] { return this.messages; }',
  "  appendUser(text: string): void { this.messages.push({ role: 'user', content: text }); }",
  '  restore(ms: readonly Msg[]): void { this.messages.length = 0; this.messages.push(...ms); }',
  '}',
  '',
].join('\n');

const clean: Record<string, string> = {
  'src/protocol/cards.ts': 'export const CARD = 1;\n',
  'webview-ui/src/main.tsx': "import { CARD } from '../../src/protocol/cards';\nexport const UI = CARD;\n",
  'src/core/context/conversation.ts': owner,
  'src/core/turn/turn.ts': [
    "import { Conversation, type Msg } from '../context/conversation';",
    'export function turn(conversation: Conversation): number {',
    "  conversation.appendUser('go');",
    '  // A request of its own, built under another name, is not the conversation.',
    "  const request: Msg[] = [{ role: 'system', content: 'you' }, ...conversation.view];",
    "  request.push({ role: 'user', content: 'messages.push(x) in a string is not a write' });",
    '  return request.length + conversation.view.length;',
    '}',
    '',
  ].join('\n'),
};

describe('lint stage: one writer of the model conversation', () => {
  const { make, lint } = lintTrees('tandem-lint-conv-');

  it('passes a tree where only the owner writes the messages', () => {
    const r = lint(make(clean));
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /✓ only src\/core\/context\/conversation\.ts writes the model's conversation/);
  });

  it('fails on each way of writing them outside the owner, naming the file and line', () => {
    const r = lint(make({
      ...clean,
      'src/core/runtime/checkpoints.ts': [
        "import type { Msg } from '../context/conversation';",
        'export function note(model: { conversation: readonly unknown[] }, t: { messages: Msg[] }, x: { messages: Msg[] }): void {',
        "  (model.conversation as unknown[]).push({ role: 'user', content: 'reverted' });",
        "  t.messages[t.messages.length - 1] = { role: 'tool', content: 'rewritten' };",
        '  t.messages.length = 0;',
        '  t.messages.splice(0, 1);',
        '  x.messages = [];',
        '  const writable = model.conversation as Msg[];',
        '  void writable;',
        '}',
        '',
      ].join('\n'),
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /✗ only src\/core\/context\/conversation\.ts writes the model's conversation/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:3: conversation\.push\(…\)/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:3: casts conversation to the mutable unknown\[\]/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:4: messages\[…\] = …/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:5: messages\.length = …/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:6: messages\.splice\(…\)/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:7: reassigns the field messages/);
    assert.match(r.out, /src\/core\/runtime\/checkpoints\.ts:8: casts conversation to the mutable Msg\[\]/);
    assert.doesNotMatch(r.out, /turn\/turn\.ts/);
    assert.match(r.out, /^\d+ passed, 1 failed$/m);
  });
});
