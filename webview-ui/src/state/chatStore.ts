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
import type { AgentState, Card, HostEvent, PlanCard, RoleId, StepState } from '../../../src/protocol';
import type { ChatCard, RawCard } from './localCards';
import { decodeCard, validated } from './decodeInbound';

export interface Totals { tokens_in: number; tokens_out: number; cost_usd?: number }
export type TurnOutcome = Extract<HostEvent, { type: 'turn_ended' }>['outcome'];
export type ApplyResult = 'applied' | 'duplicate' | 'resync';

export class ChatStore {
  cards: ChatCard[] = [];
  private index = new Map<string, number>();
  lastSeq: number | null = null;
  taskId: string | undefined;
  role: RoleId = 'planner';
  agentState: AgentState = 'idle';
  turnUsage: Totals | null = null;
  taskUsage: Totals | null = null;
  lastOutcome: TurnOutcome | null = null;
  /** Why the role last changed (e.g. "stopped the run first"), shown under the header. */
  roleNotice: string | null = null;
  /** Bumped with each role change, so the view can show the same reason again. */
  roleNoticeTick = 0;
  /** Failure reasons from step_failed, keyed `${plan_id}#${step_number}`. */
  stepReasons = new Map<string, string>();
  /**
   * The error card whose Retry still means something: the latest retryable error, until a later
   * turn ends well or the user sends something else (then Retry would only say "nothing to retry").
   */
  retryOfferId: string | null = null;
  /** True from a detected gap until the next snapshot. */
  awaitingSnapshot = false;
  /** Bumped on every change; the view re-renders when it moves. */
  version = 0;
  private streaming = new Set<string>();

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
      this.loadSnapshot(ev.cards as ChatCard[], ev.role, ev.task_id);
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
    const known = this.applyDelta(ev);
    this.version++;
    if ((gap || !known) && !this.awaitingSnapshot) {
      this.awaitingSnapshot = true;
      return 'resync';
    }
    return 'applied';
  }

  /** A payload that did not parse: shown as a plain-text card at the end. */
  addRaw(card: RawCard, seq?: number): void {
    if (seq !== undefined && (this.lastSeq === null || seq > this.lastSeq)) this.lastSeq = seq;
    this.upsert(card);
    this.version++;
  }

  private loadSnapshot(cards: ChatCard[], role: RoleId, taskId: string | undefined): void {
    this.cards = [];
    this.index.clear();
    this.streaming.clear();
    this.stepReasons.clear();
    for (const c of cards) this.upsert(c);
    this.role = role;
    this.taskId = taskId;
    this.roleNotice = null;
    // After a reload: the last card that is a retryable error, unless the conversation went on after it.
    this.retryOfferId = null;
    for (let i = this.cards.length - 1; i >= 0; i--) {
      const c = this.cards[i]!;
      if (c.kind === 'error') { if (c.retryable === true) this.retryOfferId = c.id; break; }
      if (c.kind === 'text' || c.kind === 'plan' || c.kind === 'tool_call' || c.kind === 'question') break;
    }
  }

  private upsert(card: ChatCard): void {
    const i = this.index.get(card.id);
    if (i === undefined) {
      this.index.set(card.id, this.cards.length);
      this.cards.push(card);
    } else {
      this.cards[i] = card;
    }
    if (card.kind === 'text' && card.streaming) this.streaming.add(card.id);
    else this.streaming.delete(card.id);
  }

  private replace(i: number, card: ChatCard): void {
    this.cards[i] = card;
    if (card.kind === 'text' && card.streaming) this.streaming.add(card.id);
    else this.streaming.delete(card.id);
  }

  /** Returns false when the delta refers to a card we do not have (we missed its card_added). */
  private applyDelta(ev: Exclude<HostEvent, { type: 'snapshot' }>): boolean {
    switch (ev.type) {
      case 'card_added':
        this.upsert(ev.card);
        if (ev.card.kind === 'error' && ev.card.retryable) this.retryOfferId = ev.card.id;
        else if (ev.card.kind === 'text' && ev.card.author === 'user') this.retryOfferId = null;
        return true;
      case 'card_patched': {
        const i = this.index.get(ev.id);
        if (i === undefined) return false;
        const old = this.validAt(i);
        // `id` and `kind` are identity: a patch may not change them.
        // The patch is untyped on the wire, so the patched card is validated again.
        const merged = { ...old, ...ev.patch, id: old.id, kind: old.kind };
        this.replace(i, old.kind === 'raw' ? (merged as RawCard) : decodeCard(merged));
        return true;
      }
      case 'text_appended': {
        const i = this.index.get(ev.id);
        if (i === undefined) return false;
        const old = this.validAt(i);
        if (old.kind !== 'text') return false;
        this.replace(i, { ...old, text: old.text + ev.text });
        return true;
      }
      case 'agent_state':
        this.agentState = ev.state;
        return true;
      case 'role_changed':
        this.role = ev.role;
        this.roleNotice = ev.reason ?? null;
        this.roleNoticeTick++;
        return true;
      case 'step_started':
        return this.setStep(ev.plan_id, ev.step_number, 'running');
      case 'step_done':
        return this.setStep(ev.plan_id, ev.step_number, 'done');
      case 'step_failed':
        if (ev.reason) this.stepReasons.set(`${ev.plan_id}#${ev.step_number}`, ev.reason);
        return this.setStep(ev.plan_id, ev.step_number, 'failed');
      case 'usage_total':
        this.turnUsage = ev.turn;
        this.taskUsage = ev.task;
        return true;
      case 'turn_ended':
        this.lastOutcome = ev.outcome;
        if (ev.outcome === 'done') this.retryOfferId = null;
        if (ev.outcome !== 'waiting') this.agentState = 'idle';
        // A stopped or failed turn may never send the final `streaming: false` patch.
        for (const id of [...this.streaming]) {
          const i = this.index.get(id)!;
          const c = this.validAt(i);
          if (c.kind === 'text') this.replace(i, { ...c, streaming: false });
        }
        return true;
      default:
        return true;
    }
  }

  private setStep(planId: string, step: number, state: StepState): boolean {
    const i = this.index.get(planId);
    if (i === undefined) return false;
    const old = this.validAt(i);
    if (old.kind !== 'plan') return false;
    const next: PlanCard = { ...old, step_states: { ...old.step_states, [String(step)]: state } };
    this.replace(i, next);
    return true;
  }
}
