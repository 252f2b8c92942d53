import type { InstructionsCard } from '../../../../src/protocol';
import { instructionsHeadline } from '../../../../src/protocol/instructionsHeadline';
import { LazyDetails } from '../LazyDetails';

/** One collapsed line; opened, the files with their sizes and exactly the text the model was sent. */
export function InstructionsCardView({ card }: { card: InstructionsCard }) {
  return (
    <LazyDetails
      className="instructions muted"
      summary={<span class="instructions-line" title={card.files.map((f) => f.path).join(', ')}>{instructionsHeadline(card)}</span>}
      render={() => (
        <div class="instructions-body">
          <ul class="instructions-files">
            {card.files.map((f) => <li key={f.path}><code>{f.path}</code> · {f.tokens.toLocaleString('en-US')} tokens{f.cut_tokens ? ` (${f.cut_tokens.toLocaleString('en-US')} cut)` : ''}</li>)}
          </ul>
          {card.cut && <div class="instructions-cut">{card.cut}</div>}
          <pre class="instructions-text">{card.text}</pre>
        </div>
      )}
    />
  );
}
