import type { AgentState } from '../../protocol';
import type { EventStream } from '../events';

/** What the agent is doing now (idle, thinking, calling a tool, waiting on the user), said once per change. */
export class AgentStatus {
  private state: AgentState = 'idle';
  private detail: string | undefined;

  constructor(private readonly events: EventStream) {}

  set(state: AgentState, detail?: string): void {
    if (state === this.state && detail === this.detail) return;
    this.state = state;
    this.detail = detail;
    this.events.emit({ type: 'agent_state', state, ...(detail ? { detail } : {}) });
  }
}
