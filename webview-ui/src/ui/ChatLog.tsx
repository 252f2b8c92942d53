/**
 * The chat's cards as the list shows them: each plan step's cards as its own lane under a header
 * (folded ones show the header alone), and the workspace's recent tasks while the chat is empty.
 * Selected from the view store: a new chat frame or a folded lane renders the list again.
 */
import { useMemo } from 'preact/hooks';
import { postToHost } from '../bridge/vscodeApi';
import { laneRows } from '../state/stepLanes';
import type { RecentTask } from '../state/viewStore';
import { useView } from './storeContext';
import { VirtualCardList, type ScrollMemory } from './VirtualCardList';

export function ChatLog({ restore, onScrollMemory }: { restore?: ScrollMemory; onScrollMemory(m: ScrollMemory): void }) {
  const frame = useView((s) => s.chat);
  const closedLanes = useView((s) => s.closedLanes);
  const recent = useView((s) => s.recentTasks);
  const lanes = useMemo(() => laneRows(frame.cards, closedLanes), [frame, closedLanes]);
  return (
    <VirtualCardList
      cards={lanes.rows}
      version={frame.version}
      restore={restore}
      onScrollMemory={onScrollMemory}
      indexOf={lanes.indexOf}
      emptyExtra={recent.length > 0 && <RecentTasks tasks={recent} />}
    />
  );
}

/** The empty chat: the workspace's latest tasks (worded by the host), each resumed with one click. */
function RecentTasks({ tasks }: { tasks: readonly RecentTask[] }) {
  return (
    <nav class="recent" aria-label="Recent tasks">
      <div class="label">Recent tasks</div>
      <ul>
        {tasks.map((t) => (
          <li key={t.id}>
            <button type="button" class="link" onClick={() => postToHost({ type: 'resume_task', task_id: t.id })}>{t.title}</button>
            <div class="muted recent-meta">{t.detail}</div>
          </li>
        ))}
      </ul>
    </nav>
  );
}
