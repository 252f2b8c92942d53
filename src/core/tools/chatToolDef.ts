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
    const def = toDef(tool, tool.parameters(catalog));
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
  const def = toDef(tool, parameters);
  fixed.set(tool, def);
  return def;
}

function toDef(tool: Tool, parameters: Record<string, unknown>): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}
