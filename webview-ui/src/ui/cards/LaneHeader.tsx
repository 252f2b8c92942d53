import type { LaneCard } from '../../state/stepLanes';
import { toggleLane } from '../../state/viewStore';
import { useViewStore } from '../storeContext';

/** A plan step's lane: its step, action and state; a click folds or shows the cards the step's run added (the chat's size budget keeps it this bare). */
export function LaneHeader({ lane }: { lane: LaneCard }) {
  const store = useViewStore();
  return (
    <button type="button" class="card group-toggle lane-head" aria-expanded={lane.open} data-lane-step={lane.step_number} onClick={() => toggleLane(store, lane.id)}>
      <span aria-hidden="true">{lane.open ? '▾' : '▸'}</span>
      <span class="step-tag">Step {lane.step_number}</span>
      <span class="lane-action">{lane.action}</span>
      <span class={`chip status-${lane.state}`}>{lane.state}</span>
    </button>
  );
}
