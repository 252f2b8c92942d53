/**
 * MCP server configuration in VS Code's own `mcp.json` format (`servers` + `inputs`), which is also
 * what `tandem.mcpServers` and the CLI's `--mcp-config FILE` hold. The file is input from outside
 * (a repository may ship one), so it is checked with zod and a bad entry is reported by name while
 * the others still load. Claude's `mcpServers` key is accepted as a synonym of `servers`.
 */
import * as z from 'zod';

const Env = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

const StdioServer = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: Env.optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  /** Tandem's own (user and CLI configs only; a workspace file cannot trust itself): read-only tools may be offered to read-only roles. */
  trustReadOnly: z.boolean().optional(),
});

const HttpServer = z.object({
  type: z.enum(['http', 'sse']).optional(),
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).optional(),
  trustReadOnly: z.boolean().optional(),
});

const Input = z.object({
  type: z.literal('promptString'),
  id: z.string().min(1).max(100),
  description: z.string().max(500).default(''),
  password: z.boolean().optional(),
  default: z.string().optional(),
});
export type McpInput = z.infer<typeof Input>;

export type McpServerConfig =
  | (z.infer<typeof StdioServer> & { transport: 'stdio' })
  | (z.infer<typeof HttpServer> & { transport: 'http' | 'sse' });

/** Where a server was defined: a repository's (`workspace`) never starts before the user approves it. */
export type McpOrigin = 'workspace' | 'user' | 'cli';

export interface McpServerDef {
  name: string;
  origin: McpOrigin;
  config: McpServerConfig;
}

export interface ParsedMcpConfig {
  servers: McpServerDef[];
  inputs: McpInput[];
  /** Entries that were not usable, said per name. */
  problems: string[];
}

/** A server name is also the prefix of its tools' names (`name__tool`): letters, digits, `_`, `-`, `.`. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$/;

export function parseMcpConfig(data: unknown, origin: McpOrigin): ParsedMcpConfig {
  const out: ParsedMcpConfig = { servers: [], inputs: [], problems: [] };
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    out.problems.push('the MCP configuration is not an object with "servers"');
    return out;
  }
  const rec = data as Record<string, unknown>;
  const servers = rec.servers ?? rec.mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) out.problems.push('"servers" is not an object of named servers');
  for (const [name, raw] of Object.entries((servers as Record<string, unknown> | undefined) ?? {})) {
    if (!SERVER_NAME.test(name)) {
      out.problems.push(`server "${name}": the name may hold only letters, digits, "_", "-" and "." (at most 48)`);
      continue;
    }
    const entry = raw as Record<string, unknown> | null;
    const type = entry && typeof entry === 'object' ? entry.type : undefined;
    const isHttp = type === 'http' || type === 'sse' || (type === undefined && entry && typeof entry === 'object' && 'url' in entry);
    const parsed = isHttp ? HttpServer.safeParse(raw) : StdioServer.safeParse(raw);
    if (!parsed.success) {
      out.problems.push(`server "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'} ${i.message}`).join('; ')}`);
      continue;
    }
    const config = isHttp
      ? ({ ...(parsed.data as z.infer<typeof HttpServer>), transport: type === 'sse' ? 'sse' : 'http' } as McpServerConfig)
      : ({ ...(parsed.data as z.infer<typeof StdioServer>), transport: 'stdio' } as McpServerConfig);
    // A repository's file never grants its own servers trust.
    if (origin === 'workspace') delete (config as { trustReadOnly?: boolean }).trustReadOnly;
    out.servers.push({ name, origin, config });
  }
  if (Array.isArray(rec.inputs)) {
    for (const raw of rec.inputs) {
      const parsed = Input.safeParse(raw);
      if (parsed.success) out.inputs.push(parsed.data);
      else out.problems.push(`input ${JSON.stringify((raw as { id?: unknown })?.id ?? '?')}: only promptString inputs with an id are supported`);
    }
  }
  return out;
}

/** The command line a user approves for a stdio server (what will run), or the URL of an HTTP one. */
export function serverCommandLine(c: McpServerConfig): string {
  if (c.transport === 'stdio') return [c.command, ...c.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  return c.url;
}
