import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** The messages the loop sends: OpenAI chat-completions shape. */
export type ChatMessage = ChatCompletionMessageParam;

/** The text of a message's content (string, or an array of parts of which the text parts count). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && 'text' in p && typeof (p as { text: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join('');
  }
  return '';
}

export interface ToolCallLike {
  id: string;
  type?: string;
  function: { name: string; arguments: string };
}

export function toolCallsOf(m: ChatMessage): ToolCallLike[] {
  if (m.role !== 'assistant') return [];
  const calls = (m as { tool_calls?: unknown }).tool_calls;
  return Array.isArray(calls) ? (calls as ToolCallLike[]).filter((c) => c && typeof c === 'object' && c.function) : [];
}
