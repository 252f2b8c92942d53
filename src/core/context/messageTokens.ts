import type { ChatMessage } from './chatMessage';
import { contentText, toolCallsOf } from './chatMessage';
import { countTextTokens } from './tokenCounter';

/**
 * OpenAI's chat format costs a few tokens per message beyond its text (role and separators:
 * 3–4 with the current encodings) and 3 to prime the reply. Counting 4 is the safe side.
 */
const PER_MESSAGE = 4;
const PER_TOOL_CALL = 4;
const REPLY_PRIMING = 3;

export function messageTokens(m: ChatMessage): number {
  let n = PER_MESSAGE + countTextTokens(contentText((m as { content?: unknown }).content));
  for (const c of toolCallsOf(m)) n += PER_TOOL_CALL + countTextTokens(c.function.name) + countTextTokens(c.function.arguments);
  if (m.role === 'tool') n += countTextTokens((m as { tool_call_id: string }).tool_call_id ?? '');
  return n;
}

/** A request's messages with the reply's priming; `tokensOf` lets a caller count each message from its own cache. */
export function messagesTokens(messages: readonly ChatMessage[], tokensOf: (m: ChatMessage) => number = messageTokens): number {
  let n = REPLY_PRIMING;
  for (const m of messages) n += tokensOf(m);
  return n;
}

/** Tool schemas as sent (`tools` in the request). The endpoint renders them differently; JSON is an upper-side estimate. */
export function toolsTokens(tools: readonly unknown[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  return countTextTokens(JSON.stringify(tools)) + 10;
}
