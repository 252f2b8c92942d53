import type { Card, HostEventInput } from '../../protocol';

/**
 * How a part of a task (checkpoints, the budget, context fitting) says something in the chat and
 * reads what the chat shows: through the task's agent, which stamps and records every event. The
 * runtime makes the parts before the agent, so this is bound once the agent exists.
 */
export interface TaskOutput {
  emit(event: HostEventInput): void;
  cards(): readonly Card[];
}

/** A fresh id for a card a part adds (unique within the task; the meaning is in the card's fields). */
export function partCardIds(prefix: string): (kind: string) => string {
  let n = 0;
  return (kind) => `${prefix}-${kind}-${Date.now().toString(36)}-${++n}`;
}
