/**
 * Turns whatever arrived through `postMessage` into typed items. The host may post one message or
 * an array of them (batched per animation frame). Nothing here throws: a payload that does not
 * parse becomes an `invalid` item that the chat shows as a plain-text card.
 *
 * No zod here: host → webview is not a trust boundary (the host is our own code), so messages are
 * checked against the protocol's shapes as plain data (src/protocol/wireShapes.ts, generated from
 * the zod schemas), which guards the fields the views and the store read for a fraction of a zod
 * runtime's weight. Snapshot cards are checked lazily, on first use, so opening a 10,000-card task
 * checks the ~20 cards on screen before the first paint.
 */
import type { Card, HostEvent, HostUiMessage } from '../../../src/protocol';
import { shapeProblem } from '../../../src/protocol/wireShape';
import { CARD_SHAPES, EVENT_SHAPES, UI_SHAPES } from '../../../src/protocol/wireShapes';
import type { ChatCard, RawCard } from './localCards';

/** Cards that passed only the cheap structural check; `validated` must see them before any use. */
const unvalidated = new WeakSet<object>();
const validatedCache = new WeakMap<object, ChatCard>();

/** Cheap check now (an object with a string id and kind), its whole shape on first use. */
export function lazyCard(data: unknown): ChatCard {
  const rec = data as { id?: unknown; kind?: unknown } | null;
  if (rec && typeof rec === 'object' && !Array.isArray(rec) && typeof rec.id === 'string' && rec.id !== '' && typeof rec.kind === 'string') {
    unvalidated.add(rec);
    return rec as ChatCard;
  }
  return decodeCard(data);
}

/**
 * The card itself when it is valid, else a plain-text card in its place. Every view and every
 * store update goes through this before reading a card's fields.
 */
export function validated(card: ChatCard): ChatCard {
  if (!unvalidated.has(card)) return card;
  let v = validatedCache.get(card);
  if (!v) {
    v = decodeCard(card);
    if (v === card) unvalidated.delete(card);
    else validatedCache.set(card, v);
  }
  return v;
}

export function isValidated(card: ChatCard): boolean {
  return !unvalidated.has(card);
}

export type Inbound =
  | { kind: 'event'; event: HostEvent }
  | { kind: 'ui'; msg: HostUiMessage }
  | { kind: 'invalid'; card: RawCard; seq?: number };

let rawCounter = 0;

export function describePayload(data: unknown, max = 4000): string {
  let s: string;
  try {
    s = typeof data === 'string' ? data : JSON.stringify(data, null, 2) ?? String(data);
  } catch {
    s = String(data);
  }
  return s.length > max ? `${s.slice(0, max)}\n… (${s.length - max} more characters)` : s;
}

export function rawCard(data: unknown, error: string, id?: unknown): RawCard {
  const ts = Date.now();
  return { kind: 'raw', id: typeof id === 'string' && id ? id : `raw-${ts}-${++rawCounter}`, text: describePayload(data), error, ts };
}

/** One card, or a raw card in its place: one bad card must not lose a whole 10,000-card snapshot. */
export function decodeCard(data: unknown): ChatCard {
  const rec = asRecord(data);
  const kind = rec?.kind;
  const why = !rec ? 'a card must be an object'
    : typeof kind !== 'string' || !Object.hasOwn(CARD_SHAPES, kind) ? `unknown card kind "${String(kind).slice(0, 40)}"`
    : shapeProblem(rec, CARD_SHAPES[kind]!);
  return why === undefined ? (rec as ChatCard) : rawCard(data, why, rec?.id);
}

function asRecord(x: unknown): Record<string, unknown> | null {
  return x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}

function decodeOne(data: unknown): Inbound {
  const rec = asRecord(data);
  const type = rec?.type;
  const ui = typeof type === 'string' && Object.hasOwn(UI_SHAPES, type);
  const shape = typeof type === 'string' ? (ui ? UI_SHAPES[type] : Object.hasOwn(EVENT_SHAPES, type) ? EVENT_SHAPES[type] : undefined) : undefined;
  // The store relies on sequence numbers being whole and ≥ 0 (gaps, duplicates): checked here.
  const seq = typeof rec?.seq === 'number' && Number.isInteger(rec.seq) && rec.seq >= 0 ? rec.seq : undefined;
  const why = !rec ? 'a message must be an object'
    : !shape ? `unknown message type "${String(type).slice(0, 40)}"`
    : shapeProblem(rec, shape) ?? (!ui && seq === undefined ? 'seq: expected a whole number ≥ 0' : undefined);
  if (why !== undefined) return { kind: 'invalid', card: rawCard(data, why), seq };
  if (ui) return { kind: 'ui', msg: rec as HostUiMessage };
  const ev = rec as HostEvent;
  // Typed as Card: the store accepts raw and not-yet-checked cards wherever cards go.
  if (ev.type === 'snapshot') return { kind: 'event', event: { ...ev, cards: ev.cards.map(lazyCard) as Card[] } };
  if (ev.type === 'card_added') return { kind: 'event', event: { ...ev, card: decodeCard(ev.card) as Card } };
  return { kind: 'event', event: ev };
}

export function decodeInbound(data: unknown): Inbound[] {
  return Array.isArray(data) ? data.map(decodeOne) : [decodeOne(data)];
}
