import type { Card } from '../../protocol';

const INTERRUPTED = 'Interrupted: the task was closed before this call finished.';
const PLAN_INTERRUPTED = 'Interrupted: the task was closed while the Planner wrote this plan, so it cannot be executed.';
// A step that ran in a worktree of its own wrote nothing to the workspace: its changes there are kept as a patch when Tandem next starts (removeLeftoverWorktrees).
const STEP_INTERRUPTED = 'interrupted: the task was closed while this step ran; its changes so far are kept (revert them on its calls), or, if it ran beside another step in a workspace of its own (a copy-on-write view or a git worktree), not applied but saved as a patch (Tandem\'s log names it)';

/**
 * A task saved while it ran (VS Code closed or reloaded mid-turn) comes back with cards frozen in
 * their running states: a plan still "executing" (Execute disabled for good), a step "running", a
 * tool call "needs approval" whose Approve nothing waits for any more. Nothing of that run is alive
 * after a resume, so those cards are shown as what they are: ended. A step that was running is
 * shown stopped as interrupted (neither done nor failed: nobody judged it), its changes kept: Continue from that step (or `--resume ID --plan
 * FILE` in the CLI) runs it again from the workspace as it is; the done steps stay done.
 */
export function settleInterruptedCards(cards: readonly Card[]): Card[] {
  return cards.map((c) => {
    if (c.kind === 'plan' && (c.executing || Object.values(c.step_states).includes('running'))) {
      const running = Object.entries(c.step_states).filter(([, v]) => v === 'running').map(([k]) => k);
      const steps = Object.fromEntries(Object.entries(c.step_states).map(([k, v]) => [k, v === 'running' ? 'stopped' : v]));
      const evidence = { ...(c.step_evidence ?? {}), ...Object.fromEntries(running.map((k) => [k, { why: [STEP_INTERRUPTED] }])) };
      return { ...c, executing: false, step_states: steps, ...(running.length ? { step_evidence: evidence } : {}) };
    }
    if (c.kind === 'tool_call' && (c.status === 'pending' || c.status === 'running' || c.status === 'approved')) {
      // Ended by the window going away, not by anything failing: stopped, as a Stop would have.
      return { ...c, status: 'stopped', error: c.error ?? INTERRUPTED };
    }
    if (c.kind === 'text' && c.streaming) return { ...c, streaming: false };
    if (c.kind === 'question' && c.status === 'waiting') return { ...c, status: 'cancelled' };
    // A plan still being written when the task closed never arrived whole: nothing of it can be executed.
    if (c.kind === 'plan_draft' && (c.state === 'writing' || c.state === 'checking')) return { ...c, state: 'broken', problems: [PLAN_INTERRUPTED] };
    return c;
  });
}
