import type { Registries } from '../registries/registries';
import type { McpHub } from './mcpHub';

/** The registries with the host's MCP servers joined to every new task's tool registry. */
export function withMcp(r: Registries, hub: McpHub): Registries {
  return {
    roles: r.roles,
    tools: () => {
      const tools = r.tools();
      tools.add(hub);
      return tools;
    },
  };
}
