/**
 * The chat log: renders only the cards near the viewport, measures
 * each rendered row with one ResizeObserver, and sticks to the bottom while content streams in
 * unless the user has scrolled up. Rows above the viewport that change height shift the scroll
 * position by the same amount, so what the user is reading does not jump.
 */
import { Component, type ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { ChatCard } from '../state/localCards';
import { HeightModel } from '../state/heightModel';
import { CardView } from './cards/CardView';
import { LaneHeader } from './cards/LaneHeader';
import type { LaneCard } from '../state/stepLanes';
import { copyCodeBlock } from './copyCode';
import { openPathLink } from '../mentions/pathLinks';
import { useView } from './storeContext';

const GAP = 8;
const OVERSCAN = 500;
const STICK_SLACK = 32;

export interface ScrollMemory { scrollTop?: number; stick?: boolean; anchorId?: string; anchorOffset?: number }

/** A row of the list: a card, or a plan step's lane header (state/stepLanes.ts). */
export type ListRow = ChatCard | LaneCard;

interface Props {
  cards: readonly ListRow[];
  version: number;
  /** Scroll position to restore once, when the first cards arrive after a reload. */
  restore?: ScrollMemory;
  onScrollMemory(m: ScrollMemory): void;
  /** O(1) position of a card by id (the store keeps an index). */
  indexOf(id: string): number;
  /** Shown under the hint while there are no cards (the recent tasks). */
  emptyExtra?: ComponentChildren;
}

/**
 * One card's row: re-rendered by the list only when its card or position changed. What a card reads
 * beyond itself (a turn running, the draft, the allow-list…) it selects from the view store, and
 * that re-renders the card alone.
 */
class Row extends Component<{ card: ListRow; top: number; observe(el: Element | null, id: string): void; children?: ComponentChildren }> {
  private el: HTMLDivElement | null = null;
  override shouldComponentUpdate(next: Row['props']): boolean {
    return next.card !== this.props.card || next.top !== this.props.top;
  }
  override componentWillUnmount(): void {
    this.props.observe(null, this.props.card.id);
  }
  private setRef = (el: HTMLDivElement | null): void => {
    if (el && el !== this.el) this.props.observe(el, this.props.card.id);
    this.el = el;
  };
  override render() {
    const { card, top } = this.props;
    return (
      <div class={(card as { step?: number }).step ? 'row in-lane' : 'row'} ref={this.setRef} data-row-id={card.id} style={{ transform: `translateY(${top}px)` }}>
        {card.kind === 'lane' ? <LaneHeader lane={card} /> : <CardView card={card} />}
      </div>
    );
  }
}

export function VirtualCardList({ cards, version, restore, onScrollMemory, indexOf, emptyExtra }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const model = useRef(new HeightModel()).current;
  const stick = useRef(restore?.stick ?? true);
  // Where the list last was, by its own scroll event or its own move: a render that finds it higher
  // up knows the user scrolled before the event came (see the sticking effect below).
  const seenTop = useRef(0);
  const restored = useRef(!restore || restore.stick !== false);
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const [view, setView] = useState({ top: 0, height: 600 });
  const cardsRef = useRef(cards);
  cardsRef.current = cards;
  const indexOfRef = useRef(indexOf);
  indexOfRef.current = indexOf;
  const rowsById = useRef(new Map<string, Element>());
  const observer = useRef<ResizeObserver | null>(null);

  if (!observer.current && typeof ResizeObserver !== 'undefined') {
    observer.current = new ResizeObserver((entries) => {
      const el = scroller.current;
      let changed = false;
      let shift = 0;
      for (const e of entries) {
        const id = (e.target as HTMLElement).dataset.rowId;
        if (!id) continue;
        const list = cardsRef.current;
        const idx = indexOfRef.current(id);
        if (idx < 0) continue;
        const h = e.borderBoxSize?.[0]?.blockSize ?? (e.target as HTMLElement).offsetHeight;
        const oldTop = model.offsets[idx] ?? 0;
        const delta = model.setMeasured(id, h, list[idx]! as ChatCard);
        if (delta !== 0) {
          changed = true;
          // A row starting above the view pushes what is being read: move the view with it.
          if (el && !stick.current && oldTop < el.scrollTop) shift += delta;
        }
      }
      if (changed) {
        if (el && shift !== 0) el.scrollTop += shift;
        rerender(0);
      }
    });
  }

  const observe = (el: Element | null, id: string): void => {
    const ro = observer.current;
    const old = rowsById.current.get(id);
    if (old && old !== el) {
      ro?.unobserve(old);
      rowsById.current.delete(id);
    }
    if (el) {
      rowsById.current.set(id, el);
      ro?.observe(el);
    }
  };

  useEffect(() => {
    const el = scroller.current!;
    const size = new ResizeObserver(() => setView({ top: el.scrollTop, height: el.clientHeight }));
    size.observe(el);
    return () => {
      size.disconnect();
      observer.current?.disconnect();
    };
  }, []);

  // A lane header is sized like any unknown row until measured.
  model.layout(cards as readonly ChatCard[], GAP);
  const n = cards.length;
  // The user's own new message brings the view back to the latest, even if they had scrolled up
  // (reading an old card, or a click that scrolled one into view): they want to see the answer.
  // The answer's first cards often arrive in the same frame, so every card added since the last
  // render is looked at, not only the last one.
  const seen = useRef(0);
  if (n < seen.current) seen.current = 0;
  if (seen.current > 0 || restored.current) {
    for (let i = seen.current; i < n; i++) {
      const c = cards[i]!;
      if (c.kind === 'text' && c.author === 'user') { stick.current = true; break; }
    }
  }
  seen.current = n;
  const [first, last] = model.visibleRange(view.top, view.height, OVERSCAN, n);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (!restored.current && n > 0) {
      restored.current = true;
      // Heights are estimates again after a reload, so restore by card, not by pixel.
      const ai = restore?.anchorId ? indexOf(restore.anchorId) : -1;
      el.scrollTop = ai >= 0 ? model.offsets[ai]! - (restore?.anchorOffset ?? 0) : restore?.scrollTop ?? 0;
      seenTop.current = el.scrollTop;
      setView({ top: el.scrollTop, height: el.clientHeight });
      return;
    }
    // A scroll event comes with the next frame; when frames come late (a busy machine), the inbound
    // queue's timer can render first. A list that moved up since it was last seen, and is no longer at
    // the end, was scrolled by the user: it stops following the end instead of pulling them back.
    // (Content that shrinks moves it up too, but leaves it at the end.)
    if (stick.current && el.scrollTop < seenTop.current - 1 && el.scrollHeight - el.scrollTop - el.clientHeight >= STICK_SLACK) stick.current = false;
    if (stick.current && Math.abs(el.scrollHeight - el.clientHeight - el.scrollTop) > 1) {
      el.scrollTop = el.scrollHeight;
      if (el.scrollTop !== view.top) setView({ top: el.scrollTop, height: el.clientHeight });
    }
    seenTop.current = el.scrollTop;
  });

  const frame = useRef(0);
  const onScroll = (): void => {
    const el = scroller.current!;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_SLACK;
    seenTop.current = el.scrollTop;
    // The anchor is the first card whose top is in view: rows above it may be re-measured (and
    // the scroll position compensated), which keeps exactly this card in place.
    const list = cardsRef.current;
    let ai = model.indexAt(el.scrollTop, list.length);
    if (model.offsets[ai]! < el.scrollTop && ai + 1 < list.length) ai++;
    const anchor = list[ai];
    onScrollMemory({
      scrollTop: Math.round(el.scrollTop),
      stick: stick.current,
      anchorId: anchor?.id,
      anchorOffset: anchor ? Math.round(model.offsets[ai]! - el.scrollTop) : undefined,
    });
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setView({ top: el.scrollTop, height: el.clientHeight });
    });
  };

  // "Show" on a waiting decision: the card's row at the top of the view, no longer stuck to the end.
  // Applied once its row is in the list (a folded lane opens in the same update, or just after).
  const reveal = useView((s) => s.reveal);
  const revealed = useRef(0);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !reveal || revealed.current === reveal.tick) return;
    const at = indexOf(reveal.id);
    if (at < 0) return;
    revealed.current = reveal.tick;
    stick.current = false;
    el.scrollTop = Math.max(0, model.offsets[at]! - GAP);
    setView({ top: el.scrollTop, height: el.clientHeight });
  });

  const jumpToLatest = (): void => {
    const el = scroller.current!;
    stick.current = true;
    el.scrollTop = el.scrollHeight;
  };

  const rows = [];
  for (let i = first; i <= last; i++) {
    const card = cards[i]!;
    rows.push(<Row key={card.id} card={card} top={model.offsets[i]!} observe={observe} />);
  }

  return (
    <div class="list-wrap">
      <div
        class="list"
        ref={scroller}
        role="log"
        aria-label="Tandem conversation"
        aria-live="polite"
        data-version={version}
        onScroll={onScroll}
        onClick={(e) => { copyCodeBlock(e); openPathLink(e); }}
      >
        <div class="list-inner" style={{ height: `${model.total}px` }}>{rows}</div>
        {n === 0 && <div class="empty">Describe a task below. The Planner reads your workspace and proposes a plan; the Actor carries it out with your approval.{emptyExtra}</div>}
      </div>
      {!stick.current && n > 0 && (
        <button type="button" class="jump" aria-label="Scroll to latest" onClick={jumpToLatest}>↓ Latest</button>
      )}
    </div>
  );
}
