/**
 * A server's resources, readable through one tool per server (`server__resources`): without a
 * `uri` it lists them, with one it reads it. Reading is side-effect free by the protocol, but the
 * server is still someone else's code: the same rules as its read-only tools apply (offered to
 * read-only roles only when the user trusts the server for reading; approval unless allowed).
 */
import * as z from 'zod';
import type { Tool, ToolResult } from '../tools/tool';
import { ToolError } from '../tools/tool';
import { rejectionText } from '../text/rejectionText';
import { mcpToolName, type McpServerHandle } from './mcpToolRow';
import { renderResourceContents, renderResourceList } from './mcpResults';

const input = z.object({ uri: z.string().min(1).max(2048).optional().describe('The resource to read; leave out to list the resources') });
type Input = z.infer<typeof input>;

export function mcpResourceRow(server: McpServerHandle): Tool<Input> {
  const name = mcpToolName(server.name, 'resources');
  const readOnly = server.trustedForReading();
  return {
    name,
    description: `[MCP server ${server.name}] List the server's resources, or read one by its uri.`,
    input,
    permissions: readOnly ? ['read'] : ['write', 'execute'],
    readOnly,
    display: {
      kind: 'mcp',
      title: 'Resources',
      tag: server.name,
      headline: (i) => ({
        ...(i.uri ? { verb: 'Read resource', detail: i.uri, code: true } : { verb: 'List resources', done: 'Listed resources' }),
        summary: `${server.name}: ${i.uri ? `read ${i.uri}` : 'list resources'}`,
      }),
    },
    async run(i, ctx): Promise<ToolResult> {
      const decision = await ctx.approve({ info: { kind: 'mcp', server: server.name, tool_name: name, arguments: JSON.stringify(i), reason: 'reads the server\'s resources' } });
      if (!decision.approved) return { content: rejectionText(decision, `calling ${name}`, 'Nothing was read.'), isError: true };
      const conn = server.connection();
      if ('down' in conn) throw new ToolError(`The MCP server ${server.name} is not running (${conn.down}).`);
      try {
        const opts = { signal: ctx.signal, timeoutMs: server.timeoutMs() };
        return { content: i.uri ? renderResourceContents(await conn.readResource(i.uri, opts)) : renderResourceList(await conn.listResources(opts), server.name) };
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw new ToolError(`The MCP server ${server.name} could not ${i.uri ? `read ${i.uri}` : 'list its resources'}: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}
