import type { ChatCard } from './localCards';
import { isFolded } from './foldedCards';

/** How a run's line counts its calls: by the kind each tool declares (src/protocol/toolDisplay.ts). */
type Counted = 'read' | 'list' | 'find' | 'lookup' | 'other';
const COUNTED = new Set<string>(['read', 'list', 'find', 'lookup']);

/** A finished call whose tool folds it into a run with its neighbours: how it counts; else undefined. Read defensively. */
function runMember(c: Record<string, unknown>): Counted | undefined {
  if (c.kind !== 'tool_call' || (c.status !== 'done' && c.status !== 'error')) return undefined;
  const d = c.display as { kind?: unknown; fold?: unknown } | undefined;
  if (!d || typeof d !== 'object' || d.fold !== 'run') return undefined;
  return typeof d.kind === 'string' && COUNTED.has(d.kind) ? (d.kind as Counted) : 'other';
}

export interface CardGroup {
  /** The first card of the run: it stands for the run as one line. */
  leader: string;
  members: string[];
  counts: Record<Counted, number>;
  failed: number;
}

/**
 * Runs of two or more finished calls whose tools fold them into a run (the looking-only ones: their
 * display says `fold: 'run'`) with nothing between them but folded cards (routine usage lines):
 * each becomes one line ("Read 4 files, searched 1 time"), expandable to its
 * cards. A call still running or waiting ends the run, so what is in flight is always in view.
 * Read defensively: snapshot cards may not be validated yet.
 */
export function cardGroups(cards: readonly ChatCard[]): Map<string, CardGroup> {
  const byCard = new Map<string, CardGroup>();
  let run: ChatCard[] = [];
  const close = (): void => {
    if (run.length >= 2) {
      const g: CardGroup = { leader: run[0]!.id, members: run.map((c) => c.id), counts: { read: 0, list: 0, find: 0, lookup: 0, other: 0 }, failed: 0 };
      for (const c of run) {
        const r = c as unknown as Record<string, unknown>;
        g.counts[runMember(r)!]++;
        if (r.status === 'error') g.failed++;
      }
      for (const id of g.members) byCard.set(id, g);
    }
    run = [];
  };
  for (const card of cards) {
    if (runMember(card as unknown as Record<string, unknown>)) {
      run.push(card);
      continue;
    }
    if (isFolded(card)) continue;
    close();
  }
  close();
  return byCard;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Read 4 files, listed 1 folder, searched 2 times" (and "· 1 failed"). */
export function groupSummary(g: CardGroup): string {
  const parts: string[] = [];
  if (g.counts.read) parts.push(`read ${count(g.counts.read, 'file', 'files')}`);
  if (g.counts.list) parts.push(`listed ${count(g.counts.list, 'folder', 'folders')}`);
  if (g.counts.find) parts.push(`searched ${count(g.counts.find, 'time', 'times')}`);
  if (g.counts.lookup) parts.push(`looked up ${count(g.counts.lookup, 'symbol', 'symbols')}`);
  if (g.counts.other) parts.push(`called ${count(g.counts.other, 'tool', 'tools')}`);
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${g.failed ? ` · ${g.failed} failed` : ''}`;
}
