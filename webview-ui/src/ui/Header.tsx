import { useEffect, useState } from 'preact/hooks';
import type { AgentState, RoleInfo } from '../../../src/protocol';
import { postToHost } from '../bridge/vscodeApi';
import type { Totals, TurnOutcome } from '../state/chatStore';
import { AgentStateChip } from './AgentStateChip';
import { formatUsage } from './format';
import { focusOnMount } from './focusOnMount';

interface Props {
  /** The role in force, and the one a click switches to (the next in the role table). */
  role: RoleInfo;
  next: RoleInfo;
  agentState: AgentState;
  turn: Totals | null;
  task: Totals | null;
  notice: string | null;
  noticeTick: number;
  lastOutcome: TurnOutcome | null;
  /** Changes of this task that can still be reverted (0 hides "Revert task"). */
  revertible: number;
  busy: boolean;
}

const OUTCOME_LABEL: Partial<Record<TurnOutcome, string>> = { stopped: 'stopped', error: 'ended with an error', limit: 'stopped at the tool-call limit' };

const NOTICE_MS = 12_000;

export function Header({ role, next, agentState, turn, task, notice, noticeTick, lastOutcome, revertible, busy }: Props) {
  const [confirmRevert, setConfirmRevert] = useState(false);
  useEffect(() => { if (revertible === 0) setConfirmRevert(false); }, [revertible]);
  // Why the role changed matters when it happens; after a while it is just noise.
  const [shownTick, setShownTick] = useState(-1);
  useEffect(() => {
    if (!notice) return;
    setShownTick(noticeTick);
    const t = setTimeout(() => setShownTick(-1), NOTICE_MS);
    return () => clearTimeout(t);
  }, [noticeTick]);
  return (
    <header class="header">
      <div class="header-row">
        <button
          type="button"
          class={`role role-${role.tone}`}
          aria-label="Role"
          title={`Role: ${role.label} (${role.access}). Click to switch to ${next.label}.`}
          data-role={role.id}
          onClick={() => postToHost({ type: 'set_role', role: next.id })}
        >
          <span aria-hidden="true">{role.glyph}</span> {role.label}
        </button>
        <AgentStateChip state={agentState} />
        {agentState === 'idle' && lastOutcome && OUTCOME_LABEL[lastOutcome] && <span class="muted" data-turn-outcome={lastOutcome}>Last turn {OUTCOME_LABEL[lastOutcome]}</span>}
        <span class="spacer" />
        {revertible > 0 && !confirmRevert && (
          <button
            type="button"
            class="secondary revert-task"
            disabled={busy}
            title={busy ? 'Stop or wait for the run to end before reverting' : `Undo every change the agent made in this task (${revertible})`}
            onClick={() => setConfirmRevert(true)}
          >
            <span aria-hidden="true">↶</span> Revert task
          </button>
        )}
      </div>
      {confirmRevert && revertible > 0 && (
        <div
          class="confirm"
          role="group"
          aria-label="Revert the whole task"
          // Escape here cancels the confirmation; it must not reach the chat-wide Escape (Stop).
          onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); setConfirmRevert(false); } }}
        >
          <span>Revert {revertible === 1 ? 'the change' : `all ${revertible} changes`} the agent made in this task? Files edited since are left alone and the revert is refused.</span>
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={() => {
                setConfirmRevert(false);
                postToHost({ type: 'revert_task' });
              }}
            >
              Revert all
            </button>
            <button type="button" class="secondary" ref={focusOnMount} onClick={() => setConfirmRevert(false)}>Cancel</button>
          </div>
        </div>
      )}
      {(turn || task) && (
        <div class="usage-line muted" aria-label="Usage">
          {turn && <span title="This turn">Turn: {formatUsage(turn)}</span>}
          {task && <span title="This task">Task: {formatUsage(task)}</span>}
        </div>
      )}
      {notice && shownTick === noticeTick && <div class="notice" role="status">Switched to the {role.label}: {notice}</div>}
    </header>
  );
}
