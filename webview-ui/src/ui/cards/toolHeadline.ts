/**
 * What a tool call did, in words, for the head of its card: "Read src/cart.ts", "Ran npm test —
 * exit 1". The path (when there is one) is shown apart so it can be a link; the tool's raw name is
 * secondary. Arguments come from the model and are read defensively.
 */
import type { ToolCallCard } from '../../../../src/protocol';

export interface Headline {
  verb: string;
  /** A workspace path the card is about (opens in the editor). */
  path?: string;
  /** Words after the path or verb: a pattern, a command, a line range. */
  rest?: string;
  /** Shown as code (a command, a pattern). */
  restIsCode?: boolean;
  /** After a dash: how a command ended when it did not succeed ("exit 1"). */
  suffix?: string;
}

const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x : undefined);

export function toolHeadline(card: ToolCallCard): Headline {
  const a = (card.args && typeof card.args === 'object' ? card.args : {}) as Record<string, unknown>;
  const done = card.status === 'done';
  const path = str(a.path) ?? card.approval?.path;
  switch (card.tool) {
    case 'read_file': {
      const from = typeof a.offset === 'number' ? a.offset : undefined;
      const lines = from !== undefined ? `lines ${from}${typeof a.limit === 'number' ? `–${from + a.limit - 1}` : '+'}` : undefined;
      return { verb: 'Read', path, ...(lines ? { rest: lines } : {}) };
    }
    case 'load_skill': return { verb: done ? 'Loaded skill' : 'Load skill', rest: str(a.name) };
    case 'list_files': return { verb: done ? 'Listed' : 'List', path: path ?? '.' };
    case 'find_files': return { verb: done ? 'Found files' : 'Find files', rest: str(a.pattern), restIsCode: true, ...(str(a.path) ? { path: str(a.path) } : {}) };
    case 'search': return { verb: done ? 'Searched for' : 'Search for', rest: str(a.pattern), restIsCode: true, ...(str(a.path) ? { path: str(a.path) } : {}) };
    case 'write_file': return { verb: done ? 'Wrote' : 'Write', path };
    case 'edit_file': return { verb: done ? 'Edited' : 'Edit', path };
    case 'apply_patch': return { verb: done ? 'Patched' : 'Patch', path };
    case 'delete_file': return { verb: done ? 'Deleted' : 'Delete', path };
    case 'run_command': {
      const command = card.approval?.command ?? str(a.command) ?? card.summary;
      const exit = card.exit;
      const suffix = !exit || exit.outcome === 'success' ? undefined : exit.outcome === 'failed' ? `exit ${exit.code ?? '?'}` : exit.outcome === 'timed_out' ? 'timed out' : 'killed';
      return { verb: done || exit ? 'Ran' : 'Run', rest: command, restIsCode: true, ...(suffix ? { suffix } : {}) };
    }
    default: {
      // An MCP tool (`server__tool`): "Call echo", the server beside it as the tool name.
      const mcp = /^[A-Za-z0-9_-]+?__(.+)$/.exec(card.tool);
      if (mcp) return { verb: done ? 'Called' : 'Call', rest: mcp[1]! };
      return { verb: card.summary };
    }
  }
}
