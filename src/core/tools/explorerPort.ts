/**
 * What the `explore` tool needs of the task: a child run for one question. Declared on the tools'
 * side so tools stay below the turn (scripts/lint/layers.mjs); turn/explorers.ts provides it.
 */
export interface ExplorerPort {
  /**
   * Runs one explorer on `question` (waiting for a free slot when the most allowed are running):
   * its answer, whether it finished, and its calls in words ("read src/a.ts") for the card.
   */
  explore(question: string, signal: AbortSignal): Promise<{ summary: string; ok: boolean; calls: readonly string[] }>;
}
