/** The plan card's Reviewer, version-change and cost parts (PlanCardView places them). */
import type { PlanCard, PlanVersionDiff, ReviewConcern, ReviewResult, UsageSlice } from '../../../../src/protocol';
import { formatUsage } from '../format';

/** Each verdict in words and with a colour of its own: none of them may read like the idle chip. */
const VERDICT_WORD = { ok: 'ok', revise: 'revise', replan: 'replan' } as const;

/** A verdict's headline chip: what the Reviewer said (or that no valid verdict came), and whether the user went on regardless. */
export function VerdictChip({ review, what }: { review: ReviewResult; what: string }) {
  const v = review.verdict?.verdict;
  return (
    <span class={`chip verdict ${v === 'ok' ? 'status-done' : v === 'revise' ? 'verdict-revise' : 'status-error'}`} data-verdict={v ?? 'none'} title={review.verdict?.reasons.join('\n') ?? review.error}>
      {what}: {v ? VERDICT_WORD[v] : 'no valid verdict'}{review.overridden ? ' · overridden by you' : ''}
    </span>
  );
}

/** The plan review: verdict, reasons, the concerns not tied to a step, and where it came from. */
export function PlanReviewBlock({ review }: { review: ReviewResult }) {
  const general = review.verdict?.concerns.filter((c) => c.step == null) ?? [];
  const p = review.provenance;
  return (
    <div class="plan-review" data-plan-review>
      <VerdictChip review={review} what="Reviewer" />
      {review.verdict ? (
        <ul class="muted review-reasons">{review.verdict.reasons.map((r, i) => <li key={i}>{r}</li>)}</ul>
      ) : (
        <p class="error-text">{review.error}</p>
      )}
      {general.length > 0 && <ConcernList concerns={general} />}
      <ProvenanceDetails provenance={p} />
    </div>
  );
}

export function ProvenanceDetails({ provenance: p }: { provenance: ReviewResult['provenance'] }) {
  return (
    <details class="provenance">
      {/* The prompt's version id (reviewer@…) is for bug reports, not the chat: History and --json keep it. */}
      <summary class="muted">Judged by {p.model}{p.repairs ? ` · ${p.repairs} repair${p.repairs === 1 ? '' : 's'}` : ''}{p.fallbacks.length ? ` · fallback ${p.fallbacks.join(', ')}` : ''}</summary>
      {p.attempts.filter((a) => a.errors.length).map((a, i) => <div key={i} class="muted">{a.model}: {a.errors.join('; ')}</div>)}
      <pre class="raw">{p.raw || '(no answer)'}</pre>
    </details>
  );
}

export function ConcernList({ concerns }: { concerns: readonly ReviewConcern[] }) {
  return (
    <ul class="concerns" data-concerns>
      {concerns.map((c, i) => (
        <li key={i}>
          <span class="concern-mark" aria-hidden="true">⚑</span> {c.text}
          {c.file && <code class="muted"> {c.file}{c.line ? `:${c.line}` : ''}</code>}
        </li>
      ))}
    </ul>
  );
}

/** What changed from the previous version, one line per change. */
export function VersionChanges({ changes }: { changes: PlanVersionDiff }) {
  const n = changes.added.length + changes.removed.length + changes.edited.length;
  return (
    <details class="plan-section plan-changes" open={n > 0 && n <= 6} data-plan-changes>
      <summary>
        Changes from v{changes.from_version}: {n === 0 ? 'none' : [
          changes.added.length && `${changes.added.length} added`,
          changes.removed.length && `${changes.removed.length} removed`,
          changes.edited.length && `${changes.edited.length} edited`,
        ].filter(Boolean).join(', ')}{changes.unchanged ? ` · ${changes.unchanged} unchanged` : ''}
      </summary>
      <ul class="changes">
        {changes.added.map((a) => <li key={`a${a.step}`} class="added">+ step {a.step}: {a.action}</li>)}
        {changes.removed.map((r) => <li key={`r${r.step}`} class="removed">− step {r.step} (v{changes.from_version}): {r.action}</li>)}
        {changes.edited.map((e) => (
          <li key={`e${e.step}`}>
            ~ step {e.step}{e.from_step !== e.step ? ` (was ${e.from_step})` : ''}:
            {e.changes.map((c) => (
              <div key={c.field} class="change-field"><span class="muted">{c.field}</span> <del class="removed">{c.before || '(none)'}</del> → <ins class="added">{c.after || '(none)'}</ins></div>
            ))}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Tokens and cost per role, then per step; and how each model's structured answers fared. */
export function PlanUsageLine({ usage, reliability, roleLabel }: { usage?: PlanCard['usage']; reliability?: PlanCard['reliability']; roleLabel: (id: string) => string }) {
  const roles = Object.entries(usage?.by_role ?? {});
  const models = Object.entries(reliability ?? {});
  if (!roles.length && !models.length) return null;
  return (
    <details class="plan-section plan-usage" data-plan-usage>
      <summary class="muted">Cost: {roles.length ? roles.map(([r, u]) => `${roleLabel(r)} ${short(u)}`).join(' · ') : 'not counted'}</summary>
      <ul>
        {Object.entries(usage?.by_step ?? {}).map(([n, u]) => <li key={n}>step {n}: {formatUsage(u)} ({u.requests} request{u.requests === 1 ? '' : 's'})</li>)}
        {models.map(([m, r]) => (
          <li key={m} data-reliability={m}>
            {m}: {r.answers} structured answer{r.answers === 1 ? '' : 's'}, {r.parse_failures} unreadable, {r.validation_failures} invalid{r.mean_latency_ms !== undefined ? `, ${(r.mean_latency_ms / 1000).toFixed(1)} s mean` : ''}
          </li>
        ))}
      </ul>
    </details>
  );
}

function short(u: UsageSlice): string {
  return formatUsage(u);
}
