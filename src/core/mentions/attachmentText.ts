/**
 * A user message as the model receives it: the text as typed, then each attachment once, in a
 * block that says what it is; an attachment that could not be attached says why. Rebuilt the same
 * way from the history when a task resumes, so the model sees what it saw before.
 */
import type { Attachment } from '../../protocol';

export function withAttachments(text: string, attachments: readonly Attachment[] | undefined): string {
  if (!attachments?.length) return text;
  const blocks = attachments.map((a) => {
    if (a.kind === 'context') return `[${a.content}]`;
    if (a.error) return `[@${a.label} ${a.note ?? 'not attached'}]`;
    return `<attachment mention="@${a.label}" kind="${a.kind}"${a.note ? ` note="${a.note}"` : ''}>\n${a.content}\n</attachment>`;
  });
  return `${text}\n\n${blocks.join('\n\n')}`;
}
