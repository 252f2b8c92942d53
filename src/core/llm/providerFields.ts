/**
 * Fields a provider adds beside the standard ones on a streamed assistant message or tool call
 * (Gemini's `extra_content`, DeepSeek's `reasoning_content`, OpenRouter's `reasoning_details`, …).
 * Providers that send them may require them back on the next request, so they are kept exactly and
 * sent back verbatim rather than dropped by a typed model of the message.
 */
export type ProviderFields = Record<string, unknown>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Folds one streamed fragment into what arrived before: objects merge key by key, lists and
 * differing strings are appended (a field streamed in pieces), an equal string repeated on every
 * fragment is kept once, anything else takes the newer value.
 */
export function mergeProviderFields(into: ProviderFields | undefined, more: ProviderFields): ProviderFields {
  const out: ProviderFields = { ...(into ?? {}) };
  for (const [k, v] of Object.entries(more)) {
    const old = out[k];
    if (isPlainObject(old) && isPlainObject(v)) out[k] = mergeProviderFields(old, v);
    else if (Array.isArray(old) && Array.isArray(v)) out[k] = [...old, ...v];
    else if (typeof old === 'string' && typeof v === 'string') out[k] = old === v ? old : old + v;
    else out[k] = v;
  }
  return out;
}

/**
 * The same fields with `mask` applied to every string inside them, for storing them in cards and
 * history (a key the model echoed into its reasoning must not be kept). Other values are copied as
 * they are, so a signature without the key goes back byte for byte.
 */
export function mapProviderStrings(fields: ProviderFields, mask: (s: string) => string): ProviderFields {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v);
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(fields) as ProviderFields;
}
