/**
 * A verdict's `learn` becomes a fact, or the chat says why not: a `learned` card either way
 * ("Learned: … — from src/app.py:12-20", with Forget; or refused, with the reason). Nothing is
 * learned (and nothing shown) while facts are turned off.
 */
import type { ReviewLearn } from '../../protocol';
import type { FactBook } from './factBook';
import type { FactsUi } from './taskFactSection';

export interface LearnedFrom {
  model: string;
  role: string;
  step?: number;
  /** The commands whose output the review was shown (a step's check), by command line. */
  commandOutputs: ReadonlyMap<string, string>;
}

export function learnFromVerdict(book: FactBook, ui: FactsUi, taskId?: string): (learn: ReviewLearn, from: LearnedFrom) => Promise<void> {
  return async (learn, from) => {
    if (!book.settings.enabled) return;
    const source = { by: 'reviewer' as const, role: from.role, model: from.model, ...(taskId ? { task_id: taskId } : {}), ...(from.step !== undefined ? { step: from.step } : {}) };
    const r = await book.learn(learn, source, from.commandOutputs);
    ui.addCard({
      kind: 'learned',
      id: ui.newId('learned'),
      fact: r.ok ? { id: r.fact.id, text: r.fact.text, cited: r.cited } : { text: book.mask(learn.text).slice(0, 1000), cited: r.cited },
      ...(r.ok ? {} : { refused: r.why }),
      ...(from.step !== undefined ? { step: from.step } : {}),
      ts: Date.now(),
    });
  };
}
