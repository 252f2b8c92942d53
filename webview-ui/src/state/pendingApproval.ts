import type { ChatCard } from './localCards';

export interface PendingApproval {
  callId: string;
  /** What waits, in a few words ("edit alpha.txt", "run `npm test`"). */
  what: string;
  /** The plan step that asks, when a step's run does. */
  step?: number;
}

/**
 * The approval the agent waits on, if any: the latest tool card that asks (status `pending` with
 * what is asked). Looked for from the end, and only back to the user's last message: an approval
 * is always asked after it.
 */
export function pendingApproval(cards: readonly ChatCard[]): PendingApproval | null {
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i]!;
    if (c.kind === 'text' && c.author === 'user') return null;
    if (c.kind !== 'tool_call' || c.status !== 'pending' || !c.approval) continue;
    const a = c.approval;
    const what = a.kind === 'command' ? `run \`${a.command ?? c.summary}\`` : a.kind === 'mcp' ? `call the MCP tool ${a.tool_name ?? c.tool}` : `${a.kind === 'create' ? 'create' : a.kind === 'delete' ? 'delete' : 'edit'} ${a.path ?? c.summary}`;
    return { callId: c.call_id, what, ...(c.step ? { step: c.step } : {}) };
  }
  return null;
}

