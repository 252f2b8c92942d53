/**
 * Messages typed while the agent runs. They wait here (shown, editable, removable) and go out one
 * at a time when a turn ends well; after a stopped or failed turn they wait for the user instead of
 * starting a run nobody asked for in that state. Pure logic, unit-tested in Node.
 */
import type { TurnOutcome } from './chatStore';

export interface QueuedMessage { id: number; text: string }

export class MessageQueue {
  private items: QueuedMessage[] = [];
  private next = 1;
  /**
   * A delivered message the host has not yet shown (as the user's card, which comes before its turn):
   * nothing else goes out until it has. Holds the card count at delivery.
   */
  private inFlightAt: number | null = null;

  constructor(saved: readonly { text: string }[] = []) {
    for (const m of saved) if (typeof m.text === 'string' && m.text.trim()) this.add(m.text);
  }

  get list(): readonly QueuedMessage[] { return this.items; }

  add(text: string): void {
    this.items = [...this.items, { id: this.next++, text }];
  }

  /** Puts a message back at the front (the host was still busy when it arrived). */
  addFront(text: string): void {
    this.items = [{ id: this.next++, text }, ...this.items];
    this.inFlightAt = null;
  }

  /** Takes a message out (Edit moves it back into the composer; Remove drops it); its text, if it was there. */
  take(id: number): string | undefined {
    const m = this.items.find((x) => x.id === id);
    if (m) this.items = this.items.filter((x) => x.id !== id);
    return m?.text;
  }

  /** Whether the queue waits for the user rather than going out by itself. */
  static held(lastOutcome: TurnOutcome | null): boolean {
    return lastOutcome === 'stopped' || lastOutcome === 'error' || lastOutcome === 'limit';
  }

  /**
   * The message to send now, if any: the agent is idle, nothing delivered is still on its way, and
   * the last turn ended in a way that lets the conversation go on.
   */
  due(busy: boolean, lastOutcome: TurnOutcome | null, cardCount: number): string | undefined {
    if (this.inFlightAt !== null && (busy || cardCount > this.inFlightAt)) this.inFlightAt = null;
    if (busy || this.inFlightAt !== null || this.items.length === 0 || MessageQueue.held(lastOutcome)) return undefined;
    const [first, ...rest] = this.items;
    this.items = rest;
    this.inFlightAt = cardCount;
    return first!.text;
  }

  /** The user sent one by hand (after a held queue). */
  sendNow(id: number, busy: boolean, cardCount: number): string | undefined {
    if (busy || this.inFlightAt !== null) return undefined;
    const text = this.take(id);
    if (text !== undefined) this.inFlightAt = cardCount;
    return text;
  }

  /** A new task (a snapshot replaced the cards): card counts start over. */
  settle(): void { this.inFlightAt = null; }
}
