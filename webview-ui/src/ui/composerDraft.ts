/**
 * The composer's text, for a card that sends it along (Approve / Reject of a pending change carry
 * what the user typed as feedback). App owns the draft and registers these; rows holding a pending
 * approval re-render when the draft goes from empty to not (App's extraFor).
 */
let read: () => string = () => '';
let clear: () => void = () => undefined;

export function setComposerDraftAccess(access: { read(): string; clear(): void }): void {
  read = access.read;
  clear = access.clear;
}

/** The composer's text, trimmed ('' when empty). */
export function composerDraft(): string {
  return read().trim();
}

/** The text was delivered (with a decision): the composer empties. */
export function clearComposerDraft(): void {
  clear();
}
