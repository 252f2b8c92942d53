import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

export interface AccumulatedToolCall {
  index: number;
  id: string;
  name: string;
  /** Raw JSON text as streamed; may be incomplete if the stream was cut. */
  arguments: string;
}

/**
 * Tool calls arrive as fragments keyed by `index`: the first carries id and name, later ones
 * append to `arguments`. Servers differ: some repeat the id on every fragment, some send the name
 * in pieces, some (older Ollama) give every call index 0 but a new id, some give no id at all.
 */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, AccumulatedToolCall>();
  /** Server index → our slot (they differ only when a server reuses an index for a new call). */
  private readonly slotOf = new Map<number, number>();

  add(deltas: ChatCompletionChunk.Choice.Delta.ToolCall[] | undefined | null): void {
    if (!deltas) return;
    for (const d of deltas) {
      const serverIndex = typeof d.index === 'number' ? d.index : 0;
      let slot = this.slotOf.get(serverIndex);
      let call = slot === undefined ? undefined : this.calls.get(slot);
      // A different id at a known index is a new call, not more of the old one.
      if (call && d.id && call.id && d.id !== call.id) call = undefined;
      if (!call) {
        slot = this.calls.has(serverIndex) ? Math.max(...this.calls.keys()) + 1 : serverIndex;
        call = { index: slot, id: '', name: '', arguments: '' };
        this.calls.set(slot, call);
        this.slotOf.set(serverIndex, slot);
      }
      if (d.id && !call.id) call.id = d.id;
      const name = d.function?.name;
      // A repeated full name is ignored; a name sent in fragments is joined.
      if (name) call.name = !call.name ? name : name === call.name ? call.name : call.name + name;
      if (d.function?.arguments) call.arguments += d.function.arguments;
    }
  }

  /** In order; calls without an id, or with an id already used, get a unique one so results can be matched. */
  list(): AccumulatedToolCall[] {
    const used = new Set<string>();
    return [...this.calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => {
        let id = c.id || `call_${c.index}`;
        if (used.has(id)) id = `${id}_${c.index}`;
        used.add(id);
        return { ...c, id };
      });
  }

  get size(): number {
    return this.calls.size;
  }
}
