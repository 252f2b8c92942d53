/**
 * One MCP tool as a row of the tool registry: `server__tool`, the server's own JSON schema, and
 * permissions decided conservatively. A tool's effects are unknown, so it needs `write` and
 * `execute` (read-only roles are never offered it, read-only shell or not); only a tool the server
 * marks `readOnlyHint: true` on a server the user trusts for reading is a plain `read` tool. Every
 * call asks for approval unless the user allowed that very tool (blanket approval never covers it).
 */
import * as z from 'zod';
import type { Permission } from '../../protocol';
import type { Tool, ToolResult } from '../tools/tool';
import { ToolError } from '../tools/tool';
import { rejectionText } from '../text/rejectionText';
import type { McpToolInfo } from './mcpResults';
import { renderToolResult } from './mcpResults';
import type { McpConnection } from './mcpConnection';

/** OpenAI-compatible function names: letters, digits, `_`, `-`, at most 64. */
const MAX_NAME = 64;
const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

export function mcpToolName(server: string, tool: string): string {
  return `${clean(server)}__${clean(tool)}`.slice(0, MAX_NAME);
}

/** The part of its tools' names a server's name becomes (`acme.prod` and `acme_prod` both `acme_prod`). */
export function mcpNamePrefix(server: string): string {
  return clean(server);
}

/**
 * A tool's input schema goes out with every request; one larger than this (a 250 KB schema) would
 * cost more than whole conversations, so the tool is left out and the log says so.
 */
export const MAX_SCHEMA_CHARS = 16 * 1024;

/** How much of the arguments an approval shows. */
const MAX_SHOWN_ARGS = 4000;
const MAX_DESCRIPTION = 1024;

/** Argument names that usually say what a call is about, most telling first. */
const TELLING = ['path', 'file', 'filepath', 'file_path', 'filename', 'uri', 'url', 'query', 'q', 'pattern', 'command', 'name', 'title', 'message', 'text', 'id'];

function oneLine(s: string, max: number): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The argument that best says what an MCP call is about (the server's schema is all we know): a
 * path, a URI, a query, a name — else the first short plain value. One line, capped.
 */
export function tellingArgument(args: Record<string, unknown>): string | undefined {
  const plain = (v: unknown): string | undefined =>
    typeof v === 'string' ? (v.trim() ? oneLine(v, 80) : undefined) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  const keys = Object.keys(args);
  for (const want of TELLING) {
    const k = keys.find((key) => key.toLowerCase() === want);
    const v = k !== undefined ? plain(args[k]) : undefined;
    if (v) return v;
  }
  for (const k of keys) {
    const v = plain(args[k]);
    if (v) return v;
  }
  return undefined;
}

export interface McpServerHandle {
  readonly name: string;
  /** The live connection, or why there is none. */
  connection(): McpConnection | { down: string };
  timeoutMs(): number;
  /** Whether the user trusts this server's read-only tools for read-only roles. */
  trustedForReading(): boolean;
  /** The connection broke during a call: the server's status says so. */
  failed(message: string): void;
}

export function mcpToolRow(server: McpServerHandle, info: McpToolInfo): Tool<Record<string, unknown>> {
  const name = mcpToolName(server.name, info.name);
  const readOnly = info.annotations?.readOnlyHint === true && server.trustedForReading();
  const permissions: Permission[] = readOnly ? ['read'] : ['write', 'execute'];
  const about = info.description ?? info.annotations?.title ?? info.title ?? info.name;
  /** What its card calls it: the server's title for it when it gives one, else its own name. */
  const title = oneLine(info.annotations?.title ?? info.title ?? info.name, 80);
  const { type: _type, ...schemaRest } = info.inputSchema;
  return {
    name,
    description: `[MCP server ${server.name}] ${about}`.slice(0, MAX_DESCRIPTION),
    input: z.record(z.string(), z.unknown()),
    parameters: { type: 'object', properties: {}, ...schemaRest },
    permissions,
    readOnly,
    display: {
      kind: 'mcp',
      title,
      tag: server.name,
      headline: (i) => {
        const args = JSON.stringify(i);
        const telling = tellingArgument(i);
        return {
          verb: 'Call', done: 'Called', detail: telling ? `${title} · ${telling}` : title,
          summary: `${server.name}: ${info.name}${args && args !== '{}' ? ` ${args.length > 120 ? `${args.slice(0, 119)}…` : args}` : ''}`,
        };
      },
    },
    async run(i, ctx): Promise<ToolResult> {
      const shown = JSON.stringify(i, null, 2);
      const decision = await ctx.approve({
        info: {
          kind: 'mcp',
          server: server.name,
          tool_name: name,
          arguments: shown.length > MAX_SHOWN_ARGS ? `${shown.slice(0, MAX_SHOWN_ARGS)}\n… (${shown.length - MAX_SHOWN_ARGS} more characters)` : shown,
          ...(info.annotations?.readOnlyHint === true ? { reason: 'the server marks this tool read-only' } : {}),
        },
      });
      if (!decision.approved) return { content: rejectionText(decision, `calling ${name}`, 'Nothing was called.'), isError: true };
      const conn = server.connection();
      if ('down' in conn) throw new ToolError(`The MCP server ${server.name} is not running (${conn.down}). Nothing was called.`);
      let raw: unknown;
      try {
        raw = await conn.callTool(info.name, i, { signal: ctx.signal, timeoutMs: server.timeoutMs() });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        const message = err instanceof Error ? err.message : String(err);
        const timedOut = /timed? ?out/i.test(message);
        if (!timedOut) server.failed(message);
        throw new ToolError(timedOut
          ? `The MCP server ${server.name} did not answer ${info.name} within ${Math.round(server.timeoutMs() / 1000)} s; the call was abandoned (it may still have had an effect).`
          : `The MCP server ${server.name} failed during ${info.name}: ${message}`);
      }
      let result;
      try {
        result = renderToolResult(raw);
      } catch (err) {
        throw new ToolError(`The MCP server ${server.name} answered ${info.name} with ${err instanceof Error ? err.message : String(err)}.`);
      }
      return { content: result.text, isError: result.isError };
    },
  };
}
