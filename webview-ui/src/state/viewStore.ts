/**
 * The webview's one store: everything a card or the composer reads beyond its own card — whether
 * a turn runs, the step failure reasons, which error offers Retry, the allow-list, the grouped runs
 * and which are open, the refusals still current, the composer's draft, the `@` picker's results.
 * App owns one instance and hands it down through Preact context (ui/storeContext.ts); each
 * component reads what it needs through a selector and re-renders exactly when that value changes.
 * Pure logic, no DOM and no Preact: unit-tested in Node.
 */
import type { ChatCard } from './localCards';
import { ChatStore } from './chatStore';
import { headerFacts, type HeaderFacts } from './headerFacts';
import { cardGroups, groupSummary, type CardGroup } from './cardGroups';
import { toldByDraft } from './foldedCards';
import { currentRefusals, refusalKey } from './refusals';
import { pendingApproval, pendingDecisions, type PendingApproval, type PendingDecision } from './pendingApproval';
import type { QueuedMessage } from './messageQueue';

/** A state replaced as a whole on each update, with listeners told after each one. */
export class Store<S extends object> {
  private readonly listeners = new Set<() => void>();

  constructor(private state: S) {}

  get(): S {
    return this.state;
  }

  /** Replaces the fields given (a new state object) and tells every listener; selectors decide who re-renders. */
  update(patch: Partial<S> | ((s: S) => Partial<S>)): void {
    this.state = { ...this.state, ...(typeof patch === 'function' ? patch(this.state) : patch) };
    for (const l of [...this.listeners]) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }
}

/**
 * The chat as of one version of the ChatStore. A new frame is published after each batch that
 * changed the chat; what is derived from all the cards (the grouped runs, the current refusals) is
 * computed on first use and at most once per frame.
 */
export class ChatFrame {
  private groups: Map<string, CardGroup> | undefined;
  private refusals: Map<string, string> | undefined;
  private waitingOn: { approval: PendingApproval | null; decisions: PendingDecision[] } | undefined;
  private drafted: ReadonlySet<string> | undefined;

  constructor(
    readonly version: number,
    readonly cards: readonly ChatCard[],
    /** A turn is running: cards must not start another one (Execute plan, Edit & resend). */
    readonly busy: boolean,
    /** The error card whose Retry still means something (only the latest failed turn can be retried). */
    readonly retryOfferId: string | null,
    private readonly stepReasons: ReadonlyMap<string, string>,
    /** What the header shows of the chat at this version (an empty chat's for a frame made without one). */
    readonly header: HeaderFacts = headerFacts(new ChatStore()),
    /** The task these cards are of (none before the host's first snapshot). */
    readonly taskId?: string,
  ) {}

  static of(chat: ChatStore): ChatFrame {
    return new ChatFrame(chat.version, chat.cards, chat.agentState !== 'idle', chat.retryOfferId, chat.stepReasons, headerFacts(chat), chat.taskId);
  }

  /** Why a plan step failed, from step_failed (the card schema has no field for it). */
  stepReason(planId: string, step: number): string | undefined {
    return this.stepReasons.get(`${planId}#${step}`);
  }

  /** The run of looking-only calls a tool card is folded into, if any. */
  group(cardId: string): CardGroup | undefined {
    this.groups ??= cardGroups(this.cards);
    return this.groups.get(cardId);
  }

  /** A failed plan call its plan's draft tells (state/foldedCards.ts): not shown as a card of its own. */
  toldByDraft(cardId: string): boolean {
    this.drafted ??= toldByDraft(this.cards);
    return this.drafted.has(cardId);
  }

  /** The refusal of the click `action` on `target`, while it is current. */
  refusal(action: string, target?: string): string | undefined {
    this.refusals ??= currentRefusals(this.cards);
    return this.refusals.get(refusalKey(action, target));
  }

  /** The approval the agent waits on, if any (what is typed goes with Approve or Reject). */
  approval(): PendingApproval | null {
    return this.pending().approval;
  }

  /** Every decision the run waits on (steps side by side may wait at once). */
  decisions(): readonly PendingDecision[] {
    return this.pending().decisions;
  }

  private pending(): { approval: PendingApproval | null; decisions: PendingDecision[] } {
    return this.waitingOn ??= { approval: pendingApproval(this.cards), decisions: pendingDecisions(this.cards) };
  }
}

/**
 * The host's answers to the `@` picker's searches, by query. Typed quickly, every key asks for its
 * own search and the answers come back in any order (each waits for the first index, then for its
 * own ignore checks): the picker looks up the answer to what is typed now, never just the last one
 * to arrive, which left it on "Searching…" for good. The latest MENTION_ANSWERS_KEPT are kept, and
 * only while the picker stays open: once it closes they are forgotten, so a later `@` never shows
 * what the workspace held minutes ago.
 */
export type MentionResults = ReadonlyMap<string, readonly string[]>;
const MENTION_ANSWERS_KEPT = 32;

export interface ViewState {
  chat: ChatFrame;
  /** The host's allow-list as last sent (command cards say when their command is on it). */
  allowList: readonly string[];
  /** Leaders of the grouped runs the user opened. */
  openGroups: ReadonlySet<string>;
  /** Plan step lanes the user folded (state/stepLanes.ts). */
  closedLanes: ReadonlySet<string>;
  /** The composer's text; Approve / Reject of a pending change carry it as feedback. */
  draft: string;
  /** The host's recent answers to the `@` picker's path search, by query. */
  mentionResults: MentionResults;
  /** A card to bring into view (a waiting decision's "Show"), once per tick. */
  reveal: { id: string; tick: number } | null;
  /** Each role's model and the endpoint's list, for the header's picker (none until the host says). */
  models: ModelChoice | null;
  /** How much of the model's window the task's last request took (none before one, or in a task just opened). */
  meter: ContextMeter | null;
  /** The setup card, while open: the endpoint and models the host knows of. */
  setup: SetupRequest | null;
  /**
   * No model connected yet (not merely the card opened from an error card's Set API key): nothing
   * can be sent, since a request would go out without a key and fail. Closing the card keeps it so.
   */
  unconnected: { url?: string; models?: Record<string, string> } | null;
  /** The host's answer to the setup card's last Test connection or Save. */
  connection: ConnectionResult | null;
  /** Moves each time the host asks for the cursor in the composer. */
  focusTick: number;
  /** The empty chat offers the workspace's latest tasks (worded by the host). */
  recentTasks: readonly RecentTask[];
  /** A saved task that could not be opened here, and why (a tick per notice: the same one shows anew). */
  unavailable: TaskUnavailable | null;
  /** Another window took this task over: why, and the composer gives way to the way back. */
  readOnly: string | null;
  /** Messages typed while the agent ran, in the order they go out (state/messageQueue.ts keeps them). */
  queue: readonly QueuedMessage[];
}

export interface SetupRequest { url?: string; models?: Record<string, string>; keyNeeded?: boolean }
export interface ConnectionResult { ok: boolean; models?: string[]; suggested?: Record<string, string>; error?: string; tick: number }
export interface RecentTask { id: string; title: string; updated: number; detail?: string }
export interface TaskUnavailable { taskId: string; reason: string; takeOver: boolean; tick: number }

export interface ModelChoice { byRole: Record<string, string>; available: string[] }
export interface ContextMeter { model: string; used: number; window: number; known: boolean }

export type ViewStore = Store<ViewState>;

export function createViewStore(init: Partial<ViewState> = {}): ViewStore {
  return new Store<ViewState>({
    chat: new ChatFrame(0, [], false, null, new Map()),
    models: null,
    meter: null,
    allowList: [],
    openGroups: new Set(),
    closedLanes: new Set(),
    draft: '',
    mentionResults: new Map(),
    reveal: null,
    setup: null,
    unconnected: null,
    connection: null,
    focusTick: 0,
    recentTasks: [],
    unavailable: null,
    readOnly: null,
    queue: [],
    ...init,
  });
}

/** The picker's answers with the host's answer for `query` kept (a newer answer to the same query replaces it). */
export function withMentionAnswer(answers: MentionResults, query: string, paths: readonly string[]): MentionResults {
  const next = new Map(answers);
  next.delete(query);
  next.set(query, paths);
  for (const old of next.keys()) {
    if (next.size <= MENTION_ANSWERS_KEPT) break;
    next.delete(old);
  }
  return next;
}

/** The picker closed: its answers are forgotten (see MentionResults). */
export function forgetMentionAnswers(store: ViewStore): void {
  if (store.get().mentionResults.size > 0) store.update({ mentionResults: new Map() });
}

/** Opens a grouped run, or closes it. */
export function toggleGroup(store: ViewStore, leaderId: string): void {
  flip(store, 'openGroups', leaderId);
}

/** Adds `id` to one of the view's sets of ids, or takes it out. */
function flip(store: ViewStore, field: 'openGroups' | 'closedLanes', id: string): void {
  store.update((s) => {
    const set = new Set(s[field]);
    if (!set.delete(id)) set.add(id);
    return { [field]: set };
  });
}

/** Folds a plan step's lane, or shows it again. */
export function toggleLane(store: ViewStore, laneId: string): void {
  flip(store, 'closedLanes', laneId);
}

/** Scrolls the chat to a card, opening its step's lane if the user had folded it. */
export function revealCard(store: ViewStore, id: string, step?: number): void {
  store.update((s) => {
    const lanes = step === undefined ? s.closedLanes : new Set([...s.closedLanes].filter((l) => !l.endsWith(`#${step}`)));
    return { closedLanes: lanes, reveal: { id, tick: (s.reveal?.tick ?? 0) + 1 } };
  });
}

/** The setup card closes; a chat with no model connected still waits for one. */
export function closeSetup(store: ViewStore): void {
  store.update({ setup: null });
}

/** The settings were saved and the endpoint answered: a model is connected. */
export function setupSaved(store: ViewStore): void {
  store.update({ setup: null, unconnected: null });
}

/** "Connect a model": the setup card opens again with what the host knows (or stays as it is). */
export function openSetup(store: ViewStore): void {
  store.update((s) => ({ setup: s.setup ?? (s.unconnected ? { ...s.unconnected } : null) }));
}

/** The notice about a task that could not be opened goes away. */
export function dismissUnavailable(store: ViewStore): void {
  store.update({ unavailable: null });
}

/** The composer's text as a decision's note (trimmed, at most 10,000 characters); the composer empties when there was one. */
export function takeDraftAsNote(store: ViewStore): string {
  const note = store.get().draft.trim().slice(0, 10_000);
  if (note) store.update({ draft: '' });
  return note;
}

/** Two answers about a card's run are the same when the run's line would read the same. */
export function sameGroup(a: CardGroup | undefined, b: CardGroup | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.leader === b.leader && a.members.length === b.members.length && a.failed === b.failed && groupSummary(a) === groupSummary(b);
}
