import { useState } from 'preact/hooks';
import type { TextCard } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { renderMarkdownCached } from '../../markdown/renderMarkdown';
import { laterChanges, type LaterChanges } from '../../state/laterChanges';
import { useView, useViewStore } from '../storeContext';
import { RefusalNote } from '../RefusalNote';
import { focusOnMount } from '../focusOnMount';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * One of the user's messages: rendered as markdown (through the same sanitising renderer as the
 * agent's text), set apart from the agent's cards, and editable: Edit & resend cuts the task
 * before it and sends the edited text in its place. When files were changed after it the user
 * chooses, before anything happens, whether they go back or stay as they are.
 */
export function UserMessageView({ card }: { card: TextCard }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<{ text: string; later: LaterChanges } | null>(null);
  const store = useViewStore();
  const busy = useView((s) => s.chat.busy);
  const refusal = useView((s) => s.chat.refusal('edit_message', card.id));
  const stop = (): void => { setEditing(null); setConfirm(null); };
  const send = (text: string, files: 'revert' | 'keep'): void => {
    postToHost({ type: 'edit_message', card_id: card.id, text: text.slice(0, 100_000), files });
    stop();
  };
  const resend = (): void => {
    const text = (editing ?? '').trim();
    if (!text || busy) return;
    const later = laterChanges(store.get().chat.cards, card.id);
    // Nothing on disk to decide about: the dropped replies are what Edit & resend is for.
    if (later.files.length === 0 && later.unrevertible.length === 0 && later.commands.length === 0) send(text, 'keep');
    else setConfirm({ text, later });
  };

  if (editing !== null) {
    const later = confirm?.later;
    return (
      <div class="user-edit">
        <textarea
          class="user-edit-input"
          aria-label="Edit your message"
          value={editing}
          ref={focusOnMount}
          rows={Math.min(12, Math.max(3, editing.split('\n').length + 1))}
          disabled={confirm !== null}
          onInput={(e) => setEditing((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); resend(); }
            else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); stop(); }
          }}
        />
        {later ? (
          <div class="confirm" role="group" aria-label="Resend and drop what came after" onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); setConfirm(null); } }}>
            <div>Resending drops this message and the {plural(later.dropped - 1, 'card')} after it.</div>
            {later.files.length > 0 && (
              <>
                <div>Files the agent changed after it:</div>
                <ul class="revert-files" aria-label="Files changed after this message">{later.files.map((f) => <li key={f}><code>{f}</code></li>)}</ul>
              </>
            )}
            {later.unrevertible.length > 0 && <div class="muted">Changed and not revertible (they stay as they are): {later.unrevertible.map((f) => <code key={f}>{f} </code>)}</div>}
            {later.commands.length > 0 && <div class="muted">Commands that ran after it are not undone: {later.commands.map((c) => <code key={c}>{c.length > 80 ? `${c.slice(0, 79)}…` : c} </code>)}</div>}
            <div class="actions">
              {later.files.length > 0 && (
                <button type="button" class="primary" ref={focusOnMount} title="Put these files back as they were before this message, then resend" onClick={() => send(confirm!.text, 'revert')}>Revert files and resend</button>
              )}
              <button type="button" class={later.files.length > 0 ? 'secondary' : 'primary'} title="Leave every file as it is now (the agent is told), then resend" onClick={() => send(confirm!.text, 'keep')}>
                {later.files.length > 0 ? 'Keep files and resend' : 'Resend'}
              </button>
              <button type="button" class="secondary" onClick={() => setConfirm(null)}>Cancel</button>
            </div>
          </div>
        ) : (
          <div class="actions">
            <button type="button" class="primary" disabled={busy || editing.trim() === ''} title={busy ? 'Stop or wait for the run to end first' : 'Drop this message and what came after it, and send this instead'} onClick={resend}>Resend</button>
            <button type="button" class="secondary" onClick={stop}>Cancel</button>
            <span class="muted">Enter resends · Escape cancels</span>
          </div>
        )}
      </div>
    );
  }
  return (
    <div class="user-message">
      <div class="md" dangerouslySetInnerHTML={{ __html: renderMarkdownCached(card.text) || '<p></p>' }} />
      <RefusalNote text={refusal} />
      <div class="user-tools">
        <button
          type="button"
          class="link user-edit-button"
          disabled={busy}
          title={busy ? 'Stop or wait for the run to end to edit a message' : 'Edit this message and send it again (what came after it is dropped)'}
          onClick={() => setEditing(card.text)}
        >
          Edit &amp; resend
        </button>
      </div>
    </div>
  );
}
