/**
 * What a sent message carried: one chip per mention, its content collapsed underneath (exactly
 * what the model was given), a mention that could not be attached marked with why, and the
 * editor's context line. Content is shown as text, never interpreted.
 */
import type { Attachment } from '../../../src/protocol';

export function AttachmentList({ attachments }: { attachments: readonly Attachment[] }) {
  return (
    <div class="attachments">
      {attachments.map((a, i) =>
        a.kind === 'context' ? (
          <div key={i} class="muted attachment-context">{a.content}</div>
        ) : a.error ? (
          <div key={i} class="attachment failed">
            <span class="chip mention-chip failed">@{a.label}</span> <span class="muted">{a.note}</span>
          </div>
        ) : (
          <details key={i} class="attachment">
            <summary>
              <span class="chip mention-chip">@{a.label}</span>
              <span class="muted"> {a.kind}{a.note ? ` — ${a.note}` : ''}</span>
            </summary>
            <pre class="attachment-content">{a.content}</pre>
          </details>
        ),
      )}
    </div>
  );
}
