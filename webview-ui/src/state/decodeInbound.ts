/**
 * Turns whatever arrived through `postMessage` into typed items. The host may post one message or
 * an array of them (batched per animation frame). Nothing here throws: a payload that does not
 * parse becomes an `invalid` item that the chat shows as a plain-text card.
 */
import { Card, HostEvent, HostUiMessage } from '../../../src/protocol';
import type { ChatCard, RawCard } from './localCards';

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
  const id = (data as { id?: unknown } | null)?.id;
  return rawCard(data, issueText(r.error), id);
}

function asRecord(x: unknown): Record<string, unknown> | null {
  return x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}

function decodeOne(data: unknown): Inbound {
  const rec = asRecord(data);
  const type = rec?.type;
  if (type === 'connection_result' || type === 'setup_needed' || type === 'focus_input' || type === 'prefill') {
    const r = HostUiMessage.safeParse(data);
    return r.success ? { kind: 'ui', msg: r.data } : { kind: 'invalid', card: rawCard(data, issueText(r.error)) };
  }
  const r = HostEvent.safeParse(data);
  if (r.success) return { kind: 'event', event: r.data };
  // Salvage what can be salvaged so a single bad card degrades to one plain-text card.
  const seq = typeof rec?.seq === 'number' && Number.isInteger(rec.seq) && rec.seq >= 0 ? rec.seq : undefined;
  if (rec && type === 'snapshot' && Array.isArray(rec.cards) && seq !== undefined) {
    const role = rec.role === 'actor' ? 'actor' : 'planner';
    const cards = rec.cards.map(decodeCard);
    const task_id = typeof rec.task_id === 'string' ? rec.task_id : undefined;
    // Typed as Card[]: the store accepts raw cards wherever cards go.
    return { kind: 'event', event: { type: 'snapshot', seq, role, task_id, cards: cards as Card[] } };
  }
  if (rec && type === 'card_added' && seq !== undefined) {
    return { kind: 'event', event: { type: 'card_added', seq, card: decodeCard(rec.card) as Card } };
  }
  return { kind: 'invalid', card: rawCard(data, issueText(r.error)), seq };
}

export function decodeInbound(data: unknown): Inbound[] {
  return Array.isArray(data) ? data.map(decodeOne) : [decodeOne(data)];
}
