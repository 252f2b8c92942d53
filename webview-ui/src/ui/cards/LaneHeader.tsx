import type { LaneCard } from '../../state/stepLanes';
import { toggleLane } from '../../state/viewStore';
import { useView, useViewStore } from '../storeContext';

const STATE_LABEL: Record<string, string> = { pending: 'waiting', running: 'running', done: 'done', failed: 'failed', unverified: 'unverified' };

/** A plan step's lane: its step, action and state; a click folds or shows the cards the step's run added. */
export function LaneHeader({ lane }: { lane: LaneCard }) {
  const store = useViewStore();
  const step = useView((s) => s.chat.laneStep(lane.step_number), (a, b) => a?.action === b?.action && a?.state === b?.state);
  const state = step?.state ?? 'pending';
  return (
    <button
      type="button"
      class={`lane-head lane-${state}`}
      aria-expanded={lane.open}
      data-lane-step={lane.step_number}
      title={lane.open ? 'Fold this step\'s cards' : 'Show this step\'s cards'}
      onClick={() => toggleLane(store, lane.id)}
    >
      <span class="lane-caret" aria-hidden="true">{lane.open ? '▾' : '▸'}</span>
      <span class="lane-step">Step {lane.step_number}</span>
      {step && <span class="lane-action">{step.action}</span>}
      <span class={`chip lane-state status-${state}`}>{STATE_LABEL[state] ?? state}</span>
      <span class="muted lane-count">{lane.count} card{lane.count === 1 ? '' : 's'}</span>
    </button>
  );
}
