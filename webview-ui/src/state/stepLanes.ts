import type { ChatCard } from './localCards';

/**
 * A plan step's lane header: a row of the chat's own (never from the host) that stands above the
 * cards one step's run added and folds them. Its id is the lane's key.
 */
export interface LaneCard {
  kind: 'lane';
  id: string;
  step_number: number;
  /** Whether its cards are shown under it. */
  open: boolean;
  /** The step's action and state, as the latest plan card says them. */
  action?: string;
  state: string;
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
 * (Run again, Continue from step k) gets a lane of its own.
 */
export function laneRows(cards: readonly ChatCard[], closed: ReadonlySet<string>): LaneRows {
  const steps = latestSteps(cards);
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
      const st = steps.get(n);
      seg = { lane: { kind: 'lane', id: key, step_number: n, open: !closed.has(key), action: st?.action, state: st?.state ?? 'pending', ts: c.ts }, cards: [] };
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
    rows.push(s.lane);
    if (s.lane.open) rows.push(...s.cards);
  }
  return { rows, indexOf: indexer(rows) };
}

/** Each step's action and state on the latest plan card (read defensively: snapshot cards may not be validated yet). */
function latestSteps(cards: readonly ChatCard[]): Map<number, { action: string; state: string }> {
  const out = new Map<number, { action: string; state: string }>();
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i] as unknown as { kind: string; plan?: { steps?: { step_number?: unknown; action?: unknown }[] } | null; step_states?: Record<string, string> };
    if (c.kind !== 'plan' || !Array.isArray(c.plan?.steps)) continue;
    for (const st of c.plan.steps) if (typeof st.step_number === 'number' && typeof st.action === 'string') out.set(st.step_number, { action: st.action, state: c.step_states?.[String(st.step_number)] ?? 'pending' });
    break;
  }
  return out;
}

function indexer(rows: readonly { id: string }[]): (id: string) => number {
  const index = new Map(rows.map((r, i) => [r.id, i]));
  return (id) => index.get(id) ?? -1;
}
