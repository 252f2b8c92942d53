import { useEffect, useRef } from 'preact/hooks';
import { postToHost } from '../bridge/vscodeApi';

interface Props {
  draft: string;
  onDraft(text: string): void;
  busy: boolean;
  /** Bumped by the host's `focus_input`. */
  focusTick: number;
}

/** The input: Enter sends, Shift+Enter is a newline, Escape stops the run. */
export function Composer({ draft, onDraft, busy, focusTick }: Props) {
  const ta = useRef<HTMLTextAreaElement>(null);
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

  const send = (): void => {
    const text = draft.trim();
    if (!text) return;
    postToHost({ type: 'send', text: text.slice(0, 100_000) });
    onDraft('');
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        ref={ta}
        aria-label="Message Tandem"
        placeholder={busy ? 'Tandem is working… (Esc to stop)' : 'Describe a task (Enter to send, Shift+Enter for a new line)'}
        rows={2}
        value={draft}
        onInput={(e) => onDraft((e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            postToHost({ type: 'stop' });
          }
        }}
      />
      <div class="composer-actions">
        <button type="button" class={busy ? 'primary' : 'secondary'} aria-label="Stop" title="Stop (Esc)" onClick={() => postToHost({ type: 'stop' })}>
          <span aria-hidden="true">■</span> Stop
        </button>
        <button type="submit" class="primary" disabled={!draft.trim()}>Send</button>
      </div>
    </form>
  );
}
