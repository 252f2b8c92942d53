import type { ToolCallDisplay } from './toolDisplay';
import { TOOL_DISPLAY_LIMITS } from './toolDisplayLimits';

/*
 * A tool card's display, apart from the schemas (index.ts exports both): the
 * webview imports this file, and it must not pull a zod runtime in.
 */

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
