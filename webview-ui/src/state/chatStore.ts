/**
 * The webview's copy of the chat, built only from deltas. Pure logic, no DOM, so it is
 * unit-tested in Node. Cards are immutable: every change replaces the card object, so a memoised
 * row re-renders only when its own card changed.
 *
 * Sequence numbers: each event carries `seq`. A gap (or a delta for a card we don't have) means we
 * missed something: the store says `resync` and the bridge sends `ready {last_seq}`, to which the
 * host answers with a snapshot. Deltas keep being applied best-effort meanwhile, so a host that
 * is slow to answer never freezes the panel; the snapshot then replaces everything.
 */
import type { AgentState, CardTable, HostEvent, HostView, RoleId, RoleInfo, RoleRegistry, TokenTotals, TurnEndOutcome } from '../../../src/protocol';
import { applyHostEvent, emptyHostView } from '../../../src/protocol/applyHostEvent';
import { PRODUCT_ROLE_INFO } from '../../../src/protocol/roleRegistry';
import type { ChatCard, RawCard } from './localCards';
import { decodeCard, validated } from './decodeInbound';

export type Totals = TokenTotals;
export type TurnOutcome = TurnEndOutcome;
export type ApplyResult = 'applied' | 'duplicate' | 'resync';

/**
 * Cards in an array (the list renders by index) with an id index. Events are folded by the
 * protocol's `applyHostEvent`, the same function the host's stores use.
 */
export class ChatStore implements CardTable<ChatCard> {
  cards: ChatCard[] = [];
  private index = new Map<string, number>();
  private readonly view: HostView<ChatCard> = emptyHostView<ChatCard>(this);
  lastSeq: number | null = null;
  taskId: string | undefined;
  /** Bumped with each role change, so the view can show the same reason again. */
  roleNoticeTick = 0;
  /**
   * The error card whose Retry still means something: the latest retryable (or auth) error, until a later
   * turn ends well or the user sends something else (then Retry would only say "nothing to retry").
   */
  retryOfferId: string | null = null;
  /** True from a detected gap until the next snapshot. */
  awaitingSnapshot = false;
  /** Bumped on every change; the view re-renders when it moves. */
  version = 0;

  get role(): RoleId { return this.view.role; }
  get agentState(): AgentState { return this.view.agentState; }
  get agentDetail(): string | null { return this.view.agentDetail; }
  get turnUsage(): Totals | null { return this.view.turnUsage; }
  get taskUsage(): Totals | null { return this.view.taskUsage; }
  get lastOutcome(): TurnOutcome | null { return this.view.lastOutcome; }
  /** Why the role last changed (e.g. "stopped the run first"), shown under the header. */
  get roleNotice(): string | null { return this.view.roleNotice; }
  /** Failure reasons from step_failed, keyed `${plan_id}#${step_number}`. */
  get stepReasons(): Map<string, string> { return this.view.stepReasons; }

  /** `roles`: the role table the host runs with (the product's unless a test gives its own). */
  constructor(readonly roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO) {
    this.view.role = roles.initial.id;
  }

  /** The role in force as the header shows it; an id the table does not know shows as itself (read-only look). */
  get roleInfo(): RoleInfo {
    return this.roles.find(this.role) ?? { ...this.roles.initial, id: this.role, label: this.role, glyph: '•', tone: 'calm' };
  }

  /** The role the role control switches to: the next one in the table. */
  get nextRole(): RoleInfo {
    return this.roles.next(this.role);
  }

  get size(): number { return this.cards.length; }

  private revertibleAt = -1;
  private revertibleN = 0;
  /**
   * How many of the agent's changes in this task can still be reverted (tool cards marked
   * revertible and not yet reverted): the header offers "Revert task" only when there are some.
   * Read straight from the cards (snapshot cards unvalidated: only two booleans are looked at, and
   * the host decides what a revert really does); computed once per version.
   */
  revertibleCount(): number {
    if (this.revertibleAt === this.version) return this.revertibleN;
    let n = 0;
    for (const c of this.cards) {
      if (c.kind === 'tool_call' && c.revertible === true && c.reverted !== true) n++;
    }
    this.revertibleAt = this.version;
    this.revertibleN = n;
    return n;
  }
  /** The card, validated (snapshot cards are validated lazily, on first use). */
  get(id: string): ChatCard | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.validAt(i);
  }

  /** Validates the card at `i` in place if it came unvalidated from a snapshot. */
  private validAt(i: number): ChatCard {
    const c = this.cards[i]!;
    const v = validated(c);
    if (v !== c) this.cards[i] = v;
    return v;
  }
  indexOf(id: string): number { return this.index.get(id) ?? -1; }

  /** Applies one host event. */
  apply(ev: HostEvent): ApplyResult {
    if (ev.type === 'snapshot') {
      // Another task (New Task, Resume): the last one's outcome and totals are not this one's.
      if (ev.task_id !== this.taskId) this.view.lastOutcome = this.view.turnUsage = this.view.taskUsage = null;
      applyHostEvent(this.view, ev);
      this.taskId = ev.task_id;
      this.retryOfferId = retryOfferAfterLoad(this.cards);
      this.lastSeq = ev.seq;
      this.awaitingSnapshot = false;
      this.version++;
      return 'applied';
    }
    let gap = false;
    if (this.lastSeq !== null) {
      if (ev.seq <= this.lastSeq) return 'duplicate';
      gap = ev.seq !== this.lastSeq + 1;
    }
    this.lastSeq = ev.seq;
    const known = applyHostEvent(this.view, ev);
    this.noteOffers(ev);
    this.version++;
    if ((gap || !known) && !this.awaitingSnapshot) {
      this.awaitingSnapshot = true;
      return 'resync';
    }
    return 'applied';
  }

  /** What an event changes besides the shared view: the Retry offer and the role notice's tick. */
  private noteOffers(ev: HostEvent): void {
    if (ev.type === 'card_added') {
      if (ev.card.kind === 'error' && (ev.card.retryable || ev.card.failure === 'auth')) this.retryOfferId = ev.card.id;
      else if (ev.card.kind === 'text' && ev.card.author === 'user') this.retryOfferId = null;
    } else if (ev.type === 'turn_ended' && ev.outcome === 'done') this.retryOfferId = null;
    else if (ev.type === 'role_changed') this.roleNoticeTick++;
  }

  /** A payload that did not parse: shown as a plain-text card at the end. */
  addRaw(card: RawCard, seq?: number): void {
    if (seq !== undefined && (this.lastSeq === null || seq > this.lastSeq)) this.lastSeq = seq;
    this.put(card);
    this.view.streaming.delete(card.id);
    this.version++;
  }

  // ---- CardTable: how applyHostEvent reads and writes the cards ----

  put(card: ChatCard): void {
    const i = this.index.get(card.id);
    if (i === undefined) {
      this.index.set(card.id, this.cards.length);
      this.cards.push(card);
    } else {
      this.cards[i] = card;
    }
  }

  reset(cards: readonly ChatCard[]): void {
    this.cards = [];
    this.index.clear();
    for (const c of cards) this.put(c);
  }

  /** The patch is untyped on the wire, so the patched card is validated again (a raw card stays raw). */
  checkPatched(card: ChatCard): ChatCard {
    return card.kind === 'raw' ? card : decodeCard(card);
  }
}

/** After a reload: the last card that is a retryable error, unless the conversation went on after it. */
function retryOfferAfterLoad(cards: readonly ChatCard[]): string | null {
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i]!;
    if (c.kind === 'error') return c.retryable === true || c.failure === 'auth' ? c.id : null;
    if (c.kind === 'text' || c.kind === 'plan' || c.kind === 'tool_call' || c.kind === 'question') return null;
  }
  return null;
}
