import type { AgentState, PlanCard, TextCard } from './cards';
import type { HostEvent } from './events';
import type { RoleId } from './roles';
import { ROLE_TABLE } from './roleTable';

/**
 * What a stream of `HostEvent`s means, in one place: the host's card store, the history recorder
 * (and so every saved and resumed task) and the webview's store all fold events with
 * `applyHostEvent`, so the three can never disagree about what a patch, an appended text, a step
 * event or a turn's end does to the cards.
 *
 * Types only are imported here: the webview bundles this file, and it must stay free of schemas.
 */

/** Any card a store keeps: the protocol's cards, or a store's own (the webview's raw cards). */
export interface CardLike {
  readonly id: string;
  readonly kind: string;
}

/**
 * Where a store keeps its cards (an array with an index, a map with running totals…). Cards are
 * immutable: every change is a new card object `put` in place of the old one.
 */
export interface CardTable<C extends CardLike> {
  /** The card with this id, ready to be read (a store that validates lazily validates here). */
  get(id: string): C | undefined;
  /** Adds the card at the end, or replaces the card with the same id where it stands. */
  put(card: C): void;
  /** Replaces every card, in order (a snapshot). */
  reset(cards: readonly C[]): void;
  /**
   * A patched card, before it is put: the patch is untyped on the wire, so a store that does not
   * trust its sender validates the result here. Defaults to the merged card as it is.
   */
  checkPatched?(card: C): C;
}

export interface TokenTotals { tokens_in: number; tokens_out: number; cost_usd?: number }
export type TurnEndOutcome = Extract<HostEvent, { type: 'turn_ended' }>['outcome'];

/** Everything the events say, besides the cards themselves. */
export interface HostView<C extends CardLike> {
  readonly cards: CardTable<C>;
  role: RoleId;
  agentState: AgentState;
  /** What the current state is waiting on, when the host said (null otherwise). */
  agentDetail: string | null;
  /** Why the role last changed ("Execute plan", "switched from the command palette"); null after a snapshot or the user's own switch. */
  roleNotice: string | null;
  turnUsage: TokenTotals | null;
  taskUsage: TokenTotals | null;
  lastOutcome: TurnEndOutcome | null;
  /** Why a step failed or is unverified, keyed `${plan_id}#${step_number}`. */
  readonly stepReasons: Map<string, string>;
  /** Text cards still streaming: a turn that ends (stopped, failed) may never send their `streaming: false`. */
  readonly streaming: Set<string>;
}

/** A view with no cards, idle, in `role` (default: where a task starts, the role table's first). */
export function emptyHostView<C extends CardLike>(cards: CardTable<C>, role: RoleId = ROLE_TABLE[0].id): HostView<C> {
  return {
    cards,
    role,
    agentState: 'idle',
    agentDetail: null,
    roleNotice: null,
    turnUsage: null,
    taskUsage: null,
    lastOutcome: null,
    stepReasons: new Map(),
    streaming: new Set(),
  };
}

/**
 * Folds one event into `view`. Deterministic and without effects beyond `view` (no clock, no I/O);
 * the view is updated in place so a 10,000-card task costs O(1) per delta, not a copy of its cards.
 *
 * Returns false when the event refers to a card the view does not have (or one of another kind):
 * the receiver missed something and may ask for a snapshot.
 */
export function applyHostEvent<C extends CardLike>(view: HostView<C>, event: HostEvent): boolean {
  switch (event.type) {
    case 'snapshot': {
      const cards = event.cards as unknown as readonly C[];
      view.cards.reset(cards);
      view.streaming.clear();
      for (const c of cards) if (isStreaming(c)) view.streaming.add(c.id);
      view.stepReasons.clear();
      view.role = event.role;
      view.roleNotice = null;
      if (event.state) view.agentState = event.state;
      if (event.usage) {
        view.turnUsage = event.usage.turn;
        view.taskUsage = event.usage.task;
      }
      return true;
    }
    case 'card_added':
      put(view, event.card as unknown as C);
      return true;
    case 'card_patched': {
      const old = view.cards.get(event.id);
      if (!old) return false;
      // `id` and `kind` are a card's identity: a patch may not change them.
      const merged = { ...old, ...event.patch, id: old.id, kind: old.kind } as C;
      put(view, view.cards.checkPatched ? view.cards.checkPatched(merged) : merged);
      return true;
    }
    case 'text_appended': {
      const old = view.cards.get(event.id);
      if (!old || old.kind !== 'text') return false;
      const text = old as unknown as TextCard;
      put(view, { ...text, text: text.text + event.text } as unknown as C);
      return true;
    }
    case 'reasoning_appended': {
      const old = view.cards.get(event.id);
      if (!old || old.kind !== 'text') return false;
      const text = old as unknown as TextCard;
      put(view, { ...text, reasoning: (text.reasoning ?? '') + event.text } as unknown as C);
      return true;
    }
    case 'agent_state':
      view.agentState = event.state;
      view.agentDetail = event.detail ?? null;
      return true;
    case 'role_changed':
      view.role = event.role;
      view.roleNotice = event.reason ?? null;
      return true;
    case 'step_started':
      return setStep(view, event.plan_id, event.step_number, 'running');
    case 'step_done':
      return setStep(view, event.plan_id, event.step_number, 'done');
    case 'step_failed':
      if (event.reason) view.stepReasons.set(`${event.plan_id}#${event.step_number}`, event.reason);
      return setStep(view, event.plan_id, event.step_number, 'failed');
    case 'step_stopped':
      return setStep(view, event.plan_id, event.step_number, 'stopped');
    case 'step_unverified':
      view.stepReasons.set(`${event.plan_id}#${event.step_number}`, event.reason);
      return setStep(view, event.plan_id, event.step_number, 'unverified');
    case 'usage_total':
      view.turnUsage = event.turn;
      view.taskUsage = event.task;
      return true;
    case 'turn_ended':
      view.lastOutcome = event.outcome;
      if (event.outcome !== 'waiting') view.agentState = 'idle';
      view.agentDetail = null;
      for (const id of [...view.streaming]) {
        const c = view.cards.get(id);
        if (c && c.kind === 'text') put(view, { ...c, streaming: false } as C);
        else view.streaming.delete(id);
      }
      return true;
    default:
      return true;
  }
}

function isStreaming(card: CardLike): boolean {
  return card.kind === 'text' && (card as Partial<TextCard>).streaming === true;
}

function put<C extends CardLike>(view: HostView<C>, card: C): void {
  view.cards.put(card);
  if (isStreaming(card)) view.streaming.add(card.id);
  else view.streaming.delete(card.id);
}

function setStep<C extends CardLike>(view: HostView<C>, planId: string, step: number, state: PlanCard['step_states'][string]): boolean {
  const old = view.cards.get(planId);
  if (!old || old.kind !== 'plan') return false;
  const plan = old as unknown as PlanCard;
  put(view, { ...plan, step_states: { ...plan.step_states, [String(step)]: state } } as unknown as C);
  return true;
}
