import { postToHost } from '../bridge/vscodeApi';

/**
 * A saved task that could not be opened here (`taskId` held by another window), or this one after
 * another window took it over (`readOnly`): why, in words where the user clicked, with the way out.
 * Take over asks the window holding it to save it and let go.
 */
export function TaskNotice({ reason, taskId, readOnly, onDismiss }: { reason: string; taskId: string | undefined; readOnly?: boolean; onDismiss?: () => void }) {
  return (
    <div class="task-notice" role={readOnly ? 'status' : 'alert'} aria-label={readOnly ? 'Read-only task' : 'Task not opened'}>
      <p>{reason}</p>
      {taskId && <button type="button" class="primary" onClick={(e) => { (e.currentTarget as HTMLButtonElement).disabled = true; postToHost({ type: 'resume_task', task_id: taskId, take_over: true }); }}>{readOnly ? 'Take it back' : 'Take over'}</button>}{' '}
      <button type="button" class="secondary" onClick={readOnly ? () => postToHost({ type: 'new_task' }) : onDismiss}>{readOnly ? 'New task' : 'Dismiss'}</button>
    </div>
  );
}
