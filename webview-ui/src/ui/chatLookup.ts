import type { ChatCard } from '../state/localCards';
import type { CardGroup } from '../state/cardGroups';

/**
 * The chat's cards, the host's allow-list and the grouped runs of looking-only tool calls, for
 * cards that look beyond themselves (Edit & resend lists what comes after a message; a command
 * card says whether it is allow-listed; a grouped call folds into its run's line). App holds them;
 * cards read them through this small indirection and need no props. Rows whose answer changes are
 * re-rendered by App's extraFor.
 */
interface Lookup {
  cards(): readonly ChatCard[];
  allowList(): readonly string[];
  group(cardId: string): CardGroup | undefined;
  expanded(leaderId: string): boolean;
  toggle(leaderId: string): void;
  /** The refusal of the click `action` on `target`, while it is current. */
  refusal(action: string, target?: string): string | undefined;
}

let lookup: Lookup = { cards: () => [], allowList: () => [], group: () => undefined, expanded: () => false, toggle: () => undefined, refusal: () => undefined };

export function setChatLookup(fns: Lookup): void {
  lookup = fns;
}

export function chatCards(): readonly ChatCard[] {
  return lookup.cards();
}

export function allowListNow(): readonly string[] {
  return lookup.allowList();
}

export function groupOf(cardId: string): CardGroup | undefined {
  return lookup.group(cardId);
}

export function groupExpanded(leaderId: string): boolean {
  return lookup.expanded(leaderId);
}

export function toggleGroup(leaderId: string): void {
  lookup.toggle(leaderId);
}

export function refusalFor(action: string, target?: string): string | undefined {
  return lookup.refusal(action, target);
}
