import { useState } from 'preact/hooks';
import type { QuestionCard } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';

export function QuestionCardView({ card }: { card: QuestionCard }) {
  const q = card.question;
  const [custom, setCustom] = useState('');
  const waiting = card.status === 'waiting';
  const answer = (value: string) => {
    if (!waiting) return;
    postToHost({ type: 'answer', card_id: card.id, value: value.slice(0, 10_000) });
  };
  const answeredLabel = card.answer !== undefined ? q.options.find((o) => o.value === card.answer)?.label ?? card.answer : undefined;

  return (
    <div class="question">
      <div class="card-head">
        <span class="card-title"><span class="title-glyph" aria-hidden="true">?</span> Question</span>
        <span class={`chip sev-${q.severity}`}>{q.severity}</span>
      </div>
      <p class="q-text">{q.question}</p>
      {q.context && <p class="muted q-context">{q.context}</p>}
      <div class="options" role="group" aria-label="Answers">
        {q.options.map((o) => {
          const isDefault = o.value === q.default;
          const chosen = card.answer === o.value;
          return (
            <div class="option" key={o.value}>
              <button
                type="button"
                // While waiting the default is the suggested answer; once answered only the pick stands out.
                class={chosen ? 'primary chosen' : waiting && isDefault ? 'primary' : 'secondary'}
                disabled={!waiting}
                aria-pressed={chosen}
                title={o.description}
                onClick={() => answer(o.value)}
              >
                {chosen && <span aria-hidden="true">✓ </span>}{o.label}
              </button>
              {isDefault && waiting && <span class="default-mark">default</span>}
              {chosen && <span class="chosen-mark">your answer</span>}
              {o.description && <span class="muted option-desc">{o.description}</span>}
            </div>
          );
        })}
      </div>
      {q.allow_custom && waiting && (
        <form
          class="custom-answer"
          onSubmit={(e) => {
            e.preventDefault();
            if (custom.trim()) answer(custom.trim());
          }}
        >
          <input
            type="text"
            aria-label="Your own answer"
            placeholder="Or type your own answer"
            value={custom}
            onInput={(e) => setCustom((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" class="secondary" disabled={!custom.trim()}>Answer</button>
        </form>
      )}
      {card.status === 'answered' && <p class="muted">Answered: <strong>{answeredLabel}</strong></p>}
      {card.status === 'cancelled' && <p class="muted">No longer waiting for an answer.</p>}
    </div>
  );
}
