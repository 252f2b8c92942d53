import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { mergeProviderFields, type ProviderFields } from './providerFields';

export interface AccumulatedToolCall {
  index: number;
  id: string;
  name: string;
  /** Raw JSON text as streamed; may be incomplete if the stream was cut. */
  arguments: string;
  /**
   * Fields the provider put on the call beside id/type/function (Gemini's
   * `extra_content.google.thought_signature`): sent back verbatim on the assistant message, since
   * some providers reject the next request without them.
   */
  providerFields?: ProviderFields;
  /**
   * The assistant message's own provider fields, carried by its first call when the message showed
   * no text card to keep them on (so a resumed task can send them back).
   */
  messageFields?: ProviderFields;
}

const KNOWN_CALL_KEYS = new Set(['index', 'id', 'type', 'function']);

/** Whether `text` is already one whole JSON value (so more text cannot belong to it). */
function isCompleteJson(text: string): boolean {
  const t = text.trim();
  if (!t) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tool calls arrive as fragments: the first usually carries id and name, later ones append to
 * `arguments`. Servers differ: most key fragments by `index`; some repeat the id on every
 * fragment; some send the name in pieces; some (older Ollama) give every call index 0 but a new id;
 * some (Gemini's OpenAI-compatible API, some proxies) send parallel calls with `id: ""` and no index
 * at all. So a fragment starts a new call when its index is new, when it brings a different non-empty
 * id, or when it names a function while the current call's arguments are already a complete JSON
 * value (nothing more can be appended to them).
 */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, AccumulatedToolCall>();
  /** Server index → our slot (they differ when a server reuses an index for a new call). */
  private readonly slotOf = new Map<number, number>();
  /** The call fragments without an index continue. */
  private current: AccumulatedToolCall | undefined;

  add(deltas: ChatCompletionChunk.Choice.Delta.ToolCall[] | undefined | null): void {
    if (!Array.isArray(deltas)) return;
    for (const d of deltas) {
      if (!d || typeof d !== 'object') continue;
      const hasIndex = typeof d.index === 'number';
      let call = hasIndex ? this.atSlot(this.slotOf.get(d.index)) : this.current;
      const name = typeof d.function?.name === 'string' ? d.function.name : '';
      const args = typeof d.function?.arguments === 'string' ? d.function.arguments : '';
      const id = typeof d.id === 'string' ? d.id : '';
      if (call && id && call.id && id !== call.id) call = undefined;
      if (call && name && call.name && isCompleteJson(call.arguments) && !(name === call.name && !args)) call = undefined;
      if (!call) {
        const slot = hasIndex && !this.calls.has(d.index) ? d.index : this.nextSlot();
        call = { index: slot, id: '', name: '', arguments: '' };
        this.calls.set(slot, call);
        if (hasIndex) this.slotOf.set(d.index, slot);
      }
      this.current = call;
      if (id && !call.id) call.id = id;
      // A repeated full name is ignored; a name sent in fragments is joined.
      if (name) call.name = !call.name ? name : name === call.name ? call.name : call.name + name;
      if (args) call.arguments += args;
      for (const [k, v] of Object.entries(d)) {
        if (KNOWN_CALL_KEYS.has(k) || v === undefined || v === null) continue;
        call.providerFields = mergeProviderFields(call.providerFields, { [k]: v });
      }
    }
  }

  private atSlot(slot: number | undefined): AccumulatedToolCall | undefined {
    return slot === undefined ? undefined : this.calls.get(slot);
  }

  private nextSlot(): number {
    return this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
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

  /** The arguments so far of the first call (in order) to the tool `name`, if one has begun. */
  argumentsOf(name: string): string | undefined {
    let first: AccumulatedToolCall | undefined;
    for (const c of this.calls.values()) if (c.name === name && (!first || c.index < first.index)) first = c;
    return first?.arguments;
  }

  /** Characters of tool-call names and arguments so far (progress for a long call). */
  get chars(): number {
    let n = 0;
    for (const c of this.calls.values()) n += c.name.length + c.arguments.length;
    return n;
  }
}
