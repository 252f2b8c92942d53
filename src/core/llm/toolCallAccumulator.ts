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
 * append to `arguments`. Some servers repeat the id or send the name in pieces; both are handled.
 */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, AccumulatedToolCall>();

  add(deltas: ChatCompletionChunk.Choice.Delta.ToolCall[] | undefined | null): void {
    if (!deltas) return;
    for (const d of deltas) {
      const index = typeof d.index === 'number' ? d.index : this.calls.size;
      let call = this.calls.get(index);
      if (!call) {
        call = { index, id: '', name: '', arguments: '' };
        this.calls.set(index, call);
      }
      if (d.id && !call.id) call.id = d.id;
      const name = d.function?.name;
      // A repeated full name is ignored; a name sent in fragments is joined.
      if (name) call.name = !call.name ? name : name === call.name ? call.name : call.name + name;
      if (d.function?.arguments) call.arguments += d.function.arguments;
    }
  }

  /** In index order; calls without an id get a stable synthetic one so results can be matched. */
  list(): AccumulatedToolCall[] {
    return [...this.calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ ...c, id: c.id || `call_${c.index}` }));
  }

  get size(): number {
    return this.calls.size;
  }
}
