/**
 * The setup card's first suggestion (sent with the connection test's model list) of a model per role, from the endpoint's list: never "the
 * first listed for everyone". The Planner and the Reviewer get the strongest-looking model (the
 * most parameters, else a "large"/"pro" name), the Actor a coding model when one is listed, else
 * the same strongest one. Models that cannot chat (embeddings, speech, images) are never picked.
 * Names only: it is a suggestion the card shows, and the user changes any of them.
 */
const NOT_CHAT = /embed|whisper|tts|dall-e|moderation|rerank|transcribe|image|audio|vision-only/i;
const CODER = /coder|codestral|devstral|code/i;

/** Bigger is stronger: billions of parameters when the name says, else words that mean size. */
export function strength(model: string): number {
  const b = /(\d+(?:\.\d+)?)\s*b(?![a-z])/i.exec(model.replace(/[-_:]/g, ' '));
  if (b) return Number(b[1]);
  if (/opus|ultra|large|\bpro\b|-pro|gpt-5(?!-mini|-nano)|gpt-4\.1(?!-mini|-nano)|gpt-4o(?!-mini)/i.test(model)) return 500;
  if (/sonnet|medium|plus/i.test(model)) return 200;
  if (/mini|small|haiku|flash|nano|tiny|lite/i.test(model)) return 5;
  return 50;
}

function strongest(models: readonly string[]): string | undefined {
  // Ties keep the endpoint's order.
  return models.reduce<string | undefined>((best, m) => (best === undefined || strength(m) > strength(best) ? m : best), undefined);
}

/** role id → model, for the roles given (`actor` is the one that edits). */
export function suggestModels(models: readonly string[], roleIds: readonly string[]): Record<string, string> {
  const chat = models.filter((m) => !NOT_CHAT.test(m));
  const pool = chat.length ? chat : [...models];
  const top = strongest(pool);
  if (top === undefined) return {};
  const coder = strongest(pool.filter((m) => CODER.test(m)));
  return Object.fromEntries(roleIds.map((id) => [id, id === 'actor' && coder ? coder : top]));
}
