import type { FactsCard, LearnedCard } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { LazyDetails } from '../LazyDetails';

/** A citation as a link that opens the cited lines (the first file's, `src/app.py:12-20`); a command stays code. */
function Citation({ cited }: { cited: string }) {
  const first = cited.split(', ')[0] ?? '';
  if (!/:\d+(-\d+)?$/.test(first)) return <code>{cited}</code>;
  return (
    <a href="#" class="fact-citation" title={`Open ${first}`} onClick={(e) => { e.preventDefault(); postToHost({ type: 'open_file', path: first.slice(0, 4096) }); }}>{cited}</a>
  );
}

/** What a review learned: "Learned: … — from src/app.py:12-20" with Forget; or why it was not kept. */
export function LearnedCardView({ card }: { card: LearnedCard }) {
  const f = card.fact;
  if (card.refused) {
    return <div class="learned muted"><span class="learned-label">Not learned:</span> {f.text} <span class="learned-why">— {card.refused}</span></div>;
  }
  return (
    <div class={`learned${card.forgotten ? ' muted' : ''}`} data-fact-id={f.id}>
      <span class="learned-label">{card.forgotten ? 'Forgotten:' : 'Learned:'}</span> {card.forgotten ? <s>{f.text}</s> : f.text} <span class="learned-from">— from <Citation cited={f.cited} /></span>
      {!card.forgotten && f.id && (
        <button class="link-button learned-forget" title="Forget this fact: it is no longer sent to later tasks" onClick={() => postToHost({ type: 'forget_fact', fact_id: f.id!, card_id: card.id })}>Forget</button>
      )}
    </div>
  );
}

/** The facts a request carried, one collapsed line that opens to each with its citation, and those left out as stale. */
export function FactsCardView({ card }: { card: FactsCard }) {
  const head = `Using ${card.sent.length} fact${card.sent.length === 1 ? '' : 's'}${card.stale.length ? ` (${card.stale.length} stale, not sent)` : ''}`;
  return (
    <LazyDetails
      className="facts-used muted"
      summary={<span class="facts-line">{head}</span>}
      render={() => (
        <div class="facts-body">
          <ul class="facts-list">
            {card.sent.map((f) => <li key={f.id}>{f.text} <span class="fact-from">— <Citation cited={f.cited} /></span></li>)}
          </ul>
          {card.left_out ? <div class="facts-left-out">{card.left_out} more did not fit tandem.facts.maxTokens.</div> : null}
          {card.stale.length > 0 && (
            <ul class="facts-stale">
              {card.stale.map((f) => <li key={f.id}><s>{f.text}</s> — stale: {f.why}</li>)}
            </ul>
          )}
        </div>
      )}
    />
  );
}
