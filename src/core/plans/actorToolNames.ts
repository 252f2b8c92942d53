/**
 * The tools a plan step may name in `tools_needed`: the Actor's working tools.
 * `ask_question`/`propose_plan` are conversation tools, not work a step needs, so they are not listed.
 * Also used as the enum in the plan's JSON schema, so a constrained decoder cannot invent a name.
 */
export const ACTOR_TOOL_NAMES = [
  'edit_file', 'apply_patch', 'write_file', 'delete_file', 'run_command',
  'read_file', 'list_files', 'find_files', 'search', 'diagnostics',
] as const;
export type ActorToolName = (typeof ACTOR_TOOL_NAMES)[number];
