import * as z from 'zod';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Tool, ToolCatalog } from './tool';

const fixed = new WeakMap<Tool, ChatCompletionTool>();
const derived = new WeakMap<Tool, { key: string; def: ChatCompletionTool }>();

/**
 * A tool as the model sees it: its own JSON schema if it has one (computed from `catalog` when it
 * depends on the registry), else its zod input as JSON Schema. Cached: the same schema is sent with
 * every request.
 */
export function chatToolDef(tool: Tool, catalog: ToolCatalog): ChatCompletionTool {
  if (typeof tool.parameters === 'function') {
    const key = catalog.stepTools.join('\n');
    const hit = derived.get(tool);
    if (hit && hit.key === key) return hit.def;
    const def = toDef(tool, compactSchema(tool.parameters(catalog)));
    derived.set(tool, { key, def });
    return def;
  }
  const hit = fixed.get(tool);
  if (hit) return hit;
  let parameters = tool.parameters;
  if (!parameters) {
    const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    parameters = schema;
  }
  const def = toDef(tool, compactSchema(parameters));
  fixed.set(tool, def);
  return def;
}

function toDef(tool: Tool, parameters: Record<string, unknown>): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}

/**
 * The offered schema — generated or a tool's own (the plan's, the question's) — without what tells
 * the model nothing worth its tokens on every request (the language-server tools write theirs by
 * hand for the same reason): `.int()`'s ±MAX_SAFE_INTEGER
 * bounds, the trivial lower bounds (non-empty, at least 1) and `default` annotations. Upper bounds,
 * enums and descriptions stay; zod still checks every argument against the full schema.
 */
type Json = Record<string, unknown>;

function compactSchema(node: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'default') continue;
    if (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'minimum' && (v === Number.MIN_SAFE_INTEGER || v === 1)) continue;
    if ((k === 'minLength' || k === 'minItems') && v === 1) continue;
    out[k] = k === 'properties' ? mapValues(v as Record<string, Json>) : compactValue(v);
  }
  return out;
}

/** `properties` maps names to schemas: a property may well be called `default` or `minimum`. */
function mapValues(props: Record<string, Json>): Json {
  return Object.fromEntries(Object.entries(props).map(([name, schema]) => [name, compactSchema(schema)]));
}

function compactValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compactValue);
  return v && typeof v === 'object' ? compactSchema(v as Json) : v;
}
