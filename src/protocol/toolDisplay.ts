import * as z from 'zod';

/**
 * How a tool call shows in the chat, declared by the tool itself (src/core/tools) and carried on its
 * card, so the webview groups, folds and words cards without knowing any tool by name.
 *
 * `kind` is what sort of call it is — what the chat needs to group a run of calls and to word it:
 * - `read`, `list`, `find` (a search over files or contents), `lookup` (code navigation, the
 *   editor's problems): they only look;
 * - `edit`, `create`, `delete`, `command`: they change things or run things;
 * - `plan`, `question`, `step`: the conversation's own tools; `skill`: a loaded skill (a chip);
 * - `mcp`: a tool from an MCP server; `other`: anything else.
 */
export const ToolKind = z.enum(['read', 'list', 'find', 'lookup', 'edit', 'create', 'delete', 'command', 'plan', 'question', 'step', 'skill', 'mcp', 'other']);
export type ToolKind = z.infer<typeof ToolKind>;

/**
 * Caps for each field: a headline is one short line (a path, a pattern, a command), never file
 * contents. The host cuts longer text with `clampToolDisplay` before the card is sent.
 */
export const TOOL_DISPLAY_LIMITS = { title: 120, verb: 300, path: 4096, detail: 2000, tag: 120 } as const;

export const ToolCallDisplay = z.object({
  kind: ToolKind,
  /** The tool in a few words ("Read file"; an MCP tool's own title). */
  title: z.string().max(TOOL_DISPLAY_LIMITS.title),
  /** The verb at the head of the card while the call is asked or runs ("Search for"); a tool that words a call in one phrase puts it all here. */
  verb: z.string().max(TOOL_DISPLAY_LIMITS.verb),
  /** The verb once it ran ("Searched for"); the same as `verb` when absent. */
  done: z.string().max(TOOL_DISPLAY_LIMITS.verb).optional(),
  /** A workspace path the call is about: a link that opens it. */
  path: z.string().max(TOOL_DISPLAY_LIMITS.path).optional(),
  /** Words after the verb and path: a pattern, a command, a line range. */
  detail: z.string().max(TOOL_DISPLAY_LIMITS.detail).optional(),
  /** `detail` is code (a command, a pattern). */
  code: z.boolean().optional(),
  /** The small name beside the headline, when the tool's own name says less (an MCP tool: its server). */
  tag: z.string().max(TOOL_DISPLAY_LIMITS.tag).optional(),
  /**
   * How the card sits among the others: `run` — finished calls next to each other join into one
   * line ("Read 4 files, searched 1 time"); `own_card` — once done it is not shown, the card it
   * produced (the plan, the question) says it all.
   */
  fold: z.enum(['run', 'own_card']).optional(),
});
export type ToolCallDisplay = z.infer<typeof ToolCallDisplay>;

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The display within its caps (the schema refuses longer fields; the host cuts them instead). */
export function clampToolDisplay(d: ToolCallDisplay): ToolCallDisplay {
  const L = TOOL_DISPLAY_LIMITS;
  return {
    ...d,
    title: cut(d.title, L.title),
    verb: cut(d.verb, L.verb),
    ...(d.done !== undefined ? { done: cut(d.done, L.verb) } : {}),
    ...(d.path !== undefined ? { path: cut(d.path, L.path) } : {}),
    ...(d.detail !== undefined ? { detail: cut(d.detail, L.detail) } : {}),
    ...(d.tag !== undefined ? { tag: cut(d.tag, L.tag) } : {}),
  };
}

/** What the neutral fallback reads from a card. */
interface CardFace {
  tool: string;
  summary: string;
  display?: ToolCallDisplay;
  approval?: { kind: string; path?: string; command?: string; server?: string; tool_name?: string };
}

/**
 * A card's display: its own, or — for a card saved before cards carried one (history of an older
 * version), or a call of a tool nobody knows — one derived from what any card has, without knowing
 * tools: what it asked approval for (a command, a file change, an MCP call), else its summary.
 */
export function toolCallDisplay(card: CardFace): ToolCallDisplay {
  if (card.display) return card.display;
  const a = card.approval;
  const title = card.tool;
  switch (a?.kind) {
    case 'command':
      return { kind: 'command', title, verb: 'Run', done: 'Ran', detail: a.command ?? card.summary, code: true };
    case 'edit':
      return { kind: 'edit', title, verb: 'Edit', done: 'Edited', ...(a.path ? { path: a.path } : {}) };
    case 'create':
      return { kind: 'create', title, verb: 'Write', done: 'Wrote', ...(a.path ? { path: a.path } : {}) };
    case 'delete':
      return { kind: 'delete', title, verb: 'Delete', done: 'Deleted', ...(a.path ? { path: a.path } : {}) };
  }
  // An MCP tool is named `server__tool` by the registry: the tool after the server, the server beside it.
  const mcp = /^([A-Za-z0-9_-]+?)__(.+)$/.exec(card.tool);
  if (mcp) return { kind: 'mcp', title, verb: 'Call', done: 'Called', detail: mcp[2]!, tag: a?.server ?? mcp[1]! };
  return { kind: 'other', title, verb: card.summary };
}
