import type { ChatCard } from './localCards';
import { laneCheckOf, type LaneCheck } from './laneCheck';

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
  /**
   * The step's check once it ran to a verdict: its card is folded into the lane, which says the
   * command and the result once (a card of its own repeated the command in its title, its command
   * box and its output).
   */
  check?: LaneCheck;
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
  const segments: (ChatCard | Segment)[] = [];
  const lanes = new Map<string, Segment>();
  let run = 0;
  for (const c of cards) {
    const n = laneOf(c);
    if (n === undefined) {
      segments.push(c);
      if (c.kind === 'summary') {
        // The run's end says why a step's check failed: its lane then says only that it failed.
        const failed = (c as { failed_step?: unknown; reason?: unknown });
        const seg = typeof failed.failed_step === 'number' && typeof failed.reason === 'string' ? lanes.get(`lane:${run}#${failed.failed_step}`) : undefined;
        if (seg) seg.reasonSaid = true;
        run++;
      }
      continue;
    }
    const key = `lane:${run}#${n}`;
    let seg = lanes.get(key);
    if (!seg) {
      const st = steps.get(n);
      seg = { lane: { kind: 'lane', id: key, step_number: n, open: !closed.has(key), action: st?.action, state: st?.state ?? 'pending', ts: c.ts }, cards: [], reasonSaid: false };
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
    const { lane, shown } = withCheck(s);
    rows.push(lane);
    if (lane.open) rows.push(...shown);
  }
  return { rows, indexOf: indexer(rows) };
}

interface Segment {
  lane: LaneCard;
  cards: ChatCard[];
  /** The run's summary says why this step's check failed. */
  reasonSaid: boolean;
}

/** The lane with its step's latest check folded in, once it ran to a verdict; the cards still shown under it. */
function withCheck(s: Segment): { lane: LaneCard; shown: readonly ChatCard[] } {
  let at = s.cards.length - 1;
  while (at >= 0 && (s.cards[at] as { check_step?: unknown }).check_step !== s.lane.step_number) at--;
  const check = at < 0 ? undefined : laneCheckOf(s.cards[at]!, s.reasonSaid);
  if (!check) return { lane: s.lane, shown: s.cards };
  return { lane: { ...s.lane, check }, shown: s.cards.filter((_, i) => i !== at) };
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
