import type { AgentStateCard, ErrorCard, UsageCard } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import type { RawCard } from '../../state/localCards';
import { formatUsage } from '../format';
import { AgentStateChip } from '../AgentStateChip';
import { useView } from '../storeContext';
import { ROUTINE_OUTCOMES } from '../../state/foldedCards';

export function ErrorCardView({ card }: { card: ErrorCard }) {
  const retryOffered = useView((s) => s.chat.retryOfferId === card.id);
  return (
    <div class="error">
      <div class="card-head"><span class="card-title error-text"><span class="title-glyph" aria-hidden="true">⚠</span> {card.message}</span></div>
      {card.detail && <details><summary>Details</summary><pre>{card.detail}</pre></details>}
      {card.failure === 'auth' ? (
        // The key is what failed: set it (the setup card), then run the same turn again.
        <div class="actions">
          <button type="button" class="primary" onClick={() => postToHost({ type: 'set_api_key' })}>Set API key</button>
          {retryOffered && <button type="button" class="secondary" onClick={() => postToHost({ type: 'retry' })}>Retry</button>}
        </div>
      ) : card.retryable && retryOffered && (
        <div class="actions"><button type="button" class="primary" onClick={() => postToHost({ type: 'retry' })}>Retry</button></div>
      )}
    </div>
  );
}


export function UsageCardView({ card }: { card: UsageCard }) {
  return (
    <div class="usage muted">
      <span>{card.model}</span> · <span>{card.role}</span> · <span>{card.estimated ? <span title="The endpoint reported no usage: Tandem estimated it">≈ estimated </span> : null}{formatUsage(card)}</span> · <span>{(card.latency_ms / 1000).toFixed(1)} s</span>
      {!ROUTINE_OUTCOMES.has(card.outcome) && <> · <span>{card.outcome}</span></>}
    </div>
  );
}

export function AgentStateCardView({ card }: { card: AgentStateCard }) {
  return <AgentStateChip state={card.state} />;
}

export function RawCardView({ card }: { card: RawCard }) {
  return (
    <div class="raw-card">
      <div class="muted">Unrecognised message: {card.error}</div>
      <pre class="raw">{card.text}</pre>
    </div>
  );
}
