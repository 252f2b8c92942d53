import { applyHostEvent, emptyHostView, type Card, type CardTable, type HostEvent, type HostView, type RoleId } from '../../protocol';
import type { PlanProvenance } from '../plans/planRecord';
import { costOf, type Price } from '../cost/priceTable';
import type { UsageTotals } from '../cost/usageMeter';
import type { LogRecord } from './format';
import { withLegacyNoteKind } from './legacyNotes';

/**
 * A task's cards folded from events (live, by the protocol's `applyHostEvent`, as the chat folds
 * them) or from log records (on load). Cards are never mutated in place, so the recorder can keep
 * the last-written version of each by reference.
 */
export class TaskState implements CardTable<Card> {
  readonly order: string[] = [];
  readonly byId = new Map<string, Card>();
  readonly provenance = new Map<string, PlanProvenance>();
  private readonly view: HostView<Card> = emptyHostView<Card>(this);
  workspace?: string;
  created?: number;

  /** Running totals over usage cards, so the meta written at each turn end costs O(1), not O(cards). */
  private readonly modelSet = new Set<string>();
  private agg = { tokens_in: 0, tokens_out: 0, cost: 0, priced: 0, unpriced: 0 };
  private firstUserText: string | undefined;
  /** A task started from a plan file (`tandem run --plan`) has no user text; its first plan card titles it. */
  private firstPlanId: string | undefined;

  private count(c: Card | undefined, sign: 1 | -1): void {
    if (c?.kind !== 'usage') return;
    this.agg.tokens_in += sign * c.tokens_in;
    this.agg.tokens_out += sign * c.tokens_out;
    const cost = c.cost_usd ?? costOf(c.model, c.tokens_in, c.tokens_out);
    if (cost === undefined) this.agg.unpriced += sign;
    else {
      this.agg.cost += sign * cost;
      this.agg.priced += sign;
    }
    if (sign > 0) this.modelSet.add(c.model);
  }

  get role(): RoleId {
    return this.view.role;
  }

  set role(role: RoleId) {
    this.view.role = role;
  }

  get(id: string): Card | undefined {
    return this.byId.get(id);
  }

  put(card: Card): void {
    this.upsert(card);
    this.touched?.push(card.id);
  }

  reset(cards: readonly Card[]): void {
    this.order.length = 0;
    this.byId.clear();
    this.modelSet.clear();
    this.agg = { tokens_in: 0, tokens_out: 0, cost: 0, priced: 0, unpriced: 0 };
    this.firstUserText = undefined;
    this.firstPlanId = undefined;
    for (const c of cards) this.upsert(c);
  }

  upsert(card: Card): void {
    const old = this.byId.get(card.id);
    if (!old) this.order.push(card.id);
    this.count(old, -1);
    this.byId.set(card.id, card);
    this.count(card, 1);
    if (this.firstUserText === undefined && card.kind === 'text' && card.author === 'user') this.firstUserText = card.text;
    if (this.firstPlanId === undefined && card.kind === 'plan') this.firstPlanId = card.id;
  }

  /** Ids of the cards put while one event is folded (a turn's end may settle several). */
  private touched: string[] | undefined;

  /** Folds a HostEvent; returns the ids of the cards it changed. */
  applyEvent(e: HostEvent): string[] {
    const touched: string[] = [];
    this.touched = touched;
    try {
      applyHostEvent(this.view, e);
    } finally {
      this.touched = undefined;
    }
    return touched;
  }

  /** Folds a log record; throws on a record that makes no sense (the loader skips it). */
  applyRecord(r: LogRecord): void {
    switch (r.k) {
      case 'add':
        this.upsert(withLegacyNoteKind(r.card));
        break;
      case 'set': {
        const c = this.byId.get(r.id);
        if (!c) throw new Error(`set for unknown card ${r.id}`);
        this.upsert({ ...c, ...r.f } as Card);
        break;
      }
      case 'app': {
        const c = this.byId.get(r.id) as Record<string, unknown> | undefined;
        if (!c) throw new Error(`append for unknown card ${r.id}`);
        this.upsert({ ...c, [r.f]: String(c[r.f] ?? '') + r.s } as unknown as Card);
        break;
      }
      case 'prov':
        this.provenance.set(r.id, r.p);
        break;
      case 'meta':
        if (r.m.role) this.role = r.m.role;
        if (r.m.workspace) this.workspace = r.m.workspace;
        if (r.m.created) this.created = r.m.created;
        break;
    }
  }

  cards(): Card[] {
    return this.order.map((id) => this.byId.get(id)!).filter(Boolean);
  }

  /** Title from the first user request, else from the plan the task started with; the first line, shortened. */
  title(): string {
    if (this.firstUserText === undefined) {
      const c = this.firstPlanId === undefined ? undefined : this.byId.get(this.firstPlanId);
      if (c?.kind === 'plan' && c.plan) {
        // `executing` is only true while it runs; step states outlast it (and compaction).
        const executed = c.executing || Object.values(c.step_states).some((st) => st !== 'pending');
        return shortLine(`${executed ? 'Execute plan' : 'Plan'}: ${c.plan.goal}`);
      }
      return '(no request yet)';
    }
    return shortLine(this.firstUserText) || '(empty request)';
  }

  models(): string[] {
    return [...this.modelSet];
  }

  /**
   * Totals from the usage cards. A card without a cost is priced from the table; with `prices`
   * overrides given, those cards are priced again from scratch (rare: the loop sets `cost_usd`).
   */
  usage(prices?: Record<string, Price>): UsageTotals {
    if (!prices || this.agg.unpriced === 0) {
      return { tokens_in: this.agg.tokens_in, tokens_out: this.agg.tokens_out, ...(this.agg.priced ? { cost_usd: this.agg.cost } : {}), unpriced: this.agg.unpriced };
    }
    const t: UsageTotals = { tokens_in: 0, tokens_out: 0, unpriced: 0 };
    for (const id of this.order) {
      const c = this.byId.get(id);
      if (c?.kind !== 'usage') continue;
      t.tokens_in += c.tokens_in;
      t.tokens_out += c.tokens_out;
      const cost = c.cost_usd ?? costOf(c.model, c.tokens_in, c.tokens_out, prices);
      if (cost === undefined) t.unpriced = (t.unpriced ?? 0) + 1;
      else t.cost_usd = (t.cost_usd ?? 0) + cost;
    }
    return t;
  }

  firstTs(): number | undefined {
    const c = this.byId.get(this.order[0] ?? '');
    return c?.ts;
  }
}

/** The records that turn `before` (as last written) into `after`; [] when nothing changed. */
export function diffCard(before: Card | undefined, after: Card): LogRecord[] {
  if (!before) return [{ k: 'add', card: after }];
  if (before === after) return [];
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const out: LogRecord[] = [];
  const set: Record<string, unknown> = {};
  let anySet = false;
  for (const key of Object.keys(a)) {
    const nv = a[key];
    const ov = b[key];
    if (nv === ov) continue;
    if (typeof nv === 'string' && typeof ov === 'string' && nv.startsWith(ov)) {
      out.push({ k: 'app', id: after.id, f: key, s: nv.slice(ov.length) });
      continue;
    }
    if (typeof nv === 'object' && nv !== null && JSON.stringify(nv) === JSON.stringify(ov)) continue;
    set[key] = nv;
    anySet = true;
  }
  // Fields are never removed from a card (patches add or replace), so removals need no record.
  if (anySet) out.unshift({ k: 'set', id: after.id, f: set });
  return out;
}

function shortLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
