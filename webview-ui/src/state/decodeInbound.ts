/**
 * Turns whatever arrived through `postMessage` into typed items. The host may post one message or
 * an array of them (batched per animation frame). Nothing here throws: a payload that does not
 * parse becomes an `invalid` item that the chat shows as a plain-text card.
 */
import { z } from 'zod';
import { Card, HostEvent, HostUiMessage, RoleId } from '../../../src/protocol';
import type { ChatCard, RawCard } from './localCards';

/**
 * A snapshot's envelope; its cards are validated one by one, lazily (see `lazyCard`), so opening a
 * 10,000-card task validates the ~20 cards on screen, not all 10,000, before the first paint.
 */
const SnapshotEnvelope = z.object({
  type: z.literal('snapshot'),
  seq: z.number().int().min(0),
  role: RoleId,
  task_id: z.string().optional(),
  cards: z.array(z.unknown()),
});

/** Cards that passed only the cheap structural check; `validated` must see them before any use. */
const unvalidated = new WeakSet<object>();
const validatedCache = new WeakMap<object, ChatCard>();

/** Cheap check now (an object with a string id and kind), full zod validation on first use. */
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
    validatedCache.set(card, v);
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

function issueText(err: { issues?: Array<{ path?: PropertyKey[]; message?: string }> } | undefined): string {
  const issues = err?.issues ?? [];
  if (issues.length === 0) return 'unrecognised message';
  return issues.slice(0, 3).map((i) => `${(i.path ?? []).map(String).join('.') || '(root)'}: ${i.message ?? 'invalid'}`).join('; ');
}

export function rawCard(data: unknown, error: string, id?: unknown): RawCard {
  const ts = Date.now();
  return { kind: 'raw', id: typeof id === 'string' && id ? id : `raw-${ts}-${++rawCounter}`, text: describePayload(data), error, ts };
}

/** One card, or a raw card in its place: one bad card must not lose a whole 10,000-card snapshot. */
export function decodeCard(data: unknown): ChatCard {
  const r = Card.safeParse(data);
  if (r.success) return r.data;
  const rec = data as { id?: unknown; kind?: unknown } | null;
  const known = ['text', 'plan', 'question', 'tool_call', 'error', 'usage', 'agent_state'];
  const why = rec && typeof rec.kind === 'string' && !known.includes(rec.kind)
    ? `unknown card kind "${rec.kind.slice(0, 40)}"`
    : issueText(r.error);
  return rawCard(data, why, rec?.id);
}

function asRecord(x: unknown): Record<string, unknown> | null {
  return x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}

function decodeOne(data: unknown): Inbound {
  const rec = asRecord(data);
  const type = rec?.type;
  if (typeof type === 'string' && UI_TYPES.has(type)) {
    const r = HostUiMessage.safeParse(data);
    return r.success ? { kind: 'ui', msg: r.data } : { kind: 'invalid', card: rawCard(data, issueText(r.error)) };
  }
  if (type === 'snapshot') {
    const env = SnapshotEnvelope.safeParse(data);
    if (env.success) {
      const { seq, role, task_id, cards } = env.data;
      // Typed as Card[]: the store accepts raw and not-yet-validated cards wherever cards go.
      return { kind: 'event', event: { type: 'snapshot', seq, role, task_id, cards: cards.map(lazyCard) as Card[] } };
    }
  }
  const r = HostEvent.safeParse(data);
  if (r.success) return { kind: 'event', event: r.data };
  // Salvage what can be salvaged so a single bad card degrades to one plain-text card.
  const seq = typeof rec?.seq === 'number' && Number.isInteger(rec.seq) && rec.seq >= 0 ? rec.seq : undefined;
  if (rec && type === 'card_added' && seq !== undefined) {
    return { kind: 'event', event: { type: 'card_added', seq, card: decodeCard(rec.card) as Card } };
  }
  return { kind: 'invalid', card: rawCard(data, issueText(r.error)), seq };
}

/** Host → webview UI messages (not agent events); each is validated with `HostUiMessage`. */
const UI_TYPES = new Set<string>(['connection_result', 'setup_needed', 'setup_done', 'focus_input', 'prefill', 'send_deferred', 'recent_tasks', 'task_unavailable', 'read_only', 'mention_results', 'insert_mention', 'allow_list', 'models', 'context_meter'] satisfies HostUiMessage['type'][]);

export function decodeInbound(data: unknown): Inbound[] {
  return Array.isArray(data) ? data.map(decodeOne) : [decodeOne(data)];
}
