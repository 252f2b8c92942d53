import { withAttachments } from '../mentions/attachmentText';
import type { Card, ToolCallCard } from '../../protocol';
import type { ChatMessage } from '../context/chatMessage';
import { withCallsSuperseded } from '../context/conversation';
import { editedPlanNote } from '../plans/editedPlanNote';

/** System notes shown to the user only: what Tandem did to fit the window, waits, failed hooks. */
const UNSENT_NOTES: ReadonlySet<string | undefined> = new Set(['context', 'context_window', 'condensed', 'retry', 'hook_failed']);
import { proposePlanTool } from '../tools/proposePlan';

/** An error card's `failure` when a UserPromptSubmit hook blocked the user's prompt: it never reached the model. */
export const PROMPT_BLOCKED = 'prompt_blocked';

/** The user text cards a hook blocked (each is the last user text before its 'prompt_blocked' error card). */
function blockedPrompts(cards: readonly Card[]): Set<string> {
  const blocked = new Set<string>();
  let lastUser: string | undefined;
  for (const c of cards) {
    if (c.kind === 'text' && c.author === 'user') lastUser = c.id;
    else if (c.kind === 'error' && c.failure === PROMPT_BLOCKED && lastUser) {
      blocked.add(lastUser);
      lastUser = undefined;
    }
  }
  return blocked;
}

function toolContent(c: ToolCallCard): string {
  if (c.status === 'done') return c.result ?? '(no output)';
  if (c.status === 'rejected') return c.error ?? 'The user rejected this call.';
  if (c.error) return c.error;
  // Pending/approved/running when the task was saved: the process ended before the call finished.
  return `This ${c.tool} call did not finish (the session ended while it was ${c.status}); check its effect before relying on it.`;
}

/**
 * The conversation for the model, rebuilt from a saved task's cards so a resumed task continues
 * with its earlier turns (the history stores each text once, as cards, not a second time as
 * messages). The system prompt is the loop's: not included here.
 *
 * - user text → user; assistant text followed by tool-call cards → one assistant message with
 *   `tool_calls`, then one tool message per call (its result, error or rejection). The provider
 *   fields kept on the cards (thought signatures, reasoning_content, …) go back on them verbatim.
 * - a plan card not produced by a `propose_plan` call → the plan as assistant JSON. A version the
 *   user edited on the card (its provenance says so) is one of those, even right after the call;
 *   once it ran, the earlier `propose_plan` arguments are superseded as they were live (Execute),
 *   so a resumed Actor is never briefed with the steps the user changed.
 * - a question answered outside a tool call → a user message with the answer.
 * - system notes (reverts, a stopped run) → user messages marked as notes; notes about the context
 *   itself (condensing, the window) and retry waits are not conversation and are skipped.
 * - the cards of a plan step that ran beside others (`branch`) were that step's own conversation: left out.
 * Adjacent user messages are merged (strict chat templates want alternation).
 */
export function rebuildMessages(cards: readonly Card[], provenance: Readonly<Record<string, { path: string }>> = {}): ChatMessage[] {
  let out: ChatMessage[] = [];
  let pendingText: string | undefined;
  let pendingFields: Record<string, unknown> | undefined;
  let calls: ToolCallCard[] = [];
  // A nested AGENTS.md went to the model with the tool results of the calls that reached its folder.
  let nested: string[] = [];
  const flushAssistant = () => {
    if (pendingText === undefined && calls.length === 0) return;
    // Provider fields go back as the live loop sent them (some providers reject the request without).
    const fields = pendingFields ?? calls[0]?.message_fields;
    out.push({
      ...(fields ?? {}),
      role: 'assistant',
      content: pendingText ?? null,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              ...(c.provider_fields ?? {}),
              id: c.call_id,
              type: 'function' as const,
              function: { name: c.tool, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) },
            })),
          }
        : {}),
    } as ChatMessage);
    for (const c of calls) out.push({ role: 'tool', tool_call_id: c.call_id, content: toolContent(c) });
    const last = out[out.length - 1];
    if (nested.length && last?.role === 'tool') last.content = `${String(last.content)}\n\n${nested.join('\n\n')}`;
    nested = [];
    pendingText = undefined;
    pendingFields = undefined;
    calls = [];
  };
  const user = (text: string) => {
    flushAssistant();
    const prev = out[out.length - 1];
    if (prev && prev.role === 'user' && typeof prev.content === 'string') out[out.length - 1] = { role: 'user', content: `${prev.content}\n\n${text}` };
    else out.push({ role: 'user', content: text });
  };
  let lastTool: string | undefined;
  const blocked = blockedPrompts(cards);

  for (const c of cards) {
    // A step that ran beside others had a conversation of its own (its Actor saw the goal and its step only).
    if ('branch' in c && c.branch) continue;
    switch (c.kind) {
      case 'text':
        if (c.author === 'user') {
          if (!blocked.has(c.id)) user(withAttachments(c.text, c.attachments));
        }
        else if (c.author === 'assistant') {
          if (calls.length || pendingText !== undefined) flushAssistant();
          pendingText = c.text;
          pendingFields = c.provider_fields;
        } else if (!UNSENT_NOTES.has(c.note)) user(`[Note from Tandem] ${c.text}`);
        break;
      case 'tool_call':
        calls.push(c);
        lastTool = c.tool;
        break;
      case 'plan': {
        const edited = provenance[c.id]?.path === 'user_edit';
        if ((lastTool !== 'propose_plan' || edited) && c.plan) {
          flushAssistant();
          const ran = c.executing === true || Object.values(c.step_states).some((st) => st !== 'pending');
          if (edited && ran) out = withCallsSuperseded(out, proposePlanTool.name, editedPlanNote(c.version));
          out.push({ role: 'assistant', content: `Plan v${c.version}:\n${JSON.stringify(c.plan)}` });
        }
        break;
      }
      case 'question':
        if (lastTool !== 'ask_question' && c.status === 'answered') user(`Answer to "${c.question.question}": ${c.answer ?? ''}`);
        break;
      case 'instructions':
        // The workspace-wide ones are the system prompt's (read again on resume); a nested one was conversation.
        if (c.nested) {
          if (calls.length) nested.push(c.text);
          else user(c.text);
        }
        break;
      case 'usage':
        // A usage card closes one model response: calls after it belong to the next assistant message.
        if (calls.length) flushAssistant();
        break;
      default:
        break;
    }
    if (c.kind !== 'tool_call' && c.kind !== 'plan' && c.kind !== 'question' && c.kind !== 'usage' && c.kind !== 'agent_state' && c.kind !== 'instructions' && c.kind !== 'facts' && c.kind !== 'learned') lastTool = undefined;
  }
  flushAssistant();
  return out;
}
