/**
 * What a chat message rests on, as a fact's citation when the user remembers something from it
 * (the message's context menu): a command card — the command and the output it showed; a read of
 * a file's lines — those lines; the user's own message — the line ranges it attached
 * (`@src/app.py:12-20`); the agent's answer — the `path:12-20` places it names. Judged from the
 * card's data only (never its display text), and the citation is still checked as any other: a file
 * a read would refuse, or lines that do not exist, refuse the fact.
 */
import { placeLabel, type Card } from '../../protocol';
import type { CiteInput, Evidence } from './factBook';

const RANGE = /(?:^|[\s(`'"[])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z0-9]+):(\d+)(?:-(\d+))?(?=$|[\s)`'",.;:\]])/g;

/** `src/app.py:12-20` places in text, each once, at most five. */
export function citedPlaces(text: string): CiteInput[] {
  const out: CiteInput[] = [];
  for (const m of text.matchAll(RANGE)) {
    const start = Number(m[2]);
    const c = { path: m[1]!, start, end: m[3] ? Number(m[3]) : start };
    if (!out.some((o) => o.path === c.path && o.start === c.start && o.end === c.end)) out.push(c);
    if (out.length === 5) break;
  }
  return out;
}

export function messageEvidence(card: Card): Evidence | undefined {
  if (card.kind === 'tool_call') {
    const args = (card.args ?? {}) as Record<string, unknown>;
    if (card.display?.kind === 'command' && typeof args.command === 'string' && card.result !== undefined) return { command: args.command, output: card.result };
    if (card.display?.kind === 'read' && typeof args.path === 'string' && typeof args.offset === 'number' && typeof args.limit === 'number') {
      return { lines: [{ path: args.path, start: args.offset, end: args.offset + args.limit - 1 }] };
    }
    return undefined;
  }
  if (card.kind !== 'text' || card.author === 'system') return undefined;
  const places = card.author === 'user'
    ? citedPlaces((card.attachments ?? []).filter((a) => a.kind === 'range' && !a.error).map((a) => a.label).join(' '))
    : citedPlaces(card.text);
  return places.length ? { lines: places } : undefined;
}

/** The evidence in one line, as the Remember… prompt names it. */
export function evidenceLabel(e: Evidence): string {
  return 'command' in e ? `\`${e.command}\`` : e.lines.map((c) => placeLabel(c.path, c.start, c.end)).join(', ');
}
