import type { Card } from '../../protocol';

/**
 * Tasks saved before system notes carried their kind in a field said it in the card id (`ctx-…`
 * for notes about the context, `…-retry-wait` for retry waits, `rv-…` for reverts). Read from
 * disk, such a card gets the field, so a resumed old task replays to the model what a new one
 * would. Only the loader calls this: nothing new is ever written with meaning in an id.
 */
export function withLegacyNoteKind(card: Card): Card {
  if (card.kind !== 'text' || card.author !== 'system' || card.note !== undefined) return card;
  if (card.id.startsWith('ctx-')) return { ...card, note: 'context' };
  if (card.id.endsWith('-retry-wait')) return { ...card, note: 'retry' };
  if (card.id.startsWith('rv-')) return { ...card, note: 'revert' };
  return card;
}
