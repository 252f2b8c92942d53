import { applyHostEvent, emptyHostView, type Card, type CardTable, type HostEvent, type HostView } from '../../protocol';

/**
 * The cards as the webview would see them, rebuilt from the very deltas that are emitted (folded
 * by the same `applyHostEvent` as the webview's store), so a snapshot can never disagree with the
 * stream a live receiver got.
 */
export class CardStore implements CardTable<Card> {
  private readonly order: string[] = [];
  private readonly byId = new Map<string, Card>();
  readonly view: HostView<Card> = emptyHostView<Card>(this);

  apply(event: HostEvent): void {
    applyHostEvent(this.view, event);
  }

  get(id: string): Card | undefined {
    return this.byId.get(id);
  }

  put(card: Card): void {
    if (!this.byId.has(card.id)) this.order.push(card.id);
    this.byId.set(card.id, card);
  }

  reset(cards: readonly Card[]): void {
    this.order.length = 0;
    this.byId.clear();
    for (const c of cards) this.put(c);
  }

  all(): Card[] {
    return this.order.map((id) => this.byId.get(id)!).filter(Boolean);
  }

  get size(): number {
    return this.order.length;
  }
}
