import type { ChatMessage, ToolCallLike } from './chatMessage';
import { contentText, toolCallsOf } from './chatMessage';
import { countTextTokens } from './tokenCounter';
import { capHeadTail } from '../text/truncate';

export const elidedNote = (chars: number) => `[tool result elided: ${chars} chars]`;

/** A tool result replaced by a note saying how big it was (the model can read the file again). */
export function elideToolResult(m: ChatMessage): ChatMessage {
  const text = contentText((m as { content?: unknown }).content);
  if (text.startsWith('[tool result elided:')) return m;
  return { ...(m as object), content: elidedNote(text.length) } as ChatMessage;
}

/**
 * Old tool calls can carry whole files in their arguments (write_file). Long string values are
 * replaced by a note; the JSON stays valid so endpoints that re-parse arguments accept it.
 */
export function elideToolCallArgs(m: ChatMessage, maxChars = 600): ChatMessage {
  const calls = toolCallsOf(m);
  if (!calls.some((c) => c.function.arguments.length > maxChars)) return m;
  const shrink = (c: ToolCallLike): ToolCallLike => {
    if (c.function.arguments.length <= maxChars) return c;
    let args: string;
    try {
      const obj = JSON.parse(c.function.arguments) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(obj ?? {})) {
        out[k] = typeof v === 'string' && v.length > 200 ? `[elided: ${v.length} chars]` : v;
      }
      args = JSON.stringify(out);
      if (args.length > maxChars) args = JSON.stringify({ elided: `${c.function.arguments.length} chars of arguments` });
    } catch {
      args = JSON.stringify({ elided: `${c.function.arguments.length} chars of arguments` });
    }
    return { ...c, function: { ...c.function, arguments: args } };
  };
  return { ...(m as object), tool_calls: calls.map(shrink) } as ChatMessage;
}

/** Cuts a message's text to about `maxTokens`, keeping head and tail and saying what was cut. */
export function cutMessage(m: ChatMessage, maxTokens: number): ChatMessage {
  const text = contentText((m as { content?: unknown }).content);
  const tokens = countTextTokens(text);
  if (tokens <= maxTokens) return m;
  let chars = Math.max(0, Math.floor(text.length * (maxTokens / tokens) * 0.9) - 120);
  let cut = '';
  for (let i = 0; i < 6; i++) {
    cut = `[cut to fit the model's context window: about ${chars} of ${text.length} chars kept]\n${capHeadTail(text, chars)}`;
    if (countTextTokens(cut) <= maxTokens || chars === 0) break;
    chars = Math.floor(chars * 0.8);
  }
  return { ...(m as object), content: cut } as ChatMessage;
}
