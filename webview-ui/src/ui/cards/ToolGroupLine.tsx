import { groupSummary, type CardGroup } from '../../state/cardGroups';
import { toggleGroup } from '../../state/viewStore';
import { useViewStore } from '../storeContext';

/** One line for a run of reads and searches; opening it shows each call's own card below. */
export function ToolGroupLine({ group, open }: { group: CardGroup; open: boolean }) {
  const store = useViewStore();
  const summary = groupSummary(group);
  return (
    <div class={`card card-tool-group${group.failed ? ' has-failed' : ''}`} role="article" aria-label={`Tool calls: ${summary}`} data-card-kind="tool_group" data-group-size={group.members.length}>
      <button type="button" class="group-toggle" aria-expanded={open ? 'true' : 'false'} title={open ? 'Hide these calls' : `Show the ${group.members.length} calls`} onClick={() => toggleGroup(store, group.leader)}>
        <span class="group-caret" aria-hidden="true">{open ? '▾' : '▸'}</span> <span class="title-glyph" aria-hidden="true">⚙</span> {summary}
      </button>
    </div>
  );
}
