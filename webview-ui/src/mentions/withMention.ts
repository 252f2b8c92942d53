/** Puts a mention at the end of the draft (Add Selection to Tandem), on its own word, followed by a space. */
export function withMention(draft: string, mention: string): string {
  if (!draft) return `${mention} `;
  return `${draft}${/\s$/.test(draft) ? '' : ' '}${mention} `;
}
