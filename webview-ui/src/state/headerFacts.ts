/**
 * What the header shows of the chat (the role and the one a click switches to, what the agent is
 * doing, the usage, why the role last changed, how the last turn ended, what can be reverted),
 * taken from the chat once per version into the view store's frame. Pure: no DOM, no Preact.
 */
import type { AgentState, RoleInfo } from '../../../src/protocol';
import type { ChatStore, Totals, TurnOutcome } from './chatStore';
import type { ChatCard } from './localCards';

export interface HeaderFacts {
  role: RoleInfo;
  next: RoleInfo;
  agentState: AgentState;
  /** What the state waits on ("Waiting for the model's first token (prompt 1,200 tokens)"). */
  agentDetail: string | null;
  turn: Totals | null;
  task: Totals | null;
  /** Why the role last changed, and a tick that moves with each change (the note shows anew). */
  notice: string | null;
  noticeTick: number;
  lastOutcome: TurnOutcome | null;
  /** Changes of this task that can still be reverted (0 hides "Revert task"). */
  revertible: number;
}

export function headerFacts(chat: ChatStore): HeaderFacts {
  return {
    role: chat.roleInfo,
    next: chat.nextRole,
    agentState: chat.agentState,
    agentDetail: chat.agentDetail,
    turn: chat.turnUsage,
    task: chat.taskUsage,
    notice: chat.roleNotice,
    noticeTick: chat.roleNoticeTick,
    lastOutcome: chat.lastOutcome,
    revertible: chat.revertibleCount(),
  };
}

/** The files the task's revertible changes touched, in the order first changed. */
export function revertibleFiles(cards: readonly ChatCard[]): string[] {
  const files = new Set<string>();
  for (const c of cards) {
    if (c.kind !== 'tool_call' || c.revertible !== true || c.reverted === true) continue;
    // A plan step applied back from its worktree changed several files at once: its arguments name them.
    const named: unknown = typeof c.approval?.path === 'string' ? [c.approval.path] : (c.args as { files?: unknown } | undefined)?.files;
    if (Array.isArray(named)) for (const f of named) if (typeof f === 'string') files.add(f);
  }
  return [...files];
}
