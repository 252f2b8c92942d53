import { useEffect, useRef } from 'preact/hooks';
import { postToHost } from '../bridge/vscodeApi';
import type { PendingDecision } from '../state/pendingApproval';
import { MessageQueue } from '../state/messageQueue';
import { openSetup, revealCard } from '../state/viewStore';
import { useView, useViewSession, useViewStore } from './storeContext';
import { useMentionPicker } from '../mentions/MentionPicker';
import { MentionChips } from '../mentions/MentionChips';

/**
 * The input: Enter sends, Shift+Enter is a newline, Escape stops the run. Text is cleared only once
 * it is delivered: while an approval waits it goes with Approve/Reject as feedback, and while the
 * agent runs it is queued (shown above the input, editable and removable) until the turn ends.
 * Everything it shows it selects from the view store; the queue's actions go through the session.
 */
export function Composer() {
  const store = useViewStore();
  const session = useViewSession();
  const draft = useView((s) => s.draft);
  const frame = useView((s) => s.chat);
  const focusTick = useView((s) => s.focusTick);
  const queue = useView((s) => s.queue);
  // No model connected yet: Send is disabled (a request would go out without a key), the text stays,
  // and the way to the setup card is offered (no link while the card is open above).
  const unconnected = useView((s) => s.unconnected !== null);
  const setupOpen = useView((s) => s.setup !== null);
  const busy = frame.busy;
  const approval = frame.approval();
  const decisions = frame.decisions();
  const waiting = frame.header.agentState === 'waiting_on_user';
  const queueHeld = MessageQueue.held(frame.header.lastOutcome);
  const onDraft = (text: string): void => store.update({ draft: text });
  const connectFirst = unconnected ? () => openSetup(store) : undefined;
  const onShowDecision = (d: PendingDecision): void => revealCard(store, d.cardId, d.step);
  const ta = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionPicker(ta, draft, onDraft);
  useEffect(() => {
    if (focusTick > 0) ta.current?.focus();
  }, [focusTick]);
  useEffect(() => {
    // Grow with the text up to a third of the panel, then scroll.
    const el = ta.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, Math.max(120, window.innerHeight / 3))}px`;
  }, [draft]);

  const text = draft.trim().slice(0, 10_000);
  const decide = (approve: boolean): void => {
    if (!approval || !text) return;
    postToHost(approve ? { type: 'approve', call_id: approval.callId, note: text } : { type: 'reject', call_id: approval.callId, reason: text });
    onDraft('');
  };
  const send = (): void => {
    const t = draft.trim();
    // Waiting on a decision: Enter keeps the text; the buttons below say where it can go.
    if (!t || approval) return;
    if (connectFirst && !busy) { connectFirst(); return; }
    if (busy) {
      session.queueMessage(t.slice(0, 100_000));
    } else {
      postToHost({ type: 'send', text: t.slice(0, 100_000) });
    }
    onDraft('');
  };

  const question = decisions.find((d) => d.kind === 'question');
  const placeholder = approval
    ? 'Type feedback, then Approve or Reject with it'
    : busy && (waiting || question) ? `${question?.step ? `Step ${question.step} waits` : 'Waiting'} for your answer above`
    : busy ? 'Tandem is working… (Enter queues your message, Esc stops)'
    : connectFirst ? 'Connect a model above, then describe a task'
    : 'Describe a task (Enter to send, Shift+Enter for a new line)';

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {queue.length > 0 && (
        <ul class="queue" aria-label="Queued messages">
          {queue.map((m) => (
            <li key={m.id} class="queued">
              <span class="chip">queued</span>
              <span class="queued-text" title={m.text}>{m.text}</span>
              {queueHeld && <button type="button" class="secondary" aria-label="Send queued message now" disabled={busy} onClick={() => session.sendQueuedNow(m.id)}>Send</button>}
              <button type="button" class="icon" aria-label="Edit queued message" title="Edit" onClick={() => session.editQueued(m.id)}>✎</button>
              <button type="button" class="icon" aria-label="Remove queued message" title="Remove" onClick={() => session.removeQueued(m.id)}>✕</button>
            </li>
          ))}
          {queueHeld && <li class="muted queue-note">The last turn did not finish; queued messages wait for you.</li>}
        </ul>
      )}
      {/* Other decisions waiting (steps side by side): each a click away from its card, wherever the run has pushed it. */}
      {decisions.filter((d) => d.cardId !== approval?.cardId).length > 0 && (
        <ul class="waiting-list" aria-label="Waiting for you">
          {decisions.filter((d) => d.cardId !== approval?.cardId).map((d) => (
            <li key={d.cardId} data-waiting-card={d.cardId}>
              <button type="button" class="link" onClick={() => onShowDecision(d)}>Show</button>
              <span class="muted decide-what" title={d.what}>{d.step ? `Step ${d.step}` : 'Tandem'} {d.kind === 'question' ? 'asks' : 'waits for your decision to'} {d.what}</span>
            </li>
          ))}
        </ul>
      )}
      {approval && (
        <div class="decide" role="group" aria-label="Send with your decision">
          <span class="muted decide-what">{approval.step ? `Step ${approval.step} waits` : 'Waiting'} for your decision to {approval.what}{text ? ': your message goes with it.' : '. Type here to send feedback with Approve or Reject.'}</span>
          {approval.cardId && <>{' '}<button type="button" class="link" onClick={() => onShowDecision({ cardId: approval.cardId!, kind: 'approval', what: approval.what, ...(approval.step ? { step: approval.step } : {}) })}>Show</button></>}
          {text && (
            <div class="actions">
              <button type="button" class="secondary" onClick={() => decide(false)}>Reject with message</button>
              <button type="button" class="secondary" onClick={() => decide(true)}>Approve with message</button>
            </div>
          )}
        </div>
      )}
      {connectFirst && !busy && (
        <div class="connect-first" role="status">
          <span class="muted">No model is connected yet: what you type waits here until one is.</span>
          {!setupOpen && <button type="button" class="link" onClick={connectFirst}>Connect a model</button>}
        </div>
      )}
      {mentions.popup}
      <textarea
        ref={ta}
        aria-label="Message Tandem"
        placeholder={placeholder}
        rows={2}
        value={draft}
        onInput={(e) => { onDraft((e.currentTarget as HTMLTextAreaElement).value); mentions.sync(); }}
        onClick={mentions.sync}
        onKeyUp={(e) => { if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') mentions.sync(); }}
        onKeyDown={(e) => {
          if (mentions.onKeyDown(e)) return;
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            postToHost({ type: 'stop' });
          }
        }}
      />
      <MentionChips draft={draft} onDraft={onDraft} />
      <div class="composer-actions">
        {/* Stop only while something runs, in Send's place; Queue beside it once there is text to queue. */}
        {busy && (
          <button type="button" class="primary" aria-label="Stop" title="Stop (Esc)" onClick={() => postToHost({ type: 'stop' })}>
            <span aria-hidden="true">■</span> Stop
          </button>
        )}
        {busy ? (
          !approval && draft.trim() !== '' && <button type="submit" class="secondary">Queue</button>
        ) : (
          <button type="submit" class="primary" disabled={!draft.trim() || connectFirst !== undefined} title={connectFirst ? 'Connect a model first' : undefined}>Send</button>
        )}
      </div>
    </form>
  );
}
