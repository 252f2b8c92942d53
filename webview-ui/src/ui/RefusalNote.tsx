import { visibleBlock } from './visibleText';

/**
 * Why a click was refused, right by the button that was clicked (the chat's error card keeps the
 * whole record, with the diffs); shown until the user writes again or a revert succeeds.
 */
export function RefusalNote({ text }: { text: string | undefined }) {
  if (!text) return null;
  // The refusal's pointer to "this card's details" is about the error card, not this note.
  const here = text.replace(/\nWhat changed since the agent's change: see the diff in this card's details\.$/, "\nThe diff of what changed is on the error card at the end of the chat.");
  return <div class="refusal" role="alert">{visibleBlock(here)}</div>;
}
