import type { Card, HostEvent } from '../../protocol';

/**
 * The cards as the webview would see them, rebuilt from the very deltas that are emitted, so a
 * snapshot can never disagree with the stream a live receiver got.
 */
export class CardStore {
  private readonly order: string[] = [];
  private readonly byId = new Map<string, Card>();

  apply(event: HostEvent): void {
    switch (event.type) {
      case 'card_added':
        if (!this.byId.has(event.card.id)) this.order.push(event.card.id);
        this.byId.set(event.card.id, { ...event.card } as Card);
        break;
      case 'card_patched': {
        const card = this.byId.get(event.id);
        if (card) this.byId.set(event.id, { ...card, ...event.patch } as Card);
        break;
      }
      case 'text_appended': {
        const card = this.byId.get(event.id);
        if (card && card.kind === 'text') this.byId.set(event.id, { ...card, text: card.text + event.text });
        break;
      }
      case 'snapshot':
        this.order.length = 0;
        this.byId.clear();
        for (const c of event.cards) this.apply({ type: 'card_added', seq: event.seq, card: c });
        break;
      default:
        break;
    }
  }

  get(id: string): Card | undefined {
    return this.byId.get(id);
  }

  all(): Card[] {
    return this.order.map((id) => this.byId.get(id)!).filter(Boolean);
  }

  get size(): number {
    return this.order.length;
  }
}
