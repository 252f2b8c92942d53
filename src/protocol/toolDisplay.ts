import * as z from 'zod';
import { TOOL_DISPLAY_LIMITS } from './toolDisplayLimits';

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
