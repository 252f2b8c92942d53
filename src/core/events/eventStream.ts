import type { Card, HostEvent, HostEventInput, RoleId } from '../../protocol';
import { CardStore } from './cardStore';

/** The cards a step's run adds (the plan, summary and instructions cards belong to the task, not a step). */
const STEPPED: ReadonlySet<Card['kind']> = new Set(['text', 'tool_call', 'question', 'error', 'usage']);

/**
 * The one place events are born: stamps `seq`, applies each delta to the card store, then hands
 * it to the sink (webview bridge, CLI printer, test recorder).
 */
export class EventStream {
  private seq = 0;
  private idCounter = 0;
  readonly store = new CardStore();
  /**
   * The plan step running now, if any (the task sets it): the cards a step's run adds carry it, so
   * the chat can show each step as its own lane and `--json` says which step a card is from.
   */
  stepOf: (() => number | undefined) | undefined;

  constructor(private readonly sink: (event: HostEvent) => void, private readonly idPrefix = 'c') {}

  emit(input: HostEventInput): HostEvent {
    const event = { ...input, seq: ++this.seq } as HostEvent;
    this.store.apply(event);
    this.sink(event);
    return event;
  }

  /** A fresh card id, unique within this stream. */
  newId(kind = 'card'): string {
    return `${this.idPrefix}${++this.idCounter}-${kind}`;
  }

  addCard(card: Card): void {
    const step = STEPPED.has(card.kind) && !(card as { step?: number }).step ? this.stepOf?.() : undefined;
    this.emit({ type: 'card_added', card: step ? ({ ...card, step } as Card) : card });
  }

  patchCard(id: string, patch: Record<string, unknown>): void {
    this.emit({ type: 'card_patched', id, patch });
  }

  appendText(id: string, text: string): void {
    if (text) this.emit({ type: 'text_appended', id, text });
  }

  appendReasoning(id: string, text: string): void {
    if (text) this.emit({ type: 'reasoning_appended', id, text });
  }

  cards(): Card[] {
    return this.store.all();
  }

  card(id: string): Card | undefined {
    return this.store.get(id);
  }

  /** The whole visible state, for a (re)loading webview; carries the latest seq so deltas continue from it. */
  snapshot(role: RoleId, taskId?: string): HostEvent {
    const { agentState: state, turnUsage: turn, taskUsage: task } = this.store.view;
    return {
      type: 'snapshot', seq: this.seq, cards: this.cards(), role,
      ...(taskId ? { task_id: taskId } : {}), ...(state !== 'idle' ? { state } : {}), ...(turn && task ? { usage: { turn, task } } : {}),
    };
  }

  get lastSeq(): number {
    return this.seq;
  }
}
