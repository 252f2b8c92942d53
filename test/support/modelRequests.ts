/** Reading what the agent sent the scripted model: one chat request's messages, by role. */

type RequestBody = { messages?: unknown } | undefined;

function contentsOf(body: RequestBody, role: string): string[] {
  const msgs = (body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  return msgs.filter((m) => m.role === role).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** The user messages of one chat request, as the model received them. */
export function userMessages(body: RequestBody): string[] {
  return contentsOf(body, 'user');
}

/** Every tool result the model received in one request, as text. */
export function toolResults(body: RequestBody): string[] {
  return contentsOf(body, 'tool');
}
