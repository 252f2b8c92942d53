/**
 * A delta's `content` is a string for most endpoints, but some send an array of typed parts
 * (Mistral's reasoning models: `[{"type":"thinking","thinking":[{"type":"text","text":"…"}]},
 * {"type":"text","text":"…"}]`). Text parts are the answer; thinking/reasoning parts are reasoning,
 * never shown as the answer; anything else unknown is ignored rather than printed as "[object Object]".
 */
export interface ContentPieces {
  text: string;
  reasoning: string;
}

const REASONING_PART = /^(thinking|reasoning|thought|redacted_thinking)$/;

/** The text inside a part's value: a string, a `{text}` object, or a list of either. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('');
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.text === 'string') return v.text;
    if (v.thinking !== undefined) return textOf(v.thinking);
    if (v.content !== undefined) return textOf(v.content);
  }
  return '';
}

export function splitContent(content: unknown): ContentPieces {
  if (content === null || content === undefined) return { text: '', reasoning: '' };
  if (typeof content === 'string') return { text: content, reasoning: '' };
  const parts = Array.isArray(content) ? content : [content];
  let text = '';
  let reasoning = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    if (!part || typeof part !== 'object') continue;
    const p = part as Record<string, unknown>;
    const type = typeof p.type === 'string' ? p.type : '';
    if (REASONING_PART.test(type)) reasoning += textOf(p.thinking ?? p.reasoning ?? p.text ?? p.content);
    else if (type === 'text' || type === 'output_text' || type === '') text += textOf(p.text ?? p.content);
  }
  return { text, reasoning };
}
