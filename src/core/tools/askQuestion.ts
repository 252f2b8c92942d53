/**
 * `ask_question` (either role): shows a question card and pauses the turn in `waiting_on_user`
 * until the host's asker answers; the answer goes back to the model as the tool result. Where
 * nobody can answer (headless without `--answer default`) the asker throws `QuestionUnanswerable`
 * and this rethrows it: the loop ends the turn with outcome `waiting` (the CLI exits 3).
 */
import { Question } from '../../protocol';
import { QuestionUnanswerable } from '../ports/ports';
import { dropNulls, toStrictJsonSchema } from '../schemas/strictJsonSchema';
import type { Tool } from './tool';
import * as z from 'zod';

// The schema offered is strict (optional fields nullable); nulls are dropped before zod parses.
const input = z.preprocess(dropNulls, Question) as unknown as z.ZodType<Question>;

export const askQuestionTool: Tool<Question> = {
  name: 'ask_question',
  // How many options is the schema's minItems/maxItems, not repeated here.
  description: 'Ask the user a multiple-choice question and wait (default: an option\'s value).',
  input,
  parameters: toStrictJsonSchema(Question),
  permissions: [],
  conversational: true,
  readOnly: true,
  // Its question card says it all: the tool card is folded once the question is up.
  display: { kind: 'question', title: 'Ask a question', fold: 'own_card', headline: (q) => ({ verb: `ask: ${q.question.slice(0, 100)}` }) },
  async run(q, ctx) {
    const ui = ctx.ui;
    if (!ui) return { content: 'Questions cannot be shown here.', isError: true };
    const cardId = ui.newId('question');
    ui.addCard({ kind: 'question', id: cardId, question: q, status: 'waiting', ts: Date.now() });
    ui.emit({ type: 'agent_state', state: 'waiting_on_user' });
    let answer: string;
    try {
      answer = await ctx.host.asker.ask(q, cardId, ctx.signal);
    } catch (err) {
      // Unanswerable: the card stays `waiting` (it is still the open question); otherwise cancelled.
      if (!(err instanceof QuestionUnanswerable)) ui.patchCard(cardId, { status: 'cancelled' });
      throw err;
    }
    ui.patchCard(cardId, { status: 'answered', answer });
    ui.emit({ type: 'agent_state', state: 'calling_tool' });
    const option = q.options.find((o) => o.value === answer);
    return {
      content: option ? `The user chose: ${option.value} (${option.label})` : `The user answered: ${answer}`,
      display: option ? option.label : answer,
    };
  },
};
