/**
 * Folds the parsed chunks of a streamed chat completion into one answer, whatever the provider's
 * dialect: content as a string or as typed parts, reasoning as `reasoning_content` (DeepSeek,
 * llama.cpp, vLLM), `reasoning` or `reasoning_details` (OpenRouter) or thinking parts (Mistral),
 * tool calls with or without `index` and with empty or repeated ids (see ToolCallAccumulator),
 * usage in the last chunk, in a choice (Moonshot) or under `x_groq` (Groq), and fields the provider
 * needs back on the next request. Pure: the socket, timers and retries are LlmClient's.
 */
import { splitContent } from './contentParts';
import { mergeProviderFields, type ProviderFields } from './providerFields';
import { ToolCallAccumulator } from './toolCallAccumulator';

export interface StreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** What one chunk added: shown as it arrives. */
export interface ChunkDelta {
  text: string;
  reasoning: string;
  /** Content, reasoning or tool-call bytes arrived (empty deltas and keep-alives are not progress). */
  progress: boolean;
}

/** Standard delta fields and the reasoning fields handled by name; anything else is the provider's own. */
const KNOWN_DELTA_KEYS = new Set(['role', 'content', 'tool_calls', 'function_call', 'refusal', 'reasoning_content', 'reasoning', 'reasoning_details']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function usageOf(v: unknown): StreamUsage | undefined {
  if (!isObj(v)) return undefined;
  const p = v.prompt_tokens ?? v.input_tokens;
  const c = v.completion_tokens ?? v.output_tokens;
  if (typeof p !== 'number' && typeof c !== 'number') return undefined;
  return { ...(typeof p === 'number' ? { prompt_tokens: p } : {}), ...(typeof c === 'number' ? { completion_tokens: c } : {}) };
}

/** The readable text of OpenRouter-style `reasoning_details` items (text, or a summary). */
function detailsText(details: unknown[]): string {
  let s = '';
  for (const d of details) {
    if (!isObj(d)) continue;
    if (typeof d.text === 'string') s += d.text;
    else if (typeof d.summary === 'string') s += d.summary;
  }
  return s;
}

export class StreamAssembler {
  text = '';
  reasoning = '';
  finishReason: string | undefined;
  usage: StreamUsage | undefined;
  model: string | undefined;
  /** A chunk that ended with `finish_reason: "error"` and said why (some proxies do this instead of an error event). */
  streamError: string | undefined;
  readonly calls = new ToolCallAccumulator();
  chunks = 0;
  /** Which field the provider streamed its reasoning in: it gets it back under the same name. */
  private reasoningField: 'reasoning_content' | 'reasoning' | undefined;
  private reasoningFieldText = '';
  private details: Obj[] = [];
  private extra: ProviderFields | undefined;

  add(chunk: unknown): ChunkDelta {
    const out: ChunkDelta = { text: '', reasoning: '', progress: false };
    if (!isObj(chunk)) return out;
    this.chunks++;
    if (typeof chunk.model === 'string' && chunk.model) this.model = chunk.model;
    this.takeUsage(chunk.usage);
    if (isObj(chunk.x_groq)) this.takeUsage(chunk.x_groq.usage);
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isObj(choice)) continue;
      // Only the first choice is the answer (n is never above 1 in our requests).
      if (typeof choice.index === 'number' && choice.index !== 0) continue;
      this.takeUsage(choice.usage);
      const delta = isObj(choice.delta) ? choice.delta : isObj(choice.message) ? choice.message : undefined;
      if (delta) this.addDelta(delta, out);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        if (choice.finish_reason === 'error') {
          const err = isObj(chunk.error) ? chunk.error : isObj(choice.error) ? choice.error : undefined;
          this.streamError = typeof err?.message === 'string' ? err.message : 'the endpoint ended the answer with an error';
        }
      }
    }
    return out;
  }

  private takeUsage(v: unknown): void {
    const u = usageOf(v);
    if (u) this.usage = { ...this.usage, ...u };
  }

  private addDelta(delta: Obj, out: ChunkDelta): void {
    const content = splitContent(delta.content);
    let reasoning = content.reasoning;
    // One chunk may carry the same reasoning twice (OpenRouter sends `reasoning` and `reasoning_details`): show it once.
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) {
      reasoning += delta.reasoning_content;
      this.noteReasoningField('reasoning_content', delta.reasoning_content);
    } else if (typeof delta.reasoning === 'string' && delta.reasoning) {
      reasoning += delta.reasoning;
      this.noteReasoningField('reasoning', delta.reasoning);
    } else if (Array.isArray(delta.reasoning_details)) {
      reasoning += detailsText(delta.reasoning_details);
    }
    if (Array.isArray(delta.reasoning_details)) this.addDetails(delta.reasoning_details);
    const before = this.calls.chars;
    this.calls.add(delta.tool_calls as never);
    const callBytes = this.calls.chars > before;
    for (const [k, v] of Object.entries(delta)) {
      if (KNOWN_DELTA_KEYS.has(k) || v === null || v === undefined) continue;
      this.extra = mergeProviderFields(this.extra, { [k]: v });
    }
    if (content.text) this.text += content.text;
    if (reasoning) this.reasoning += reasoning;
    out.text += content.text;
    out.reasoning += reasoning;
    if (content.text || reasoning || callBytes || (Array.isArray(delta.reasoning_details) && delta.reasoning_details.length)) out.progress = true;
  }

  private noteReasoningField(field: 'reasoning_content' | 'reasoning', text: string): void {
    this.reasoningField ??= field;
    if (this.reasoningField === field) this.reasoningFieldText += text;
  }

  /** Items merge by their `index` (streamed pieces of one block), else they are appended. */
  private addDetails(items: unknown[]): void {
    for (const item of items) {
      if (!isObj(item)) continue;
      const at = typeof item.index === 'number' ? this.details.findIndex((d) => d.index === item.index && d.type === item.type) : -1;
      if (at >= 0) this.details[at] = mergeProviderFields(this.details[at], item);
      else this.details.push({ ...item });
    }
  }

  /**
   * Fields to put back on the assistant message when it is sent again: the reasoning under the
   * provider's own field name and its `reasoning_details` (DeepSeek and OpenRouter need them on
   * turns with tool calls), and any unknown delta fields, verbatim.
   */
  messageFields(withReasoning: boolean): ProviderFields | undefined {
    const out: ProviderFields = { ...(this.extra ?? {}) };
    if (withReasoning) {
      if (this.reasoningField && this.reasoningFieldText) out[this.reasoningField] = this.reasoningFieldText;
      if (this.details.length) out.reasoning_details = this.details;
    }
    return Object.keys(out).length ? out : undefined;
  }

  /** Characters received so far (for progress and for estimating usage). */
  get outputChars(): number {
    return this.text.length + this.reasoning.length + this.calls.chars;
  }
}
