/**
 * Builders for the scripted model's steps (see scriptedServer.ts): what the "model" answers to the
 * next request — text, or tool calls — written the same way in every stage's tests.
 */
import type { ScriptStep, ScriptedToolCall } from './scriptedServer';

/**
 * One tool call. Without `id` the server gives it one unique to its request (`call_<request>_<index>`).
 * `args` may be a string: arguments exactly as streamed (malformed JSON, for instance).
 */
export function tc(name: string, args: Record<string, unknown> | string, id?: string): ScriptedToolCall {
  return { name, arguments: args, ...(id ? { id } : {}) };
}

let numbered = 0;
/**
 * One tool call with an id unique in this process (`call_<name>_<n>`): for suites where one server
 * answers a long session (the UI and integration suites), so every card keeps an id of its own
 * whichever request carried it.
 */
export function numberedTc(name: string, args: Record<string, unknown>): ScriptedToolCall {
  return { id: `call_${name}_${++numbered}`, name, arguments: args };
}

/** A step that calls these tools in one assistant message. */
export function calls(...c: ScriptedToolCall[]): ScriptStep {
  return { type: 'tool_calls', calls: c };
}

/** `calls`, with each call's arguments streamed in pieces of `argChunkSize` characters. */
export function chunkedCalls(argChunkSize: number): (...c: ScriptedToolCall[]) => ScriptStep {
  return (...c) => ({ type: 'tool_calls', calls: c, argChunkSize });
}

/** A step that calls one tool. */
export function call(name: string, args: Record<string, unknown>): ScriptStep {
  return calls(tc(name, args));
}

/** A step that answers with text (and ends the turn). */
export function text(t: string, extra: Partial<Extract<ScriptStep, { type: 'text' }>> = {}): ScriptStep {
  return { type: 'text', text: t, ...extra };
}

/** A step that answers with a JSON document (a structured answer, e.g. the Reviewer's verdict). */
export function json(value: unknown): ScriptStep {
  return { type: 'json', value };
}

/** The Reviewer's structured answer. */
export function verdict(v: 'ok' | 'revise' | 'replan', reasons: string[], concerns: unknown[] = []): ScriptStep {
  return json({ verdict: v, reasons, concerns });
}
