/**
 * The `@` mentions in a user's message: `@src/cart.ts`, `@src/cart.ts:12-20` (lines), `@src/`
 * (a folder), `@"a file with spaces.md"`, and the keywords `@problems`, `@git`, `@terminal`,
 * `@selection`. The same syntax in the chat and in the CLI's prompt. An `@` inside a word
 * (`me@example.com`) is not a mention; a trailing sentence mark is not part of the path.
 */

export const MENTION_KEYWORDS = ['problems', 'git', 'terminal', 'selection'] as const;
export type MentionKeyword = (typeof MENTION_KEYWORDS)[number];

export type Mention =
  | { kind: 'keyword'; raw: string; keyword: MentionKeyword }
  | { kind: 'path'; raw: string; path: string; lines?: { start: number; end: number } };

const TOKEN = /(^|[\s([{,;])@(?:"([^"\n]+)"|([^\s"'`,;()[\]{}<>]+))/g;

export function parseMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(TOKEN)) {
    let body = m[2] ?? m[3] ?? '';
    if (m[3] !== undefined) body = body.replace(/[.:!?]+$/, '');
    if (!body) continue;
    const keyword = MENTION_KEYWORDS.find((k) => k === body.toLowerCase());
    let mention: Mention;
    if (keyword) {
      mention = { kind: 'keyword', raw: body, keyword };
    } else {
      const range = /^(.*?):(\d+)(?:-(\d+))?$/.exec(body);
      if (range && range[1]) {
        const start = Number(range[2]);
        const end = range[3] ? Number(range[3]) : start;
        mention = { kind: 'path', raw: body, path: range[1], lines: { start: Math.min(start, end), end: Math.max(start, end) } };
      } else {
        mention = { kind: 'path', raw: body, path: body };
      }
    }
    if (seen.has(mention.raw)) continue;
    seen.add(mention.raw);
    out.push(mention);
  }
  return out;
}

/** Whether a path mention looks like a path (so a missing one is an error, while `@john` is just text). */
export function looksLikePath(p: string): boolean {
  return p.includes('/') || p.includes('.') || p.includes('\\');
}
