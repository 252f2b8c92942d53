/** What a system prompt may say that comes from other registries (tools can change at run time). */
export interface PromptContext {
  /** The tool names a plan step may name, from the tool registry. */
  stepTools: readonly string[];
}
