import type { ChatMessage } from './chatMessage';
import { contentText, toolCallsOf } from './chatMessage';
import { capHeadTail } from '../text/truncate';

/**
 * The condensed turns as plain text for the summary model. Each item is capped so one huge tool
 * result cannot crowd out the rest; the whole is capped to what the summary model can read.
 */
export function renderTranscript(messages: readonly ChatMessage[], maxChars: number, perItemChars = 4000): string {
  const parts: string[] = [];
  for (const m of messages) {
    const text = contentText((m as { content?: unknown }).content);
    if (m.role === 'tool') parts.push(`TOOL RESULT:\n${capHeadTail(text, perItemChars)}`);
    else if (m.role === 'assistant') {
      if (text) parts.push(`ASSISTANT:\n${capHeadTail(text, perItemChars)}`);
      for (const c of toolCallsOf(m)) parts.push(`TOOL CALL ${c.function.name} ${capHeadTail(c.function.arguments, 600)}`);
    } else parts.push(`${m.role.toUpperCase()}:\n${capHeadTail(text, perItemChars)}`);
  }
  return capHeadTail(parts.join('\n\n'), maxChars);
}

/** Paths named in the tool calls of these messages (`path` arguments): what the agent looked at. */
export function pathsInToolCalls(messages: readonly ChatMessage[]): string[] {
  const seen = new Set<string>();
  for (const m of messages) {
    for (const c of toolCallsOf(m)) {
      try {
        const a = JSON.parse(c.function.arguments) as { path?: unknown; paths?: unknown };
        if (typeof a.path === 'string') seen.add(a.path);
        if (Array.isArray(a.paths)) for (const p of a.paths) if (typeof p === 'string') seen.add(p);
      } catch {
        /* unparsable arguments name no path */
      }
    }
  }
  return [...seen];
}
