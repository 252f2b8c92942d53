/**
 * Which error card offers Retry lives in the store (only the latest failed turn can be retried);
 * the error card reads it through this small indirection so it needs no store prop.
 */
let lookup: (cardId: string) => boolean = () => true;

export function setRetryOfferLookup(fn: (cardId: string) => boolean): void {
  lookup = fn;
}

export function retryOffered(cardId: string): boolean {
  return lookup(cardId);
}
