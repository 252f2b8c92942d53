import { useEffect, useMemo, useState } from 'preact/hooks';
import type { HostUiMessage } from '../../../src/protocol';
import { loadState, postToHost, saveState } from '../bridge/vscodeApi';
import { InboundQueue } from '../bridge/inboundQueue';
import { ChatStore } from '../state/chatStore';
import { decodeInbound } from '../state/decodeInbound';
import type { ChatCard } from '../state/localCards';
import { Composer } from './Composer';
import { mentionResults, withMention } from '../mentions/mentionResults';
import { Header } from './Header';
import { SetupCard, type ConnectionResult } from './SetupCard';
import { setStepReasonLookup } from './stepReasons';
import { setRetryOfferLookup } from './retryOffer';
import { setAgentBusyLookup } from './agentBusy';
import { VirtualCardList, type ScrollMemory } from './VirtualCardList';
import { MessageQueue } from '../state/messageQueue';
import { pendingApproval } from '../state/pendingApproval';
import { planProgress } from '../state/planProgress';
import { lastCallUsage } from '../state/foldedCards';
import { formatTime, formatUsage } from './format';
import { setComposerDraftAccess } from './composerDraft';
import { refusalFor, setChatLookup } from './chatLookup';
import { cardGroups, type CardGroup } from '../state/cardGroups';
import { currentRefusals, refusalKey } from '../state/refusals';
import type { ContextMeter, ModelChoice } from './Header';

export const store = new ChatStore();
setStepReasonLookup((k) => store.stepReasons.get(k));
setRetryOfferLookup((id) => store.retryOfferId === id);
setAgentBusyLookup(() => store.agentState !== 'idle');
/** The host's allow-list as last sent (command cards say when their command is on it). */
let allowEntries: readonly string[] = [];
/** Runs of reads and searches shown as one line (recomputed when the cards change), and those opened. */
let groups = new Map<string, CardGroup>();
let groupsVersion = -1;
const openGroups = new Set<string>();
let onGroupToggled: () => void = () => undefined;
let refusals = new Map<string, string>();
function groupsNow(): Map<string, CardGroup> {
  if (groupsVersion !== store.version) {
    groups = cardGroups(store.cards);
    refusals = currentRefusals(store.cards);
    groupsVersion = store.version;
  }
  return groups;
}
setChatLookup({
  cards: () => store.cards,
  allowList: () => allowEntries,
  group: (id) => groupsNow().get(id),
  expanded: (id) => openGroups.has(id),
  toggle: (id) => {
    if (!openGroups.delete(id)) openGroups.add(id);
    onGroupToggled();
  },
  refusal: (action, target) => { groupsNow(); return refusals.get(refusalKey(action, target)); },
});
/** Changes whenever a refusal appears or stops being current (rows showing one re-render). */
function refusalsKey(): string {
  groupsNow();
  return [...refusals.keys()].join(',');
}

/** Figures the standalone bench reads (window.__tandemStats); cheap enough to keep always on. */
export const stats = { flushes: 0, messages: 0, flushMs: 0, lastFlushMs: 0, decodeMs: 0 };
(globalThis as { __tandemStats?: typeof stats }).__tandemStats = stats;

const RESYNC_RETRY_MS = 2000;

/**
 * Escape stops the run from anywhere in the chat, not only from the composer (which handles it
 * itself). In another text box (Revise, a custom answer, the setup fields) Escape means "leave
 * this box": it blurs it and stops nothing, so a half-typed revision never kills a run.
 */
function onEscapeAnywhere(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
  const t = e.target as HTMLElement | null;
  if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.isContentEditable)) {
    t.blur();
    return;
  }
  e.preventDefault();
  postToHost({ type: 'stop' });
}

/** The files the task's revertible changes touched, in the order first changed. */
function revertibleFiles(cards: readonly ChatCard[]): string[] {
  const files = new Set<string>();
  for (const c of cards) {
    if (c.kind === 'tool_call' && c.revertible === true && c.reverted !== true && typeof c.approval?.path === 'string') files.add(c.approval.path);
  }
  return [...files];
}

/** The empty chat: the workspace's latest tasks, each resumed with one click. */
function RecentTasks({ tasks }: { tasks: { id: string; title: string; updated: number }[] }) {
  return (
    <nav class="recent" aria-label="Recent tasks">
      <div class="label">Recent tasks</div>
      <ul>
        {tasks.map((t) => (
          <li key={t.id}>
            <button type="button" class="link" title={`Resume this task (${formatTime(t.updated)})`} onClick={() => postToHost({ type: 'resume_task', task_id: t.id })}>{t.title}</button>
            <span class="muted"> · {formatTime(t.updated)}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function App() {
  const persisted = useState(loadState)[0];
  const [version, setVersion] = useState(0);
  const [draft, setDraft] = useState(persisted.draft ?? '');
  const [setup, setSetup] = useState<{ url?: string } | null>(null);
  const [connection, setConnection] = useState<ConnectionResult | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const [recent, setRecent] = useState<{ id: string; title: string; updated: number }[]>([]);
  const [models, setModels] = useState<ModelChoice | null>(null);
  const [meter, setMeter] = useState<ContextMeter | null>(null);
  const [allowTick, setAllowTick] = useState(0);
  const [groupTick, setGroupTick] = useState(0);
  onGroupToggled = () => setGroupTick((t) => t + 1);
  const queued = useState(() => new MessageQueue(persisted.queue ?? []))[0];
  const [queueTick, setQueueTick] = useState(0);
  const saveQueue = (): void => {
    saveState({ queue: queued.list.map((m) => ({ text: m.text })) });
    setQueueTick((t) => t + 1);
  };

  useEffect(() => {
    let lastReadyAt = 0;
    const requestSnapshot = (): void => {
      lastReadyAt = Date.now();
      postToHost(store.lastSeq === null ? { type: 'ready' } : { type: 'ready', last_seq: store.lastSeq });
    };
    const onUi = (msg: HostUiMessage): void => {
      switch (msg.type) {
        case 'setup_needed': setSetup({ url: msg.base_url }); break;
        case 'setup_done': setSetup(null); break;
        case 'connection_result': setConnection((c) => ({ ok: msg.ok, models: msg.models, error: msg.error, tick: (c?.tick ?? 0) + 1 })); break;
        case 'focus_input': setFocusTick((t) => t + 1); break;
        case 'prefill': setDraft(msg.text); setFocusTick((t) => t + 1); break;
        case 'recent_tasks': setRecent(msg.tasks); break;
        case 'send_deferred': queued.addFront(msg.text); saveQueue(); break;
        case 'mention_results': mentionResults.set(msg); break;
        case 'insert_mention': setDraft((d) => withMention(d, msg.text)); setFocusTick((t) => t + 1); break;
        case 'allow_list': allowEntries = msg.entries; setAllowTick((t) => t + 1); break;
        case 'models': setModels({ byRole: msg.by_role, available: msg.available }); break;
        case 'context_meter': setMeter({ model: msg.model, used: msg.used, window: msg.window, known: msg.known }); break;
      }
    };
    const queue = new InboundQueue((batch) => {
      const t0 = performance.now();
      const before = store.version;
      let resync = false;
      for (const data of batch) {
        const d0 = performance.now();
        const items = decodeInbound(data);
        stats.decodeMs += performance.now() - d0;
        for (const item of items) {
          stats.messages++;
          if (item.kind === 'event') {
            if (item.event.type === 'snapshot') queued.settle();
            resync = store.apply(item.event) === 'resync' || resync;
          }
          else if (item.kind === 'ui') onUi(item.msg);
          else store.addRaw(item.card, item.seq);
        }
      }
      if (resync || (store.awaitingSnapshot && Date.now() - lastReadyAt > RESYNC_RETRY_MS)) requestSnapshot();
      if (store.version !== before) {
        setVersion(store.version);
        if (store.lastSeq !== null) saveState({ last_seq: store.lastSeq });
      }
      // Preact renders in a microtask queued by setVersion; this one runs after it, so the
      // figure includes the render.
      queueMicrotask(() => {
        stats.flushes++;
        stats.lastFlushMs = performance.now() - t0;
        stats.flushMs += stats.lastFlushMs;
      });
    });
    const onMessage = (e: MessageEvent): void => queue.push(e.data);
    window.addEventListener('message', onMessage);
    window.addEventListener('keydown', onEscapeAnywhere);
    // Tell the host we are here; it answers with a snapshot (after a reload or being re-shown too).
    postToHost(persisted.last_seq === undefined ? { type: 'ready' } : { type: 'ready', last_seq: persisted.last_seq });
    lastReadyAt = Date.now();
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('keydown', onEscapeAnywhere);
    };
  }, []);

  const onDraft = (text: string): void => {
    setDraft(text);
    saveState({ draft: text.length <= 20_000 ? text : '' });
  };
  setComposerDraftAccess({ read: () => draft, clear: () => onDraft('') });

  // A queued message goes out when the agent is idle again after a turn that ended well.
  useEffect(() => {
    const text = queued.due(store.agentState !== 'idle', store.lastOutcome, store.cards.length);
    if (text === undefined) return;
    postToHost({ type: 'send', text });
    saveQueue();
  }, [version, queueTick]);
  const approval = useMemo(() => pendingApproval(store.cards), [version]);
  const progress = useMemo(() => planProgress(store.cards), [version]);
  const lastCall = useMemo(() => lastCallUsage(store.cards, (u) => `${u.model} · ${u.role} · ${formatUsage(u)} · ${(u.latency_ms / 1000).toFixed(1)} s`), [version]);
  const onScrollMemory = (m: ScrollMemory): void =>
    saveState({ scroll_top: m.scrollTop, stick_to_bottom: m.stick, anchor_id: m.anchorId, anchor_offset: m.anchorOffset });
  const groupKey = (id: string): string => {
    const g = groupsNow().get(id);
    return g ? `${g.leader === id ? 'lead' : 'member'}:${g.members.length}:${g.failed}:${openGroups.has(g.leader)}` : '';
  };
  const extraFor = (card: ChatCard): unknown =>
    card.kind === 'plan' ? `${store.stepReasons.size}|${busy}`
      : card.kind === 'error' ? store.retryOfferId === card.id
      : card.kind === 'tool_call' && card.status === 'pending' ? `${draft.trim() !== ''}|${allowTick}`
      : card.kind === 'tool_call' && card.approval?.kind === 'command' ? allowTick
      : card.kind === 'tool_call' ? `${groupKey(card.id)}|${card.revertible ? refusalsKey() : ''}`
      : card.kind === 'text' && card.author === 'user' ? `${busy}|${refusalsKey()}`
      : card.kind === 'summary' ? refusalsKey()
      : undefined;
  const busy = store.agentState !== 'idle';

  return (
    <div class="app">
      <Header role={store.roleInfo} next={store.nextRole} agentState={store.agentState} agentDetail={store.agentDetail} turn={store.turnUsage} task={store.taskUsage} notice={store.roleNotice} noticeTick={store.roleNoticeTick} lastOutcome={store.lastOutcome} revertible={store.revertibleCount()} busy={busy} progress={progress} lastCall={lastCall} revertibleFiles={() => revertibleFiles(store.cards)} models={models} meter={meter} revertRefusal={refusalFor('revert_task')} />
      {setup && <SetupCard initialUrl={setup.url} result={connection} onClose={() => setSetup(null)} />}
      <VirtualCardList
        cards={store.cards}
        version={version}
        restore={persisted.scroll_top === undefined ? undefined : {
          scrollTop: persisted.scroll_top, stick: persisted.stick_to_bottom, anchorId: persisted.anchor_id, anchorOffset: persisted.anchor_offset,
        }}
        onScrollMemory={onScrollMemory}
        extraFor={extraFor}
        indexOf={(id) => store.indexOf(id)}
        emptyExtra={recent.length > 0 && <RecentTasks tasks={recent} />}
      />
      <Composer
        draft={draft}
        onDraft={onDraft}
        busy={busy}
        focusTick={focusTick}
        approval={approval}
        queue={queued.list}
        queueHeld={MessageQueue.held(store.lastOutcome)}
        onQueue={(text) => { queued.add(text); saveQueue(); }}
        onEditQueued={(id) => {
          const text = queued.take(id);
          if (text === undefined) return;
          // What was being typed is kept: the queued text goes after it.
          onDraft(draft.trim() ? `${draft}\n${text}` : text);
          saveQueue();
          setFocusTick((t) => t + 1);
        }}
        onRemoveQueued={(id) => { queued.take(id); saveQueue(); }}
        onSendQueued={(id) => {
          const text = queued.sendNow(id, busy, store.cards.length);
          if (text !== undefined) postToHost({ type: 'send', text });
          saveQueue();
        }}
      />
    </div>
  );
}
