import { toolCallsOf, type ChatMessage, type ToolCallLike } from './chatMessage';

/** A message of the conversation as its readers get it: nothing in it can be changed from outside. */
export type ConversationMessage = Readonly<ChatMessage>;

/**
 * The model's conversation in one task (without the system prompt, which each request puts first),
 * and the only writer of its messages. Whatever changes what the model will be sent goes through a
 * method here — the turn's answers and tool results, a folder's instructions added to a tool result,
 * Edit & resend's cut, a resumed task's messages, Tandem's notes between turns — so rewind, history
 * and the next request all see one sequence, and no part can edit it behind the others' backs
 * (the lint's conversation-writers check keeps it so).
 *
 * Condensing does not write here: the context fitter gets the messages read-only and returns a
 * fitted copy for one request (the plan state it re-injects travels in that copy), so the full
 * conversation stays what the chat and history show.
 */
export class Conversation {
  private readonly list: ChatMessage[] = [];
  /** The frozen copy readers get, made again after the next change. */
  private view: readonly ConversationMessage[] | undefined;

  constructor(initial: readonly ChatMessage[] = []) {
    this.list.push(...initial);
  }

  /** The messages in order: a frozen snapshot, so no reader can write through it (cheap: kept until the next change). */
  get messages(): readonly ConversationMessage[] {
    return (this.view ??= Object.freeze([...this.list]));
  }

  get length(): number {
    return this.list.length;
  }

  last(): ConversationMessage | undefined {
    return this.list[this.list.length - 1];
  }

  /** A message from the user (a typed message, a plan step's brief, a revision). */
  appendUser(text: string): void {
    this.view = undefined;
    this.list.push({ role: 'user', content: text });
  }

  /** Messages as the model or a structured request produced them (an answer, a call with its results, a plan request's exchange). */
  append(...messages: readonly ChatMessage[]): void {
    this.view = undefined;
    this.list.push(...messages);
  }

  /** One tool call's result, answering the assistant message that made the call. */
  appendToolResult(callId: string, content: string): void {
    this.view = undefined;
    this.list.push({ role: 'tool', tool_call_id: callId, content });
  }

  /**
   * Adds `text` to the last message when it is a tool result (a folder's own instructions go with
   * the results of the calls that reached it: a user message between tool results and the answer
   * upsets strict chat templates). The message is replaced, not changed in place, so a reader
   * holding the old one (a cached token count) is never wrong about it. False when the last
   * message is not a tool result.
   */
  extendLastToolResult(text: string): boolean {
    const i = this.list.length - 1;
    const last = this.list[i];
    if (last?.role !== 'tool') return false;
    this.view = undefined;
    this.list[i] = { ...last, content: `${typeof last.content === 'string' ? last.content : ''}\n\n${text}` };
    return true;
  }

  /**
   * Notes from Tandem to the model between turns (the user reverted files): one user message,
   * each note marked as Tandem's so the model does not take it for the user's request.
   */
  appendNotes(notes: readonly string[]): void {
    if (notes.length === 0) return;
    this.appendUser(notes.map((n) => `[Note from Tandem] ${n}`).join('\n'));
  }

  /**
   * The conversation becomes `messages`: a resumed task's earlier turns, or what Edit & resend
   * keeps (both rebuilt from the cards the chat shows, so model and chat agree).
   */
  restore(messages: readonly ChatMessage[]): void {
    this.view = undefined;
    this.list.length = 0;
    this.list.push(...messages);
  }

  /**
   * The arguments of every earlier call to `tool` become `{ superseded: note }` (see
   * withCallsSuperseded). The call and its result stay, so the exchange stays valid.
   */
  supersedeCalls(tool: string, note: string): void {
    const next = withCallsSuperseded(this.list, tool, note);
    if (next === this.list) return;
    this.view = undefined;
    this.list.length = 0;
    this.list.push(...next);
  }

  /** Every tool-call id the assistant has used so far (a repeated id gets a suffix before anything sees it). */
  usedCallIds(): Set<string> {
    const used = new Set<string>();
    for (const m of this.list) {
      if (m.role === 'assistant' && m.tool_calls) for (const c of m.tool_calls) used.add(c.id);
    }
    return used;
  }
}

/**
 * `messages` with the arguments of every call to `tool` made `{ superseded: note }` (the same list
 * when there is none): a plan the user edited afterwards is carried out from its brief alone, not
 * from the Planner's first version still sitting in the conversation — live, and when a resumed
 * task's conversation is rebuilt from its cards.
 */
export function withCallsSuperseded(messages: ChatMessage[], tool: string, note: string): ChatMessage[] {
  const args = JSON.stringify({ superseded: note });
  const isIt = (c: ToolCallLike) => c.function.name === tool && c.function.arguments !== args;
  if (!messages.some((m) => toolCallsOf(m).some(isIt))) return messages;
  return messages.map((m) => {
    const calls = toolCallsOf(m);
    return calls.some(isIt) ? ({ ...m, tool_calls: calls.map((c) => (isIt(c) ? { ...c, function: { ...c.function, arguments: args } } : c)) } as ChatMessage) : m;
  });
}
