import type { PlanDraftCard } from '../../../../src/protocol';
import { formatTime, isoTime } from '../format';
import { StepScopeLines } from './StepScopeLines';

/**
 * The plan while the Planner writes it: the goal and each step as soon as its JSON is complete, an
 * invalid step with its reasons (never dropped). Marked as a draft, with Execute disabled: the plan
 * card that can be executed comes only from the whole plan, validated, and then this card goes.
 */
export function PlanDraftCardView({ card }: { card: PlanDraftCard }) {
  const n = card.steps.length;
  const problems = card.problems ?? [];
  const more = card.more_steps ?? 0;
  const open = card.state === 'writing' || card.state === 'checking';
  // A problem already said under its step is not said again below.
  const underSteps = new Set(card.steps.flatMap((d) => d.problems ?? []));
  const listed = card.state === 'repairing' || card.state === 'writing' ? problems.filter((p) => !underSteps.has(p)) : [];
  const status =
    card.state === 'writing' ? `The Planner is writing this plan${n ? `: ${n} step${n === 1 ? '' : 's'} so far` : ''}…`
    : card.state === 'checking' ? 'The plan arrived; checking it…'
    : card.state === 'repairing' ? `Not valid as a whole, so it cannot be executed: the Planner was sent ${listed.length ? 'these problems' : 'the problems marked above'} to fix${listed.length ? ':' : '.'}`
    : card.state === 'broken' ? (problems[0] ?? 'The plan stopped arriving, so it cannot be executed.')
    : '';
  return (
    <div class="plan plan-draft" data-draft-state={card.state}>
      <div class="card-head">
        <span class="card-title">
          <span class="title-glyph" aria-hidden="true">☰</span> Plan <span class="chip chip-draft" data-plan-draft>draft</span>
          <time class="muted ts" dateTime={isoTime(card.ts)}>{formatTime(card.ts)}</time>
        </span>
      </div>
      {card.goal && <p class="plan-goal"><strong>Goal:</strong> {card.goal}</p>}
      {n > 0 && (
        <ol class="plan-steps">
          {card.steps.map((d) => d.step ? (
            <li key={d.at} class="step step-draft" data-draft-step={d.at}>
              <span class="step-state" aria-hidden="true">○</span>
              <div class="step-body">
                <div class="step-action"><span class="step-no">{d.at}.</span> {d.step.action}</div>
                {d.step.reason && <div class="muted">{d.step.reason}</div>}
                <StepScopeLines step={d.step} />
              </div>
            </li>
          ) : (
            <li key={d.at} class="step step-draft-invalid" data-draft-step={d.at} data-draft-invalid>
              <span class="step-state" title="not a valid step" aria-label={`Step ${d.at}: not valid`}>!</span>
              <div class="step-body">
                <div class="step-action"><span class="step-no">{d.at}.</span> {d.action ?? <span class="muted">(no action)</span>}</div>
                <ul class="warn-text step-why">{(d.problems ?? []).map((p, i) => <li key={i}>{p}</li>)}</ul>
              </div>
            </li>
          ))}
        </ol>
      )}
      {more > 0 && <p class="error-text">{more} more step{more === 1 ? '' : 's'} past the 50 a plan may have: the plan will be refused.</p>}
      <p class={card.state === 'broken' ? 'error-text' : card.state === 'repairing' ? 'warn-text' : 'muted'} data-draft-status>{status}</p>
      {listed.length > 0 && <ul class="error-list">{listed.map((p, i) => <li key={i}>{p}</li>)}</ul>}
      {card.state !== 'broken' && (
        <div class="actions">
          <button type="button" class="primary" disabled title={open ? 'The plan is still being written: it can be executed once the whole plan is checked' : 'This draft is not a valid plan'}>Execute plan</button>
        </div>
      )}
    </div>
  );
}
