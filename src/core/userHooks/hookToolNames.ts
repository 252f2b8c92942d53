/**
 * The names a hook's matcher and script may know a tool by: Tandem's own and Claude Code's, so a
 * `Write|Edit` hook written for Claude Code fires on Tandem's write_file and edit_file. An MCP tool
 * is `server__tool` here and `mcp__server__tool` there.
 */
const CLAUDE_NAMES: Record<string, readonly string[]> = {
  write_file: ['Write'],
  // Tandem's edit_file takes a list of edits: Claude Code's Edit and MultiEdit in one.
  edit_file: ['Edit', 'MultiEdit'],
  apply_patch: ['Edit', 'MultiEdit'],
  run_command: ['Bash'],
  read_file: ['Read'],
  find_files: ['Glob'],
  search: ['Grep'],
  list_files: ['LS'],
};

/** Every name the tool answers to in a matcher: Claude Code's first (the one scripts compare against), then Tandem's. */
export function hookNamesFor(tool: string, isMcp: boolean): string[] {
  const claude = isMcp ? [`mcp__${tool}`] : CLAUDE_NAMES[tool] ?? [];
  return [...claude, tool];
}

/** The `tool_name` a hook reads on stdin: Claude Code's name when it has one, so existing scripts compare as they always did. */
export function hookToolName(tool: string, isMcp: boolean): string {
  return hookNamesFor(tool, isMcp)[0]!;
}
