import type { AgentState } from '../../../src/protocol';

const LABEL: Record<AgentState, string> = {
  thinking: 'Thinking…', calling_tool: 'Running a tool…', waiting_on_user: 'Waiting for you', idle: 'Idle',
};

/**
 * `detail` (what the state waits on, e.g. the first token of a large prompt) replaces the bare
 * label; while plan steps run side by side, the host's detail starts with how many run.
 */
export function AgentStateChip({ state, detail }: { state: AgentState; detail?: string | null }) {
  return <span class={`chip state state-${state}`} data-agent-state={state} title={detail ?? undefined}>{detail ? `${detail}…` : LABEL[state] ?? state}</span>;
}
