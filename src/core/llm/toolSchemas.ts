import { z } from 'zod';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Tool } from '../tools/tool';

const cache = new WeakMap<Tool, ChatCompletionTool>();

/** A tool as offered to the model: its zod schema as JSON Schema (input side, no `$schema` noise). */
export function toChatTool(tool: Tool): ChatCompletionTool {
  const hit = cache.get(tool);
  if (hit) return hit;
  const schema = tool.parameters
    ? { ...tool.parameters }
    : (z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
  delete schema.$schema;
  const def: ChatCompletionTool = {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: schema },
  };
  cache.set(tool, def);
  return def;
}
