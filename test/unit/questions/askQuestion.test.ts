import assert from 'node:assert/strict';
import { askQuestionTool } from '../../../src/core/tools/askQuestion';
import { HeadlessAsker, formatQuestion } from '../../../src/host/node/headlessAsker';
import { QuestionUnanswerable, type QuestionAsker } from '../../../src/core/ports/ports';
import type { ToolContext } from '../../../src/core/tools/tool';
import type { QuestionCard } from '../../../src/protocol';
import { recorder } from '../plans/planFixtures';

const question = {
  question: 'Delete the old config file?', context: null, severity: 'major', allow_custom: false, default: 'keep',
  options: [{ label: 'Keep it', value: 'keep', description: null }, { label: 'Delete it', value: 'delete', description: 'moved to the checkpoint' }],
};

function ctx(asker: QuestionAsker, r: ReturnType<typeof recorder>): ToolContext {
  return { role: 'actor', ui: r.stream, host: { asker }, signal: new AbortController().signal } as unknown as ToolContext;
}

describe('ask_question tool', () => {
  it('parses a strict-schema call with nulls and rejects a default that is not an option', () => {
    assert.equal(askQuestionTool.input.safeParse(question).success, true);
    assert.equal(askQuestionTool.input.safeParse({ ...question, default: 'maybe' }).success, false);
    assert.equal(askQuestionTool.input.safeParse({ ...question, options: [question.options[0]] }).success, false, 'at least 2 options');
  });

  it('waits on the user, then returns the answer to the model and marks the card answered', async () => {
    const r = recorder();
    let seenWaiting = false;
    const asker: QuestionAsker = {
      async ask(_q, cardId) {
        const card = r.stream.card(cardId) as QuestionCard;
        seenWaiting = card.status === 'waiting' && r.events.some((e) => e.type === 'agent_state' && e.state === 'waiting_on_user');
        return 'delete';
      },
    };
    const q = askQuestionTool.input.parse(question);
    const res = await askQuestionTool.run(q, ctx(asker, r));
    assert.ok(seenWaiting, 'the card was waiting and the state waiting_on_user while the asker had it');
    assert.equal(res.content, 'The user chose: delete (Delete it)');
    const card = r.stream.cards()[0] as QuestionCard;
    assert.equal(card.status, 'answered');
    assert.equal(card.answer, 'delete');
  });

  it('headless --answer default answers with the default', async () => {
    const r = recorder();
    const res = await askQuestionTool.run(askQuestionTool.input.parse(question), ctx(new HeadlessAsker('default'), r));
    assert.equal(res.content, 'The user chose: keep (Keep it)');
  });

  it('headless without --answer: throws QuestionUnanswerable and leaves the card waiting', async () => {
    const r = recorder();
    const asker = new HeadlessAsker('none');
    await assert.rejects(askQuestionTool.run(askQuestionTool.input.parse(question), ctx(asker, r)), QuestionUnanswerable);
    assert.equal((r.stream.cards()[0] as QuestionCard).status, 'waiting');
    assert.equal(asker.unanswered.length, 1);
    const text = formatQuestion(asker.unanswered[0]);
    assert.match(text, /Delete the old config file\?/);
    assert.match(text, /keep: Keep it \(default\)/);
  });

  it('a stop while waiting cancels the card', async () => {
    const r = recorder();
    const asker: QuestionAsker = { ask: async () => { throw new Error('stopped'); } };
    await assert.rejects(askQuestionTool.run(askQuestionTool.input.parse(question), ctx(asker, r)), /stopped/);
    assert.equal((r.stream.cards()[0] as QuestionCard).status, 'cancelled');
  });
});
