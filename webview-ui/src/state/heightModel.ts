/**
 * Row geometry for the virtualised card list: measured heights where a row has been on screen,
 * estimates elsewhere, and prefix offsets to find the visible range by binary search. Pure, so
 * the range arithmetic is unit-tested without a DOM.
 */
import type { ChatCard } from './localCards';
import { isFolded } from './foldedCards';

const estimates = new WeakMap<object, number>();

/** A rough height for a card never rendered yet; good enough to size the scrollbar. */
export function estimateHeight(card: ChatCard): number {
  const hit = estimates.get(card);
  if (hit !== undefined) return hit;
  // Snapshot cards may not be validated yet (that happens on first display): read defensively.
  const c = card as unknown as Record<string, unknown>;
  const arr = (x: unknown): number => (Array.isArray(x) ? x.length : 0);
  let h: number;
  if (isFolded(card)) h = 0;
  else switch (c.kind) {
    case 'text': {
      const text = typeof c.text === 'string' ? c.text : '';
      const len = text.length;
      let lines = 0;
      for (let i = 0; i < len && i < 20_000; i++) if (text.charCodeAt(i) === 10) lines++;
      h = 36 + 20 * (lines + Math.ceil(len / 70));
      break;
    }
    case 'plan': h = c.superseded ? 44 : 160 + 56 * (arr((c.plan as { steps?: unknown } | null)?.steps) || 4); break;
    case 'plan_draft': h = 110 + 56 * arr(c.steps); break;
    case 'question': h = 140 + 20 * arr((c.question as { options?: unknown } | null)?.options); break;
    case 'tool_call': h = c.status === 'pending' ? 150 : c.error ? 110 : 58; break;
    case 'error': h = 90; break;
    case 'usage': case 'agent_state': h = 30; break;
    default: h = 80;
  }
  estimates.set(card, h);
  return h;
}

export class HeightModel {
  private measured = new Map<string, number>();
  offsets = new Float64Array(1);
  total = 0;

  /** Records a measured height; returns the change (0 when unchanged). */
  setMeasured(id: string, height: number, card: ChatCard): number {
    const old = this.measured.get(id) ?? estimateHeight(card);
    if (Math.abs(old - height) < 0.5) return 0;
    this.measured.set(id, height);
    return height - old;
  }

  heightOf(card: ChatCard): number {
    return this.measured.get(card.id) ?? estimateHeight(card);
  }

  /** O(n); n = 10,000 costs well under a millisecond, so it simply runs on every render. */
  layout(cards: readonly ChatCard[], gap: number): void {
    const n = cards.length;
    if (this.offsets.length < n + 1) this.offsets = new Float64Array(Math.max(n + 1, this.offsets.length * 2));
    let y = 0;
    for (let i = 0; i < n; i++) {
      this.offsets[i] = y;
      // A folded card takes no room, not even the gap.
      const h = this.heightOf(cards[i]!);
      y += h > 0 ? h + gap : 0;
    }
    this.offsets[n] = y;
    this.total = y;
  }

  /** Index of the row containing y (rows laid out by `layout` over `n` cards). */
  indexAt(y: number, n: number): number {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  /** [first, last] inclusive rows intersecting [top - overscan, top + height + overscan]. */
  visibleRange(top: number, height: number, overscan: number, n: number): [number, number] {
    if (n === 0) return [0, -1];
    const first = this.indexAt(Math.max(0, top - overscan), n);
    const bottom = top + height + overscan;
    let last = first;
    while (last + 1 < n && this.offsets[last + 1]! < bottom) last++;
    return [first, last];
  }

  forget(): void {
    this.measured.clear();
  }
}
