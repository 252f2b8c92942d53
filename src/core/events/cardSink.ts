import type { Card, HostEventInput } from '../../protocol';

/**
 * The task's card stream as its writers see it: add a card, patch one, emit an event. Plans, the step
 * check and the tools that show cards of their own (ask_question) write through it; it sits here, below
 * all of them, so none has to import the other's layer to reach the chat.
 */
export interface CardSink {
  addCard(card: Card): void;
  patchCard(id: string, patch: Record<string, unknown>): void;
  emit(event: HostEventInput): unknown;
  newId(kind?: string): string;
}
