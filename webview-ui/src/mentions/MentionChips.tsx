/**
 * The mentions in the message being typed, as chips under the input: what will be attached when
 * it is sent. ✕ takes a mention out of the text.
 */
import { looksLikePath, parseMentions } from '../../../src/protocol/mentions';

export function MentionChips({ draft, onDraft }: { draft: string; onDraft(t: string): void }) {
  // A word being typed (`@car`) is not a mention yet: only keywords and what looks like a path.
  const mentions = parseMentions(draft).filter((m) => m.kind === 'keyword' || looksLikePath(m.path));
  if (mentions.length === 0) return null;
  const remove = (raw: string): void => {
    const written = /\s/.test(raw) ? `@"${raw}"` : `@${raw}`;
    onDraft(draft.split(written).join('').replace(/ {2,}/g, ' ').trimStart());
  };
  return (
    <div class="mention-chips" aria-label="Attached to this message">
      {mentions.map((m) => (
        <span key={m.raw} class="chip mention-chip">
          @{m.raw}
          <button type="button" class="icon" aria-label={`Remove @${m.raw}`} title="Remove" onClick={() => remove(m.raw)}>✕</button>
        </span>
      ))}
    </div>
  );
}
