import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { HostUiMessage } from '../../../src/protocol';
import { loadState, postToHost, saveState } from '../bridge/vscodeApi';
import { InboundQueue } from '../bridge/inboundQueue';
import { ChatStore } from '../state/chatStore';
import { decodeInbound } from '../state/decodeInbound';
import { Composer } from './Composer';
import { withMention } from '../mentions/withMention';
import { Header } from './Header';
import { SetupCard, type ConnectionResult } from './SetupCard';
import { VirtualCardList, type ScrollMemory } from './VirtualCardList';
import { laneRows } from '../state/stepLanes';
import { MessageQueue } from '../state/messageQueue';
import { pendingApproval, pendingDecisions } from '../state/pendingApproval';
import { ChatFrame, createViewStore, mentionAnswered, revealCard } from '../state/viewStore';
import { useSelected, ViewStoreContext } from './storeContext';
import { TaskNotice } from './TaskNotice';

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

type RecentTask = { id: string; title: string; updated: number; detail?: string };

/** The empty chat: the workspace's latest tasks (worded by the host), each resumed with one click. */
function RecentTasks({ tasks }: { tasks: RecentTask[] }) {
  return (
    <nav class="recent" aria-label="Recent tasks">
      <div class="label">Recent tasks</div>
      <ul>
        {tasks.map((t) => (
          <li key={t.id}>
            <button type="button" class="link" onClick={() => postToHost({ type: 'resume_task', task_id: t.id })}>{t.title}</button>
            <div class="muted recent-meta">{t.detail}</div>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function App() {
  const persisted = useState(loadState)[0];
  // The chat as the host's deltas built it, and the view store the cards read it from (a new
  // frame of it after each batch that changed it); one of each per page.
  const chat = useState(() => new ChatStore())[0];
  const view = useState(() => createViewStore({ draft: persisted.draft ?? '' }))[0];
  const [version, setVersion] = useState(0);
  const draft = useSelected(view, (s) => s.draft);
  const [setup, setSetup] = useState<{ url?: string; models?: Record<string, string>; keyNeeded?: boolean } | null>(null);
  // No model connected yet (not merely the card opened from an error card's Set API key): nothing
  // can be sent, since a request would go out without a key and fail. Closing the card keeps it so.
  const [unconnected, setUnconnected] = useState<{ url?: string; models?: Record<string, string> } | null>(null);
  const [connection, setConnection] = useState<ConnectionResult | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const [recent, setRecent] = useState<RecentTask[]>([]);
  const [unavailable, setUnavailable] = useState<{ taskId: string; reason: string; takeOver: boolean; tick: number } | null>(null);
  const [readOnly, setReadOnly] = useState<string | null>(null);
  const queued = useState(() => new MessageQueue(persisted.queue ?? []))[0];
  const [queueTick, setQueueTick] = useState(0);
  const saveQueue = (): void => {
    saveState({ queue: queued.list.map((m) => ({ text: m.text })) });
    setQueueTick((t) => t + 1);
  };
  const setDraft = (text: string): void => view.update({ draft: text });

  useEffect(() => {
    let lastReadyAt = 0;
    const requestSnapshot = (): void => {
      lastReadyAt = Date.now();
      postToHost(chat.lastSeq === null ? { type: 'ready' } : { type: 'ready', last_seq: chat.lastSeq });
    };
    const onUi = (msg: HostUiMessage): void => {
      switch (msg.type) {
        case 'setup_needed':
          setSetup({ url: msg.base_url, models: msg.models, keyNeeded: msg.key_needed });
          if (!msg.key_needed) setUnconnected({ url: msg.base_url, models: msg.models });
          break;
        case 'setup_done': setSetup(null); setUnconnected(null); break;
        case 'connection_result': setConnection((c) => ({ ok: msg.ok, models: msg.models, suggested: msg.suggested, error: msg.error, tick: (c?.tick ?? 0) + 1 })); break;
        case 'focus_input': setFocusTick((t) => t + 1); break;
        case 'prefill': setDraft(msg.text); setFocusTick((t) => t + 1); break;
        case 'recent_tasks': setRecent(msg.tasks); break;
        case 'task_unavailable': setUnavailable((u) => ({ taskId: msg.task_id, reason: msg.reason, takeOver: msg.take_over, tick: (u?.tick ?? 0) + 1 })); break;
        case 'read_only': setReadOnly(msg.reason ?? null); break;
        case 'send_deferred': queued.addFront(msg.text); saveQueue(); break;
        case 'mention_results': mentionAnswered(view, msg.query, msg.paths); break;
        case 'insert_mention': setDraft(withMention(view.get().draft, msg.text)); setFocusTick((t) => t + 1); break;
        case 'allow_list': view.update({ allowList: msg.entries }); break;
        case 'models': view.update({ models: { byRole: msg.by_role, available: msg.available } }); break;
        case 'context_meter': view.update({ meter: { model: msg.model, used: msg.used, window: msg.window, known: msg.known } }); break;
      }
    };
    const queue = new InboundQueue((batch) => {
      const before = chat.version;
      let resync = false;
      for (const data of batch) {
        for (const item of decodeInbound(data)) {
          if (item.kind === 'event') {
            if (item.event.type === 'snapshot') {
              queued.settle();
              // Another task opened: the notice about the one that could not be is moot.
              // …and the old task's context figure (a meter later in this batch is the new task's).
              if (item.event.task_id !== chat.taskId) { setUnavailable(null); view.update({ meter: null }); }
            }
            resync = chat.apply(item.event) === 'resync' || resync;
          }
          else if (item.kind === 'ui') onUi(item.msg);
          else chat.addRaw(item.card, item.seq);
        }
      }
      if (resync || (chat.awaitingSnapshot && Date.now() - lastReadyAt > RESYNC_RETRY_MS)) requestSnapshot();
      if (chat.version !== before) {
        view.update({ chat: ChatFrame.of(chat) });
        setVersion(chat.version);
        if (chat.lastSeq !== null) saveState({ last_seq: chat.lastSeq });
      }
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

  // The draft survives the panel being hidden, whoever changed it (typing, a prefill, a decision that sent it).
  const savedDraft = useRef(draft);
  useEffect(() => {
    if (savedDraft.current === draft) return;
    savedDraft.current = draft;
    saveState({ draft: draft.length <= 20_000 ? draft : '' });
  }, [draft]);
  const onDraft = setDraft;

  // A queued message goes out when the agent is idle again after a turn that ended well.
  useEffect(() => {
    const text = queued.due(chat.agentState !== 'idle', chat.lastOutcome, chat.cards.length);
    if (text === undefined) return;
    postToHost({ type: 'send', text });
    saveQueue();
  }, [version, queueTick]);
  const approval = useMemo(() => pendingApproval(chat.cards), [version]);
  const decisions = useMemo(() => pendingDecisions(chat.cards), [version]);
  // Each plan step's cards as its own lane under a header (folded ones show the header alone).
  const closedLanes = useSelected(view, (s) => s.closedLanes);
  const lanes = useMemo(() => laneRows(chat.cards, closedLanes), [version, closedLanes]);
  const onScrollMemory = (m: ScrollMemory): void =>
    saveState({ scroll_top: m.scrollTop, stick_to_bottom: m.stick, anchor_id: m.anchorId, anchor_offset: m.anchorOffset });
  const frame = view.get().chat;
  const busy = frame.busy;

  return (
    <ViewStoreContext.Provider value={view}>
      <div class="app">
        <Header />
        {setup && <SetupCard key={`${setup.url ?? ''}|${setup.keyNeeded ? 1 : 0}`} initialUrl={setup.url} initialModels={setup.models} keyNeeded={setup.keyNeeded} result={connection} onClose={() => setSetup(null)} onSaved={() => { setSetup(null); setUnconnected(null); }} />}
        <VirtualCardList
          cards={lanes.rows}
          version={version}
          restore={persisted.scroll_top === undefined ? undefined : {
            scrollTop: persisted.scroll_top, stick: persisted.stick_to_bottom, anchorId: persisted.anchor_id, anchorOffset: persisted.anchor_offset,
          }}
          onScrollMemory={onScrollMemory}
          indexOf={lanes.indexOf}
          emptyExtra={recent.length > 0 && <RecentTasks tasks={recent} />}
        />
        {unavailable && <TaskNotice key={unavailable.tick} reason={unavailable.reason} taskId={unavailable.takeOver ? unavailable.taskId : undefined} onDismiss={() => setUnavailable(null)} />}
        {readOnly !== null ? <TaskNotice reason={readOnly} taskId={chat.taskId} readOnly /> : <Composer
          draft={draft}
          onDraft={onDraft}
          busy={busy}
          connectFirst={unconnected ? () => { setSetup((s) => s ?? { ...unconnected }); } : undefined}
          setupOpen={setup !== null}
          focusTick={focusTick}
          approval={approval}
          decisions={decisions}
          onShowDecision={(d) => revealCard(view, d.cardId, d.step)}
          waiting={chat.agentState === 'waiting_on_user'}
          queue={queued.list}
          queueHeld={MessageQueue.held(chat.lastOutcome)}
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
            const text = queued.sendNow(id, busy, chat.cards.length);
            if (text !== undefined) postToHost({ type: 'send', text });
            saveQueue();
          }}
        />}
      </div>
    </ViewStoreContext.Provider>
  );
}
