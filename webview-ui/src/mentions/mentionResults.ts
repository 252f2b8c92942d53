/**
 * The host's latest answer to the `@` picker's path search. A module-level value with listeners
 * (not App state): only the open picker re-renders when results arrive, not the card list.
 */
let latest: { query: string; paths: string[] } = { query: '', paths: [] };
const listeners = new Set<() => void>();

export const mentionResults = {
  get: () => latest,
  set(v: { query: string; paths: string[] }): void {
    latest = v;
    for (const l of listeners) l();
  },
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

/** Puts a mention at the end of the draft (Add Selection to Tandem), on its own word, followed by a space. */
export function withMention(draft: string, mention: string): string {
  if (!draft) return `${mention} `;
  return `${draft}${/\s$/.test(draft) ? '' : ' '}${mention} `;
}
