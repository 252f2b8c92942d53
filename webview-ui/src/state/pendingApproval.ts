import type { ChatCard } from './localCards';

export interface PendingApproval {
  callId: string;
  /** Its card (to bring into view). */
  cardId?: string;
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
    return { callId: c.call_id, cardId: c.id, what, ...(c.step ? { step: c.step } : {}) };
  }
  return null;
}


/** Something the run waits on the user for: an approval, or a question's answer. */
export interface PendingDecision {
  /** The card to bring into view. */
  cardId: string;
  kind: 'approval' | 'question';
  /** In a few words: "edit alpha.txt", "run `npm test`", or the question. */
  what: string;
  step?: number;
}

/**
 * Every decision the run waits on, oldest first: with plan steps side by side several may wait at
 * once, each in its own lane, and the cards other steps add can push one far out of view. Looked
 * for back to the user's last message, as for the approval.
 */
export function pendingDecisions(cards: readonly ChatCard[]): PendingDecision[] {
  const out: PendingDecision[] = [];
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i]!;
    if (c.kind === 'text' && c.author === 'user') break;
    const step = (c as { step?: unknown }).step;
    const at = typeof step === 'number' && step >= 1 ? { step } : {};
    if (c.kind === 'tool_call' && c.status === 'pending' && c.approval) {
      const a = c.approval;
      const what = a.kind === 'command' ? `run \`${a.command ?? c.summary}\`` : a.kind === 'mcp' ? `call the MCP tool ${a.tool_name ?? c.tool}` : `${a.kind === 'create' ? 'create' : a.kind === 'delete' ? 'delete' : 'edit'} ${a.path ?? c.summary}`;
      out.push({ cardId: c.id, kind: 'approval', what, ...at });
    } else if (c.kind === 'question' && (c as { status?: unknown }).status === 'waiting') {
      const q = (c as { question?: { question?: unknown } }).question?.question;
      out.push({ cardId: c.id, kind: 'question', what: typeof q === 'string' ? q : 'a question', ...at });
    }
  }
  return out.reverse();
}
