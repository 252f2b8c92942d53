import { useEffect, useState } from 'preact/hooks';
import { loadState, postToHost, saveState } from '../bridge/vscodeApi';
import { InboundQueue } from '../bridge/inboundQueue';
import { ViewSession } from '../state/viewSession';
import { closeSetup, dismissUnavailable, setupSaved } from '../state/viewStore';
import { ChatLog } from './ChatLog';
import { Composer } from './Composer';
import { Header } from './Header';
import { SetupCard } from './SetupCard';
import { useView, useViewStore, ViewSessionContext, ViewStoreContext } from './storeContext';
import { TaskNotice } from './TaskNotice';
import type { ScrollMemory } from './VirtualCardList';

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

/**
 * The webview: one session per mount (PanelBoundary's "Load the chat again" mounts afresh, says ready
 * and gets a snapshot), fed by the host's messages once per animation frame.
 */
export function App() {
  const session = useState(() => new ViewSession(loadState(), { post: postToHost, save: saveState, now: Date.now }))[0];
  useEffect(() => {
    const inbound = new InboundQueue((batch) => session.receive(batch));
    const onMessage = (e: MessageEvent): void => inbound.push(e.data);
    window.addEventListener('message', onMessage);
    window.addEventListener('keydown', onEscapeAnywhere);
    session.start();
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('keydown', onEscapeAnywhere);
    };
  }, [session]);
  return <Panel session={session} />;
}

const saveScroll = (m: ScrollMemory): void =>
  saveState({ scroll_top: m.scrollTop, stick_to_bottom: m.stick, anchor_id: m.anchorId, anchor_offset: m.anchorOffset });

/** The panel's parts, each showing what it selects from the session's store. */
export function Panel({ session }: { session: ViewSession }) {
  const saved = session.saved;
  const restore = saved.scroll_top === undefined ? undefined
    : { scrollTop: saved.scroll_top, stick: saved.stick_to_bottom, anchorId: saved.anchor_id, anchorOffset: saved.anchor_offset };
  return (
    <ViewStoreContext.Provider value={session.store}>
      <ViewSessionContext.Provider value={session}>
        <div class="app">
          <Header />
          <OpenSetupCard />
          <ChatLog restore={restore} onScrollMemory={saveScroll} />
          <UnavailableNotice />
          <ComposerOrReadOnly />
        </div>
      </ViewSessionContext.Provider>
    </ViewStoreContext.Provider>
  );
}

function OpenSetupCard() {
  const store = useViewStore();
  const setup = useView((s) => s.setup);
  const connection = useView((s) => s.connection);
  if (!setup) return null;
  return (
    <SetupCard key={`${setup.url ?? ''}|${setup.keyNeeded ? 1 : 0}`} initialUrl={setup.url} initialModels={setup.models} keyNeeded={setup.keyNeeded}
      result={connection} onClose={() => closeSetup(store)} onSaved={() => setupSaved(store)} />
  );
}

function UnavailableNotice() {
  const store = useViewStore();
  const unavailable = useView((s) => s.unavailable);
  if (!unavailable) return null;
  return <TaskNotice key={unavailable.tick} reason={unavailable.reason} taskId={unavailable.takeOver ? unavailable.taskId : undefined} onDismiss={() => dismissUnavailable(store)} />;
}

/** Another window took this task over: the composer gives way to the way back. */
function ComposerOrReadOnly() {
  const readOnly = useView((s) => s.readOnly);
  const taskId = useView((s) => s.chat.taskId);
  return readOnly !== null ? <TaskNotice reason={readOnly} taskId={taskId} readOnly /> : <Composer />;
}
