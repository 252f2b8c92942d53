/**
 * `tool_input` as a hook reads it: Tandem's arguments as the model sent them, plus the fields
 * Claude Code's tools name the same things by (`file_path`, absolute as there; `command`;
 * `content`; `old_string`/`new_string`; `glob`), so a script written for Claude Code finds them.
 */
import * as path from 'node:path';

export function hookToolInput(tool: string, args: unknown, root: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { arguments: args };
  const a = { ...(args as Record<string, unknown>) };
  const abs = (p: unknown) => (typeof p === 'string' ? path.resolve(root, p) : undefined);
  const filePath = abs(a.path);
  switch (tool) {
    case 'write_file':
    case 'read_file':
    case 'delete_file':
    case 'edit_file':
    case 'apply_patch':
      if (filePath && a.file_path === undefined) a.file_path = filePath;
      break;
  }
  if (tool === 'edit_file' && Array.isArray(a.edits)) {
    const edits = (a.edits as unknown[]).map((e) => {
      const x = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
      return { ...x, old_string: x.old_text, new_string: x.new_text };
    });
    a.edits = edits;
    // Claude Code's Edit has one old_string/new_string: the first edit's.
    if (edits[0]) {
      a.old_string = edits[0].old_string;
      a.new_string = edits[0].new_string;
    }
  }
  if (tool === 'search' && typeof a.include === 'string' && a.glob === undefined) a.glob = a.include;
  if ((tool === 'search' || tool === 'find_files' || tool === 'list_files') && typeof a.path === 'string') a.path = abs(a.path);
  return a;
}
