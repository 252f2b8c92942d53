import type { ChatCard } from './localCards';
import { isFolded } from './foldedCards';

/** Tools that only look (read, list, search, look up): a run of them says little one by one. */
const LOOKING: Record<string, 'read' | 'list' | 'search' | 'lookup'> = {
  read_file: 'read',
  list_files: 'list',
  find_files: 'search',
  search: 'search',
  find_symbol: 'lookup',
  go_to_definition: 'lookup',
  find_references: 'lookup',
  document_outline: 'lookup',
  hover_type: 'lookup',
  diagnostics: 'lookup',
};

export interface CardGroup {
  /** The first card of the run: it stands for the run as one line. */
  leader: string;
  members: string[];
  counts: { read: number; list: number; search: number; lookup: number };
  failed: number;
}

/**
 * Runs of two or more finished looking-only tool calls with nothing between them but folded cards
 * (routine usage lines): each becomes one line ("Read 4 files, searched 1 time"), expandable to its
 * cards. A call still running or waiting ends the run, so what is in flight is always in view.
 * Read defensively: snapshot cards may not be validated yet.
 */
export function cardGroups(cards: readonly ChatCard[]): Map<string, CardGroup> {
  const byCard = new Map<string, CardGroup>();
  let run: ChatCard[] = [];
  const close = (): void => {
    if (run.length >= 2) {
      const g: CardGroup = { leader: run[0]!.id, members: run.map((c) => c.id), counts: { read: 0, list: 0, search: 0, lookup: 0 }, failed: 0 };
      for (const c of run) {
        const r = c as unknown as { tool: string; status: string };
        g.counts[LOOKING[r.tool]!]++;
        if (r.status === 'error') g.failed++;
      }
      for (const id of g.members) byCard.set(id, g);
    }
    run = [];
  };
  for (const card of cards) {
    const c = card as unknown as Record<string, unknown>;
    if (c.kind === 'tool_call' && typeof c.tool === 'string' && LOOKING[c.tool] && (c.status === 'done' || c.status === 'error')) {
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
  if (g.counts.search) parts.push(`searched ${count(g.counts.search, 'time', 'times')}`);
  if (g.counts.lookup) parts.push(`looked up ${count(g.counts.lookup, 'symbol', 'symbols')}`);
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${g.failed ? ` · ${g.failed} failed` : ''}`;
}
