import { useState } from 'preact/hooks';
import type { PlanCard, StepState } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { formatTime, formatUsage, isoTime } from '../format';
import { focusOnMount } from '../focusOnMount';
import { sameItems, useView } from '../storeContext';
import { executedLabel, planStatus } from '../../state/planStatus';
import { PRODUCT_ROLE_INFO } from '../../../../src/protocol/roleRegistry';
import { PlanStepEditor, editedStep } from './PlanStepEditor';
import { ConcernList, PlanReviewBlock, PlanUsageLine, ProvenanceDetails, VerdictChip, VersionChanges } from './PlanReviewParts';
import { RunTogetherLine } from './RunTogetherLine';
import { StepScopeLines } from './StepScopeLines';
import { stepCheckVerdict, type StepCheckVerdict } from '../../state/stepCheckVerdict';

const roleLabel = (id: string) => PRODUCT_ROLE_INFO.find(id)?.label ?? id;

const STEP_GLYPH: Record<StepState, string> = { pending: '○', running: '◐', done: '✓', unverified: '?', failed: '✗', stopped: '■' };

/** A step's check once it ran: "check: `npm test` failed", opened, its output (a check that printed nothing opens nothing). */
function StepCheckLine({ v }: { v: StepCheckVerdict }) {
  const line = <><span class="scope-label">check:</span> <code>{v.command}</code> <span class={v.passed ? 'ok-text' : 'error-text'}>{v.result}</span></>;
  if (v.output.trim() === '') return <div class="step-check" data-step-check={v.passed ? 'passed' : 'failed'}>{line} <span class="muted">· no output</span></div>;
  return (
    <details class="step-check" data-step-check={v.passed ? 'passed' : 'failed'}>
      <summary>{line}</summary>
      <pre class="raw">{v.output}</pre>
    </details>
  );
}

export function PlanCardView({ card }: { card: PlanCard }) {
  const [revising, setRevising] = useState(false);
  const [feedback, setFeedback] = useState('');
  const [confirmRerun, setConfirmRerun] = useState(false);
  /** The user's comments on single steps, sent together with the next Revise. */
  const [comments, setComments] = useState<Record<number, string>>({});
  const [commenting, setCommenting] = useState<number | undefined>(undefined);
  /** "Implement with changes": the step open as a form (one at a time: a save makes a new version). */
  const [editing, setEditing] = useState(() => editedStep(card));
  const plan = card.plan;
  const status = planStatus(card);
  // Another turn is running (not this plan): Execute would only be refused with "the agent is busy".
  const busy = useView((s) => s.chat.busy);
  // Why each step failed, from step_failed (by position in the plan's steps).
  const stepReasons = useView((s) => (card.plan?.steps ?? []).map((st) => s.chat.stepReason(card.id, st.step_number)), sameItems);
  const execute = (fromStep?: number): void => {
    setConfirmRerun(false);
    postToHost({ type: 'execute_plan', card_id: card.id, ...(fromStep !== undefined ? { from_step: fromStep } : {}) });
  };
  const review = card.review;
  // A verdict other than ok stands until the user goes on regardless (Execute anyway): never silently.
  const reviewObjects = !!review && review.verdict?.verdict !== 'ok' && !review.overridden && !!review.verdict;
  const stepComments = Object.entries(comments).filter(([, t]) => t.trim()).map(([n, t]) => ({ step: Number(n), text: t.trim().slice(0, 4000) }));
  const replanWanted = status.kind === 'executed' && (status.failed > 0 || !!card.halted || Object.values(card.step_reviews ?? {}).some((r) => r.verdict?.verdict === 'replan' && !r.overridden));
  const next = status.kind === 'executed' ? status.next : undefined;

  const body = (
    <>
      {plan ? (
        <>
          {card.amended && <p class="plan-amended" data-plan-amended>⚑ {card.amended}</p>}
          <p class="plan-goal"><strong>Goal:</strong> {plan.goal}</p>
          {card.replan_of !== undefined && <p class="muted" data-replan-of>Replans v{card.replan_of}: the steps already carried out are kept as they ended.</p>}
          {card.changes && <VersionChanges changes={card.changes} />}
          {review && <PlanReviewBlock review={review} />}
          <RunTogetherLine card={card} />
          <ol class="plan-steps">
            {plan.steps.map((s, at) => {
              if (editing === s.step_number && status.kind === 'ready') {
                return <li key={s.step_number} class="step"><PlanStepEditor card={card} step={s} onClose={() => setEditing(undefined)} /></li>;
              }
              const state: StepState = card.step_states[String(s.step_number)] ?? 'pending';
              const evidence = card.step_evidence?.[String(s.step_number)];
              const checked = stepCheckVerdict(evidence);
              // Why a step is not done: its evidence on the card (kept by history), else the event's
              // reason; the check's own verdict is said on its line, not again here.
              const why = state === 'failed' || state === 'unverified' || state === 'stopped'
                ? (evidence?.why.length ? checked?.why ?? evidence.why : [stepReasons[at]].filter((r): r is string => !!r && !(checked && r.includes(`\`${checked.command}\``))))
                : [];
              const concerns = review?.verdict?.concerns.filter((c) => c.step === s.step_number) ?? [];
              const stepReview = card.step_reviews?.[String(s.step_number)];
              const stepUsage = card.usage?.by_step[String(s.step_number)];
              const comment = comments[s.step_number];
              return (
                <li key={s.step_number} class={`step step-${state}`} data-step-state={state}>
                  <span class="step-state" title={state} aria-label={`Step ${s.step_number}: ${state}`}>{STEP_GLYPH[state]}</span>
                  <div class="step-body">
                    <div class="step-action"><span class="step-no">{s.step_number}.</span> {s.action}</div>
                    {s.reason && <div class="muted">{s.reason}</div>}
                    <StepScopeLines step={s} check={checked && <StepCheckLine v={checked} />} />
                    {why.length > 0 && (
                      <ul class={state === 'failed' ? 'error-text step-why' : 'muted step-why'} data-step-why>
                        {why.map((w, i) => <li key={i}>{w}</li>)}
                      </ul>
                    )}
                    {concerns.length > 0 && <ConcernList concerns={concerns} />}
                    {stepReview && (
                      <div class="step-review" data-step-review={stepReview.verdict?.verdict ?? 'none'}>
                        <VerdictChip review={stepReview} what="Reviewer" />
                        {stepReview.verdict && <span class="muted"> {stepReview.verdict.reasons.join(' ')}</span>}
                        {stepReview.verdict && stepReview.verdict.concerns.length > 0 && <ConcernList concerns={stepReview.verdict.concerns} />}
                        <ProvenanceDetails provenance={stepReview.provenance} />
                      </div>
                    )}
                    {stepUsage && <div class="step-meta muted" data-step-usage>{formatUsage(stepUsage)}</div>}
                    {!card.superseded && commenting !== s.step_number && (
                      comment?.trim()
                        ? <div class="step-comment" data-step-comment>✎ {comment} <button type="button" class="link" onClick={() => setCommenting(s.step_number)}>edit</button></div>
                        : !card.executing && <button type="button" class="link step-comment-add" aria-label={`Comment on step ${s.step_number}`} onClick={() => setCommenting(s.step_number)}>Comment</button>
                    )}
                    {status.kind === 'ready' && editing === undefined && <button type="button" class="link step-comment-add" aria-label={`Edit step ${s.step_number}`} onClick={() => setEditing(s.step_number)}>Edit</button>}
                    {commenting === s.step_number && (
                      <textarea
                        ref={focusOnMount}
                        class="step-comment-input"
                        aria-label={`Your comment on step ${s.step_number}`}
                        placeholder="A comment on this step, sent with Revise (Enter to keep, Esc to close)"
                        rows={2}
                        value={comment ?? ''}
                        onInput={(e) => { const v = (e.currentTarget as HTMLTextAreaElement).value; setComments((c) => ({ ...c, [s.step_number]: v })); }}
                        onKeyDown={(e) => {
                          if ((e.key === 'Enter' && !e.shiftKey && !e.isComposing) || e.key === 'Escape') {
                            e.preventDefault();
                            e.stopPropagation();
                            setCommenting(undefined);
                          }
                        }}
                        onBlur={() => setCommenting(undefined)}
                      />
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
          {status.kind === 'ready' && editing === 0 && <PlanStepEditor card={card} onClose={() => setEditing(undefined)} />}
          {status.kind === 'ready' && editing === undefined && plan.steps.length < 50 && <button type="button" class="link step-comment-add" data-add-step onClick={() => setEditing(0)}>Add a step</button>}
          {plan.risks.length > 0 && (
            <div class="plan-section"><strong>Risks</strong><ul>{plan.risks.map((r, i) => <li key={i}>{r}</li>)}</ul></div>
          )}
          {plan.prerequisites.length > 0 && (
            <div class="plan-section"><strong>Prerequisites</strong><ul>{plan.prerequisites.map((r, i) => <li key={i}>{r}</li>)}</ul></div>
          )}
          {plan.estimated_total_time && <p class="muted">Estimated total: {plan.estimated_total_time}</p>}
          <PlanUsageLine usage={card.usage} reliability={card.reliability} roleLabel={roleLabel} />
          {card.halted && <p class="warn-text" data-plan-halted>{card.halted}</p>}
        </>
      ) : (
        <div class="plan-invalid">
          <p class="error-text">This plan could not be validated, so it cannot be executed.</p>
          {card.errors.length > 0 && <ul class="error-list">{card.errors.map((e, i) => <li key={i}>{e}</li>)}</ul>}
          {card.raw_text && <pre class="raw">{card.raw_text}</pre>}
        </div>
      )}
      {plan && card.errors.length > 0 && (
        <details class="plan-section"><summary>Validation notes ({card.errors.length})</summary><ul>{card.errors.map((e, i) => <li key={i}>{e}</li>)}</ul></details>
      )}
      {!card.superseded && (
        <div class="actions">
          {status.kind === 'executed' ? (
            <>
              <span class={`chip ${status.failed ? 'status-error' : status.done === status.total ? 'status-done' : status.stopped ? 'status-stopped' : 'status-unverified'}`} data-plan-status="executed">{executedLabel(status)}</span>
              {replanWanted && <button type="button" class="primary" disabled={busy} onClick={() => postToHost({ type: 'replan', card_id: card.id })}>Replan</button>}
              {next !== undefined && (
                <button type="button" class={replanWanted ? 'secondary' : 'primary'} disabled={busy} onClick={() => execute(next)}>Continue from step {next}</button>
              )}
              {!confirmRerun && <button type="button" class="secondary" onClick={() => setConfirmRerun(true)}>Run again…</button>}
            </>
          ) : (
            <button type="button" class="primary" disabled={status.kind !== 'ready' || busy || editing !== undefined} title={editing !== undefined ? 'Save or cancel your edit of the step first' : busy && status.kind === 'ready' ? 'Tandem is working: stop it or wait, then execute' : reviewObjects ? 'The Reviewer has concerns: execute regardless' : undefined} onClick={() => execute()}>
              {reviewObjects ? 'Execute anyway' : 'Execute plan'}
            </button>
          )}
          {/* A version that has not run, or one with steps still to run (a replan's), can be reviewed before going on. */}
          {(status.kind === 'ready' || (next !== undefined && !replanWanted)) && (
            <button type="button" class="secondary" disabled={busy} onClick={() => postToHost({ type: 'review_plan', card_id: card.id })}>{review ? 'Review again' : 'Review'}</button>
          )}
          <button type="button" class="secondary" aria-expanded={revising} onClick={() => setRevising(!revising)}>Revise{stepComments.length ? ` (${stepComments.length} comment${stepComments.length === 1 ? '' : 's'})` : ''}</button>
          {status.kind === 'executing' && <span class="chip chip-running" data-plan-status="executing">Executing…</span>}
          {/* The verdict again by the buttons the user clicked (the card's top may be far above). */}
          {review && <VerdictChip review={review} what="Reviewer" />}
        </div>
      )}
      {confirmRerun && status.kind === 'executed' && (
        <div
          class="confirm"
          role="group"
          aria-label="Run the plan again"
          onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); setConfirmRerun(false); } }}
        >
          <span>Run every step again? Edits and commands are made a second time.</span>
          <div class="actions">
            <button type="button" class="primary" disabled={busy} onClick={() => execute()}>Run again</button>
            <button type="button" class="secondary" ref={focusOnMount} onClick={() => setConfirmRerun(false)}>Cancel</button>
          </div>
        </div>
      )}
      {revising && !card.superseded && (
        <form
          class="revise"
          onSubmit={(e) => {
            e.preventDefault();
            const text = feedback.trim();
            if (!text && !stepComments.length) return;
            postToHost({ type: 'revise_plan', card_id: card.id, feedback: text.slice(0, 10_000), ...(stepComments.length ? { step_comments: stepComments } : {}) });
            setFeedback('');
            setComments({});
            setRevising(false);
          }}
        >
          <textarea
            ref={focusOnMount}
            aria-label="What should change in the plan"
            placeholder="What should change? (Enter to send, Shift+Enter for a new line, Esc to close)"
            rows={3}
            value={feedback}
            onInput={(e) => setFeedback((e.currentTarget as HTMLTextAreaElement).value)}
            onKeyDown={(e) => {
              // Like the composer: Enter sends, Shift+Enter is a new line.
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
                return;
              }
              // Escape here cancels the revision; it must not reach the chat-wide Escape (Stop).
              if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                setRevising(false);
              }
            }}
          />
          {stepComments.length > 0 && <span class="muted">With your comments on step{stepComments.length === 1 ? '' : 's'} {stepComments.map((c) => c.step).join(', ')}.</span>}
          <button type="submit" class="primary" disabled={!feedback.trim() && !stepComments.length}>Send revision</button>
        </form>
      )}
    </>
  );

  const header = (
    <span class="card-title">
      <span class="title-glyph" aria-hidden="true">☰</span> Plan <span class="muted">v{card.version}</span>
      <time class="muted ts" dateTime={isoTime(card.ts)}>{formatTime(card.ts)}</time>
    </span>
  );

  if (card.superseded) {
    return (
      <details class="plan superseded">
        <summary>{header} <span class="chip">superseded</span></summary>
        {body}
      </details>
    );
  }
  return (
    <div class="plan">
      <div class="card-head">{header}</div>
      {body}
    </div>
  );
}
