import { useState } from 'preact/hooks';
import type { LaneCard } from '../../state/stepLanes';
import type { LaneCheck } from '../../state/laneCheck';
import { toggleLane } from '../../state/viewStore';
import { useViewStore } from '../storeContext';
import { visibleLine } from '../visibleText';
import { FailedOutput } from './CommandOutput';

/**
 * A plan step's lane: its step, action and state; a click folds or shows the cards the step's run
 * added (the chat's size budget keeps it this bare). Under it, once the step's check ran, the check
 * said once — its command and result (and, until the run's summary quotes it, why it failed) — with
 * its output a click away.
 */
export function LaneHeader({ lane }: { lane: LaneCard }) {
  const store = useViewStore();
  return (
    <div class="lane" data-lane-step={lane.step_number}>
      <button type="button" class="card group-toggle lane-head" aria-expanded={lane.open} onClick={() => toggleLane(store, lane.id)}>
        <span aria-hidden="true">{lane.open ? '▾' : '▸'}</span>
        <span class="step-tag">Step {lane.step_number}</span>
        <span class="lane-action">{lane.action}</span>
        <span class={`chip status-${lane.state}`}>{lane.state}</span>
      </button>
      {lane.check && <LaneCheckLine check={lane.check} />}
    </div>
  );
}

function LaneCheckLine({ check }: { check: LaneCheck }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="lane-check" data-lane-check={check.passed ? 'passed' : 'failed'}>
      <span class={check.passed ? 'ok-text' : 'error-text'} aria-hidden="true">{check.passed ? '✓' : '✗'}</span>{' '}
      check <code>{visibleLine(check.command)}</code>{' '}
      <span class={check.passed ? 'ok-text' : 'error-text'}>{check.passed ? 'passed' : 'failed'}{check.how && ` (${check.how})`}{check.why && ':'}</span>
      {check.why && <> <span class="lane-check-why">{visibleLine(check.why)}</span></>}{' '}
      {/* A check that printed nothing says so: a button that opens nothing would be a click for nothing. */}
      {check.output.trim() === '' ? <span class="muted">· no output</span> : <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>Output</button>}
      {open && (check.passed ? <pre class="raw">{check.output.trimEnd()}</pre> : <FailedOutput text={check.output} />)}
    </div>
  );
}
