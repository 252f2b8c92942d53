/**
 * JSON schemas for OpenAI "strict" structured outputs, generated from the zod schemas so the shape
 * is defined once. Strict mode wants: every property listed in `required`, optional ones made
 * nullable instead, `additionalProperties: false` on every object, and only the keywords it
 * supports (no string lengths, no `$schema`). Local servers (llama.cpp) turn the same schema into
 * a grammar, so bounded arrays and enums still constrain them.
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

/** Keywords OpenAI's strict mode rejects with a 400; zod still enforces them after parsing. */
const UNSUPPORTED = new Set(['$schema', 'minLength', 'maxLength', 'default', 'examples']);

export function toStrictJsonSchema(schema: z.ZodType): Json {
  return strictify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json);
}

function strictify(node: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (UNSUPPORTED.has(k)) continue;
    if (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'minimum' && v === Number.MIN_SAFE_INTEGER) continue;
    // `const` is newer than the subset some servers accept; a one-value enum means the same.
    if (k === 'const') { out.enum = [v]; continue; }
    out[k] = v;
  }
  if (out.type === 'object' && out.properties && typeof out.properties === 'object') {
    const props = out.properties as Record<string, Json>;
    const required = new Set((out.required as string[] | undefined) ?? []);
    const next: Record<string, Json> = {};
    for (const [name, sub] of Object.entries(props)) {
      const s = strictify(sub);
      next[name] = required.has(name) ? s : nullable(s);
    }
    out.properties = next;
    out.required = Object.keys(next);
    out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = strictify(out.items as Json);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as Json[]).map(strictify);
  }
  return out;
}

function nullable(s: Json): Json {
  if (typeof s.type === 'string' && !s.enum) return { ...s, type: [s.type, 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

/**
 * The model sends `null` for an optional field it leaves out (strict schemas make them nullable);
 * zod's `.optional()` wants the key absent. Drop null-valued object keys before parsing.
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
}
