import type { ChatCard } from './localCards';
import { isFolded } from './foldedCards';

/**
 * A plan step's lane header: a row of the chat's own (never from the host) that stands above the
 * cards one step's run added and folds them. Its id is the lane's key.
 */
export interface LaneCard {
  kind: 'lane';
  id: string;
  step_number: number;
  /** How many cards the lane shows when open (folded ones, like routine usage lines, are not counted). */
  count: number;
  /** Whether its cards are shown under it. */
  open: boolean;
  ts: number;
}

/** The plan step a card's work belongs to, if any; read defensively (snapshot cards may not be validated yet). */
export function laneOf(card: ChatCard): number | undefined {
  const s = (card as { step?: unknown }).step;
  return typeof s === 'number' && s >= 1 ? s : undefined;
}

export interface LaneRows {
  rows: readonly (ChatCard | LaneCard)[];
  indexOf(id: string): number;
}

/**
 * The chat's rows with each plan step as its own lane: a step's cards follow its header together,
 * in their order, where the step's first card came — never interleaved with another step running
 * beside it — and a closed lane shows its header alone. Cards of no step keep their place after
 * the lanes that started before them. A plan run ends with its summary card: a step of a later run
 * (Run again, Continue from step k) gets a lane of its own. Without steps, the cards as they are.
 */
export function laneRows(cards: readonly ChatCard[], closed: ReadonlySet<string>): LaneRows {
  let any = false;
  for (const c of cards) if (laneOf(c)) { any = true; break; }
  if (!any) return { rows: cards, indexOf: indexer(cards) };
  const segments: (ChatCard | { lane: LaneCard; cards: ChatCard[] })[] = [];
  const lanes = new Map<string, { lane: LaneCard; cards: ChatCard[] }>();
  let run = 0;
  for (const c of cards) {
    const n = laneOf(c);
    if (n === undefined) {
      segments.push(c);
      if (c.kind === 'summary') run++;
      continue;
    }
    const key = `lane:${run}#${n}`;
    let seg = lanes.get(key);
    if (!seg) {
      seg = { lane: { kind: 'lane', id: key, step_number: n, count: 0, open: !closed.has(key), ts: c.ts }, cards: [] };
      lanes.set(key, seg);
      segments.push(seg);
    }
    seg.cards.push(c);
  }
  const rows: (ChatCard | LaneCard)[] = [];
  for (const s of segments) {
    if (!('lane' in s)) {
      rows.push(s);
      continue;
    }
    s.lane.count = s.cards.filter((c) => !isFolded(c)).length;
    rows.push(s.lane);
    if (s.lane.open) rows.push(...s.cards);
  }
  return { rows, indexOf: indexer(rows) };
}

function indexer(rows: readonly { id: string }[]): (id: string) => number {
  let index: Map<string, number> | undefined;
  return (id) => {
    index ??= new Map(rows.map((r, i) => [r.id, i]));
    return index.get(id) ?? -1;
  };
}
