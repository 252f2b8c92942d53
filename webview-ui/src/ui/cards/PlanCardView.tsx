import { useState } from 'preact/hooks';
import { PathLink } from './ToolCallCardView';
import type { PlanCard, StepState } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { formatTime, isoTime } from '../format';
import { stepReasonFor } from '../stepReasons';
import { focusOnMount } from '../focusOnMount';
import { agentBusy } from '../agentBusy';
import { executedLabel, planStatus } from '../../state/planStatus';

const STEP_GLYPH: Record<StepState, string> = { pending: '○', running: '◐', done: '✓', unverified: '?', failed: '✗' };

export function PlanCardView({ card }: { card: PlanCard }) {
  const [revising, setRevising] = useState(false);
  const [feedback, setFeedback] = useState('');
  const [confirmRerun, setConfirmRerun] = useState(false);
  const plan = card.plan;
  const status = planStatus(card);
  // Another turn is running (not this plan): Execute would only be refused with "the agent is busy".
  const busy = agentBusy();
  const execute = (): void => {
    setConfirmRerun(false);
    postToHost({ type: 'execute_plan', card_id: card.id });
  };

  const body = (
    <>
      {plan ? (
        <>
          <p class="plan-goal"><strong>Goal:</strong> {plan.goal}</p>
          <ol class="plan-steps">
            {plan.steps.map((s) => {
              const state: StepState = card.step_states[String(s.step_number)] ?? 'pending';
              const evidence = card.step_evidence?.[String(s.step_number)];
              // Why a step is not done: its evidence on the card (kept by history), else the event's reason.
              const why = state === 'failed' || state === 'unverified'
                ? (evidence?.why.length ? evidence.why : [stepReasonFor(card.id, s.step_number)].filter((r): r is string => !!r))
                : [];
              return (
                <li key={s.step_number} class={`step step-${state}`} data-step-state={state}>
                  <span class="step-state" title={state} aria-label={`Step ${s.step_number}: ${state}`}>{STEP_GLYPH[state]}</span>
                  <div class="step-body">
                    <div class="step-action"><span class="step-no">{s.step_number}.</span> {s.action}</div>
                    {s.reason && <div class="muted">{s.reason}</div>}
                    <div class="step-meta">
                      {s.files.map((f) => <code key={f} class="file"><PathLink path={f} /></code>)}
                      {s.tools_needed.length > 0 && <span class="muted">{s.tools_needed.join(', ')}</span>}
                      {s.estimated_time && <span class="muted">≈ {s.estimated_time}</span>}
                    </div>
                    {(s.commands?.length ?? 0) > 0 && (
                      <div class="step-meta">{s.commands!.map((c) => <code key={c} class="command">$ {c}</code>)}</div>
                    )}
                    {s.check && <div class="step-meta muted">check: <code>{s.check}</code></div>}
                    {why.length > 0 && (
                      <ul class={state === 'failed' ? 'error-text step-why' : 'muted step-why'} data-step-why>
                        {why.map((w, i) => <li key={i}>{w}</li>)}
                      </ul>
                    )}
                    {evidence?.check && (
                      <details class="step-check" data-step-check>
                        <summary>check <code>{evidence.check.command}</code> {evidence.check.exit_code === null ? 'did not finish' : `exited ${evidence.check.exit_code}`}</summary>
                        <pre class="raw">{evidence.check.output || '(no output)'}</pre>
                      </details>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
          {plan.risks.length > 0 && (
            <div class="plan-section"><strong>Risks</strong><ul>{plan.risks.map((r, i) => <li key={i}>{r}</li>)}</ul></div>
          )}
          {plan.prerequisites.length > 0 && (
            <div class="plan-section"><strong>Prerequisites</strong><ul>{plan.prerequisites.map((r, i) => <li key={i}>{r}</li>)}</ul></div>
          )}
          {plan.estimated_total_time && <p class="muted">Estimated total: {plan.estimated_total_time}</p>}
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
              <span class={`chip ${status.failed ? 'status-error' : status.done === status.total ? 'status-done' : 'status-unverified'}`} data-plan-status="executed">{executedLabel(status)}</span>
              {!confirmRerun && <button type="button" class="secondary" onClick={() => setConfirmRerun(true)}>Run again…</button>}
            </>
          ) : (
            <button type="button" class="primary" disabled={status.kind !== 'ready' || busy} title={busy && status.kind === 'ready' ? 'Tandem is working: stop it or wait, then execute' : undefined} onClick={execute}>
              Execute plan
            </button>
          )}
          <button type="button" class="secondary" aria-expanded={revising} onClick={() => setRevising(!revising)}>Revise</button>
          {status.kind === 'executing' && <span class="chip chip-running" data-plan-status="executing">Executing…</span>}
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
            <button type="button" class="primary" disabled={busy} onClick={execute}>Run again</button>
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
            if (!text) return;
            postToHost({ type: 'revise_plan', card_id: card.id, feedback: text.slice(0, 10_000) });
            setFeedback('');
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
          <button type="submit" class="primary" disabled={!feedback.trim()}>Send revision</button>
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
