import type { AgentState } from '../../../src/protocol';

const LABEL: Record<AgentState, string> = {
  thinking: 'Thinking…', calling_tool: 'Running a tool…', waiting_on_user: 'Waiting for you', idle: 'Idle',
};

/**
 * `detail` (what the state waits on, e.g. the first token of a large prompt) replaces the bare
 * label; while a plan runs, the chip also says how many of its steps are running.
 */
export function AgentStateChip({ state, detail, running = 0 }: { state: AgentState; detail?: string | null; running?: number }) {
  const steps = running ? ` · ${running} step${running > 1 ? 's' : ''} running` : '';
  return <span class={`chip state state-${state}`} data-agent-state={state} title={detail ?? undefined}>{detail ? `${detail}…` : LABEL[state] ?? state}{steps}</span>;
}
