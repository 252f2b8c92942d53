/**
 * JSON schemas for "strict" structured outputs, generated from the zod schemas so the shape is
 * defined once. Strict mode wants: every property listed in `required`, optional ones made nullable
 * instead, `additionalProperties: false` on every object. The constraints an endpoint can enforce
 * are kept (`minLength`, `maxLength`, `minItems`, `maxItems`, `enum`, `pattern`): grammar-constrained
 * servers (llama.cpp, vLLM) turn them into the grammar, so an empty goal or an empty step list can
 * never be produced and cost a repair request. Endpoints that refuse string lengths (OpenAI's strict
 * mode has) get the `portable` variant without them; zod still enforces everything after parsing.
 */
import * as z from 'zod';

type Json = Record<string, unknown>;

/** Keywords no strict-mode endpoint needs (annotations, not constraints). */
const NEVER_SENT = new Set(['$schema', 'default', 'examples']);
/** Constraints some strict-mode endpoints refuse with a 400 (OpenAI's string lengths). */
const NOT_PORTABLE = new Set(['minLength', 'maxLength']);

export interface StrictSchemaOptions {
  /** Leave out the constraints some endpoints refuse (after one refused them). */
  portable?: boolean;
}

export function toStrictJsonSchema(schema: z.ZodType, opts: StrictSchemaOptions = {}): Json {
  return strictify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json, opts.portable ?? false);
}

/** Drops the constraints some endpoints refuse, from a schema made by `toStrictJsonSchema`. */
export function portableSchema(node: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (NOT_PORTABLE.has(k)) continue;
    if (Array.isArray(v)) out[k] = v.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? portableSchema(x as Json) : x));
    else out[k] = v && typeof v === 'object' ? portableSchema(v as Json) : v;
  }
  return out;
}

function strictify(node: Json, portable: boolean): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (NEVER_SENT.has(k) || (portable && NOT_PORTABLE.has(k))) continue;
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
      const s = strictify(sub, portable);
      next[name] = required.has(name) ? s : nullable(s);
    }
    out.properties = next;
    out.required = Object.keys(next);
    out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = strictify(out.items as Json, portable);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as Json[]).map((x) => strictify(x, portable));
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
