import type { TextCard } from '../../../../src/protocol';
import { renderMarkdownCached, renderStreamingMarkdown } from '../../markdown/renderMarkdown';
import { AttachmentList } from '../../mentions/AttachmentList';
import { UserMessageView } from './UserMessageView';

export function TextCardView({ card }: { card: TextCard }) {
  if (card.author === 'user') {
    return (
      <>
        <UserMessageView card={card} />
        {card.attachments?.length ? <AttachmentList attachments={card.attachments} /> : null}
      </>
    );
  }
  // Condensing is Tandem's housekeeping: a quiet line where it happened, the figures on demand.
  if (card.note === 'condensed') {
    return (
      <details class="context-marker" data-context-marker>
        <summary>Context condensed here</summary>
        <div class="muted">{card.text}</div>
      </details>
    );
  }
  // Streaming text changes every frame: don't fill the cache with its intermediate states.
  const html = card.streaming ? renderStreamingMarkdown(card.text) : renderMarkdownCached(card.text);
  return (
    <div class={`md${card.author === 'system' ? ' system' : ''}${card.note === 'hook_failed' ? ' warning-text' : ''}${card.streaming ? ' streaming' : ''}`} aria-busy={card.streaming ? 'true' : undefined}>
      {card.reasoning ? (
        // The model's reasoning is not its answer: collapsed, plain text (never rendered as markup).
        <details class="thinking">
          <summary>Thinking</summary>
          <div class="thinking-text">{card.reasoning}</div>
        </details>
      ) : null}
      {card.text || !card.reasoning ? <div dangerouslySetInnerHTML={{ __html: html || '<p></p>' }} /> : null}
    </div>
  );
}
