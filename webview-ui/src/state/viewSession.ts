/**
 * One panel's session: the chat as the host's deltas build it, the message queue, and the view store
 * every component reads. What the host sends is applied here and only here (`receive`): chat events
 * fold into the ChatStore and publish one new frame per batch that changed it, view messages go
 * through hostUiPatch. What the user does to the queue comes back here too. Pure logic over a port to
 * the host: no DOM, no Preact, unit-tested in Node.
 */
import type { WebviewMessage } from '../../../src/protocol';
import type { PersistedState } from '../bridge/vscodeApi';
import { ChatStore } from './chatStore';
import { decodeInbound } from './decodeInbound';
import { hostUiPatch } from './hostUiPatch';
import { MessageQueue } from './messageQueue';
import { ChatFrame, createViewStore, type ViewStore } from './viewStore';

/** A snapshot asked for after a gap that has not come in this long is asked for again. */
const RESYNC_RETRY_MS = 2000;
/** Longer drafts are not kept across the panel being hidden (the host owns history, not the draft). */
const DRAFT_KEPT_CHARS = 20_000;

/** How the session reaches the host and the webview's saved state (vscodeApi in the panel, a recorder in tests). */
export interface HostPort {
  post(msg: WebviewMessage): void;
  save(patch: PersistedState): void;
  now(): number;
}

export class ViewSession {
  readonly store: ViewStore;
  private readonly chat = new ChatStore();
  private readonly queued: MessageQueue;
  private lastReadyAt = 0;
  private savedDraft: string;

  /** `saved`: what the webview kept from before it was last hidden or reloaded (the scroll position is read from it too). */
  constructor(readonly saved: PersistedState, private readonly port: HostPort) {
    this.queued = new MessageQueue(saved.queue ?? []);
    this.savedDraft = saved.draft ?? '';
    this.store = createViewStore({ draft: this.savedDraft, queue: this.queued.list });
    // The draft survives the panel being hidden, whoever changed it (typing, a prefill, a decision that sent it).
    this.store.subscribe(() => {
      const draft = this.store.get().draft;
      if (draft === this.savedDraft) return;
      this.savedDraft = draft;
      this.port.save({ draft: draft.length <= DRAFT_KEPT_CHARS ? draft : '' });
    });
  }

  /** The panel is up: tell the host (it answers with a snapshot, after a reload or being re-shown too). */
  start(): void {
    const seq = this.saved.last_seq;
    this.port.post(seq === undefined ? { type: 'ready' } : { type: 'ready', last_seq: seq });
    this.lastReadyAt = this.port.now();
    this.sendDue();
  }

  /** One batch of what the host sent (one animation frame's worth): the one place it reaches the view. */
  receive(batch: readonly unknown[]): void {
    const chat = this.chat;
    const before = chat.version;
    let resync = false;
    for (const data of batch) {
      for (const item of decodeInbound(data)) {
        if (item.kind === 'event') {
          if (item.event.type === 'snapshot') {
            this.queued.settle();
            // Another task opened: the notice about the one that could not be is moot, and so is the
            // old task's context figure (a meter later in this batch is the new task's).
            if (item.event.task_id !== chat.taskId) this.store.update({ unavailable: null, meter: null });
          }
          resync = chat.apply(item.event) === 'resync' || resync;
        } else if (item.kind === 'ui') {
          if (item.msg.type === 'send_deferred') {
            // The host was still busy when it arrived: it goes first once the turn ends.
            this.queued.addFront(item.msg.text);
            this.queueChanged();
          } else {
            const patch = hostUiPatch(this.store.get(), item.msg);
            if (patch) this.store.update(patch);
          }
        } else chat.addRaw(item.card, item.seq);
      }
    }
    if (resync || (chat.awaitingSnapshot && this.port.now() - this.lastReadyAt > RESYNC_RETRY_MS)) this.requestSnapshot();
    if (chat.version !== before) {
      this.store.update({ chat: ChatFrame.of(chat) });
      if (chat.lastSeq !== null) this.port.save({ last_seq: chat.lastSeq });
    }
    this.sendDue();
  }

  /** Typed while the agent runs: it waits in the queue. */
  queueMessage(text: string): void {
    this.queued.add(text);
    this.queueChanged();
    this.sendDue();
  }

  /** Edit moves a queued message back into the composer, after what was being typed. */
  editQueued(id: number): void {
    const text = this.queued.take(id);
    if (text === undefined) return;
    this.store.update((s) => ({ draft: s.draft.trim() ? `${s.draft}\n${text}` : text, focusTick: s.focusTick + 1 }));
    this.queueChanged();
    this.sendDue();
  }

  removeQueued(id: number): void {
    this.queued.take(id);
    this.queueChanged();
    this.sendDue();
  }

  /** Send now, on a queue held after a stopped or failed turn. */
  sendQueuedNow(id: number): void {
    const text = this.queued.sendNow(id, this.chat.agentState !== 'idle', this.chat.cards.length);
    if (text !== undefined) this.port.post({ type: 'send', text });
    this.queueChanged();
    this.sendDue();
  }

  private requestSnapshot(): void {
    this.lastReadyAt = this.port.now();
    this.port.post(this.chat.lastSeq === null ? { type: 'ready' } : { type: 'ready', last_seq: this.chat.lastSeq });
  }

  /** A queued message goes out when the agent is idle again after a turn that ended well. */
  private sendDue(): void {
    const text = this.queued.due(this.chat.agentState !== 'idle', this.chat.lastOutcome, this.chat.cards.length);
    if (text === undefined) return;
    this.port.post({ type: 'send', text });
    this.queueChanged();
  }

  private queueChanged(): void {
    this.port.save({ queue: this.queued.list.map((m) => ({ text: m.text })) });
    this.store.update({ queue: this.queued.list });
  }
}
