import type { AgentState } from '../../../src/protocol';

const LABEL: Record<AgentState, string> = {
  thinking: 'Thinking…', calling_tool: 'Running a tool…', waiting_on_user: 'Waiting for you', idle: 'Idle',
};

export function AgentStateChip({ state }: { state: AgentState }) {
  return <span class={`chip state state-${state}`} data-agent-state={state}>{LABEL[state] ?? state}</span>;
}
