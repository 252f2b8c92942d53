import { z } from 'zod';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { RoleId } from '../../protocol';
import { ROLES, roleAllows } from '../roles';
import type { Tool } from '../tools/tool';

/**
 * The optional fields some tools carry (the plans work adds them to `Tool`); read structurally so
 * this file does not depend on which of them exist yet.
 */
export interface ToolExtras {
  parameters?: Record<string, unknown>;
  available?(state: { role: RoleId; planning?: unknown }): boolean;
}

/** Why a role may not call a tool, or undefined when it may (static part: before arguments are read). */
export function refusalFor(tool: Tool, role: RoleId, planning?: unknown): string | undefined {
  const def = ROLES[role];
  const missing = tool.permissions.filter((p) => !def.permissions.includes(p));
  if (missing.length || !roleAllows(def, tool.permissions)) {
    return `${tool.name} is not permitted for the ${def.label} role (it needs ${missing.join(', ')} permission; the ${def.label} may only ${def.permissions.join(', ')}). Nothing was changed.`;
  }
  if (tool.permissions.includes('execute') && !def.shell) {
    return `${tool.name} is not permitted for the ${def.label} role (no shell). Nothing was run.`;
  }
  const extras = tool as Tool & ToolExtras;
  if (extras.available && !extras.available({ role, planning })) {
    return `${tool.name} is not available to the ${def.label} right now.`;
  }
  return undefined;
}

/** The tools a role is offered: only what it may call. */
export function offeredTools(registry: readonly Tool[], role: RoleId, planning?: unknown): Tool[] {
  return registry.filter((t) => refusalFor(t, role, planning) === undefined);
}

const defs = new WeakMap<Tool, ChatCompletionTool>();

/** A tool as the model sees it: its own JSON schema if it has one, else its zod input as JSON Schema. */
export function chatToolDef(tool: Tool): ChatCompletionTool {
  const hit = defs.get(tool);
  if (hit) return hit;
  const extras = tool as Tool & ToolExtras;
  let parameters = extras.parameters;
  if (!parameters) {
    const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    parameters = schema;
  }
  const def: ChatCompletionTool = { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
  defs.set(tool, def);
  return def;
}
