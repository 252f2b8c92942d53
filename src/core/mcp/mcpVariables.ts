/**
 * `${…}` variables in an MCP server's configuration, as VS Code's mcp.json has them:
 * `${input:id}` (asked once, kept by the host's secret store, never in settings or history),
 * `${env:NAME}`, `${workspaceFolder}`, `${userHome}`. An unknown variable is left as written.
 */
import type { McpInput, McpServerConfig } from './mcpConfig';

/** Asks for an input's value once and keeps it (SecretStorage in the editor, the environment in the CLI). */
export interface McpInputResolver {
  /** undefined when the user gave nothing (the server is then not started). */
  resolve(input: McpInput, server: string): Promise<string | undefined>;
}

export interface VariableContext {
  workspaceFolder?: string;
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  inputs: readonly McpInput[];
  resolver?: McpInputResolver;
  server: string;
}

const VAR = /\$\{(input|env):([^}]+)\}|\$\{(workspaceFolder|userHome)\}/g;

async function substitute(text: string, ctx: VariableContext, missing: string[]): Promise<string> {
  const matches = [...text.matchAll(VAR)];
  if (!matches.length) return text;
  let out = '';
  let last = 0;
  for (const m of matches) {
    out += text.slice(last, m.index);
    last = m.index! + m[0].length;
    if (m[3] === 'workspaceFolder') out += ctx.workspaceFolder ?? m[0];
    else if (m[3] === 'userHome') out += ctx.userHome;
    else if (m[1] === 'env') out += ctx.env[m[2]!] ?? '';
    else {
      const input = ctx.inputs.find((i) => i.id === m[2]);
      const value = input && ctx.resolver ? await ctx.resolver.resolve(input, ctx.server) : undefined;
      if (value === undefined) missing.push(m[2]!);
      out += value ?? '';
    }
  }
  return out + text.slice(last);
}

/** The configuration with its variables filled in, or the inputs nobody gave. */
export async function resolveVariables(c: McpServerConfig, ctx: VariableContext): Promise<{ ok: true; config: McpServerConfig } | { ok: false; missing: string[] }> {
  const missing: string[] = [];
  const sub = (s: string) => substitute(s, ctx, missing);
  let config: McpServerConfig;
  if (c.transport === 'stdio') {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.env ?? {})) if (v !== null) env[k] = await sub(String(v));
    config = { ...c, command: await sub(c.command), args: await Promise.all(c.args.map(sub)), env, ...(c.cwd ? { cwd: await sub(c.cwd) } : {}) };
  } else {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.headers ?? {})) headers[k] = await sub(v);
    config = { ...c, url: await sub(c.url), headers };
  }
  return missing.length ? { ok: false, missing } : { ok: true, config };
}
