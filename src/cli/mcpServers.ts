/**
 * `--mcp-config FILE`: the MCP servers of one CLI run. The user named the file on the command line,
 * so its servers start without the approval a repository's own `.vscode/mcp.json` needs (the CLI
 * never reads that one by itself). `${input:id}` values come from `TANDEM_MCP_INPUT_<ID>`, never
 * from a file or history. Servers are started before the turn, so the first request has their
 * tools; each server's state is said on stderr.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseMcpConfig, type McpInput, type McpServerDef } from '../core/mcp/mcpConfig';
import { McpHub } from '../core/mcp/mcpHub';
import type { Logger } from '../core/ports/ports';
import { SdkMcpLauncher } from '../host/node/mcp/sdkMcpLauncher';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** The environment variable an input's value is read from: TANDEM_MCP_INPUT_ + the id upper-cased, non-alphanumerics as `_`. */
export function inputEnvName(id: string): string {
  return `TANDEM_MCP_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export async function startCliMcp(
  files: readonly string[],
  o: { cwd: string; workspace: string; env: NodeJS.ProcessEnv; logger: Logger; say(line: string): void },
): Promise<McpHub | { error: string }> {
  const servers: McpServerDef[] = [];
  const inputs: McpInput[] = [];
  for (const f of files) {
    const file = path.resolve(o.cwd, f);
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      return { error: `--mcp-config ${f}: ${err instanceof Error ? err.message : String(err)}` };
    }
    const parsed = parseMcpConfig(data, 'cli');
    for (const p of parsed.problems) o.say(`tandem: --mcp-config ${f}: ${p}\n`);
    servers.push(...parsed.servers);
    inputs.push(...parsed.inputs);
  }
  const timeout = Number(o.env.TANDEM_MCP_TIMEOUT_MS);
  const hub = new McpHub({
    launcher: new SdkMcpLauncher(),
    // Servers from --mcp-config are the user's own: nothing to approve.
    trust: { isApproved: () => true },
    inputs: { resolve: async (input) => o.env[inputEnvName(input.id)] ?? input.default },
    cwd: o.workspace,
    workspaceFolder: o.workspace,
    userHome: o.env.HOME || os.homedir(),
    env: o.env,
    timeoutMs: () => (Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_MCP_TIMEOUT_MS),
    trustedForReading: () => false,
    logger: o.logger,
  });
  hub.configure(servers, inputs);
  await hub.startAll();
  for (const v of hub.views()) {
    const s = v.status;
    if (s.state === 'ready') o.say(`» MCP server ${v.name}: ready, ${v.tools.length} tools\n`);
    else if (s.state === 'error') {
      const missing = /no value given for \$\{input:([^}]+)\}/.exec(s.message)?.[1];
      o.say(`» MCP server ${v.name}: ${s.message}${missing ? ` (set ${inputEnvName(missing)})` : ''}\n`);
    } else o.say(`» MCP server ${v.name}: ${s.state.replace('_', ' ')}\n`);
  }
  return hub;
}
