import * as vscode from 'vscode';
import type { Question } from '../../protocol';
import type { QuestionAsker } from '../../core/ports/ports';
import { PendingRequests } from './pendingRequests';

/** Stop while a question waits: the core ends the turn on this error. */
export class QuestionCancelled extends Error {
  constructor() { super('The question was cancelled (stopped by the user).'); }
}

/**
 * Questions answered in the chat: the question card is already on screen (the core emitted it);
 * this resolves when the panel forwards the card's `answer`.
 */
export class PanelQuestionAsker implements QuestionAsker, vscode.Disposable {
  private readonly pending = new PendingRequests<{ value: string } | { cancelled: true }>();
  private readonly questions = new Map<string, Question>();
  private readonly asked = new vscode.EventEmitter<{ cardId: string; question: Question }>();
  readonly onDidAsk = this.asked.event;

  async ask(question: Question, cardId: string, signal: AbortSignal): Promise<string> {
    this.questions.set(cardId, question);
    const answered = this.pending.wait(cardId, signal, () => ({ cancelled: true as const }));
    this.asked.fire({ cardId, question });
    try {
      const r = await answered;
      if ('cancelled' in r) throw new QuestionCancelled();
      return r.value;
    } finally {
      this.questions.delete(cardId);
    }
  }

  /**
   * The card's answer. Free text is accepted only when the question allows it: a forged message
   * cannot slip an arbitrary answer past a closed question. False when nothing waits on that card.
   */
  answer(cardId: string, value: string): boolean {
    const q = this.questions.get(cardId);
    if (!q) return false;
    if (!q.allow_custom && !q.options.some((o) => o.value === value)) return false;
    return this.pending.settle(cardId, { value });
  }

  isWaiting(cardId: string): boolean { return this.pending.has(cardId); }

  dispose(): void { this.asked.dispose(); }
}
