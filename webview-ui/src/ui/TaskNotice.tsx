import { useState } from 'preact/hooks';
import { postToHost } from '../bridge/vscodeApi';

/**
 * A saved task that could not be opened here, said in words where the user clicked (never only in
 * the log), with the way out: "Take over" asks the window holding it to save it and let go.
 */
export function TaskUnavailable({ notice, onDismiss }: { notice: { taskId: string; reason: string; takeOver: boolean }; onDismiss(): void }) {
  const [asking, setAsking] = useState(false);
  return (
    <div class="task-notice" role="alert" aria-label="Task not opened">
      <p>{notice.reason}</p>
      <div class="actions">
        {notice.takeOver && (
          <button type="button" class="primary" disabled={asking} onClick={() => { setAsking(true); postToHost({ type: 'resume_task', task_id: notice.taskId, take_over: true }); }}>
            {asking ? 'Asking the other window…' : 'Take over'}
          </button>
        )}
        <button type="button" class="secondary" onClick={onDismiss}>Dismiss</button>
      </div>
    </div>
  );
}

/** In place of the composer once another window took this task over: why, and what can be done here. */
export function ReadOnlyBar({ reason, taskId }: { reason: string; taskId: string | undefined }) {
  return (
    <div class="task-notice read-only" role="status" aria-label="Read-only task">
      <p>{reason}</p>
      <div class="actions">
        {taskId && <button type="button" class="secondary" onClick={() => postToHost({ type: 'resume_task', task_id: taskId, take_over: true })}>Take it back</button>}
        <button type="button" class="primary" onClick={() => postToHost({ type: 'new_task' })}>New task</button>
      </div>
    </div>
  );
}
