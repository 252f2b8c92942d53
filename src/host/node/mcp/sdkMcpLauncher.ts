/**
 * Starts MCP servers with the SDK: stdio servers as child processes in the workspace (with only a
 * safe default environment plus what the configuration sets: the user's API key is not passed on),
 * their stderr to the log; HTTP servers over streamable HTTP, falling back to the older SSE
 * transport when the server does not speak it. Closing the connection ends the process and
 * everything it started: on Linux the server runs in a PID namespace of its own (ownPidNamespace.ts),
 * so a grandchild that called `setsid` ends with it too, when it exits, when it is closed, and when
 * the run ends (bwrap dies with its parent); and it leads a session of its own (setsid), ended whole
 * when it is closed — all there is where no PID namespace can be made.
 */
import * as fs from 'node:fs';
import type { McpServerDef } from '../../../core/mcp/mcpConfig';
import type { McpCallOptions, McpConnection, McpConnectionEvents, McpLauncher } from '../../../core/mcp/mcpConnection';
import { ownPidNamespace } from '../ownPidNamespace';
import { mcpSdk } from './mcpSdk';

/** util-linux setsid, where there is one: the server leads its own process group, ended as one. */
const SETSID = process.platform === 'linux' ? ['/usr/bin/setsid', '/bin/setsid'].find((p) => fs.existsSync(p)) : undefined;

function killGroup(pid: number | null | undefined): void {
  if (!SETSID || !pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const CLIENT_INFO = { name: 'tandem', version: '0.1.0' };
/** Starting (spawn, handshake, first tool list) may take this long. */
const START_TIMEOUT_MS = 30_000;

type Sdk = ReturnType<typeof mcpSdk>;
type SdkClient = InstanceType<Sdk['Client']>;

export class SdkMcpLauncher implements McpLauncher {
  async connect(server: McpServerDef, cwd: string, events: McpConnectionEvents, signal: AbortSignal): Promise<McpConnection> {
    const sdk = mcpSdk();
    let tools: unknown[] = [];
    let closing = false;
    const client: SdkClient = new sdk.Client(CLIENT_INFO, {
      capabilities: {},
      listChanged: {
        tools: {
          autoRefresh: true,
          debounceMs: 0,
          onChanged: (error, list) => {
            if (error) events.log(`tool list refresh failed: ${error.message}`);
            else if (list) {
              tools = list;
              events.onToolsChanged();
            }
          },
        },
      },
    });
    client.onerror = (err) => events.log(`protocol error: ${err.message}`);
    const c = server.config;
    const opts = { signal, timeout: START_TIMEOUT_MS };
    /** The stdio server's process group (its pid, as setsid made it a leader). */
    let groupOf = (): number | null | undefined => undefined;
    if (c.transport === 'stdio') {
      const ns = ownPidNamespace(c.cwd ?? cwd);
      if ('unavailable' in ns) events.log(`its processes are ended by process group only, which a child that calls setsid leaves (${ns.unavailable})`);
      const argv = [...(SETSID ? [SETSID] : []), ...('argv' in ns ? ns.argv : []), c.command, ...(c.args ?? [])];
      const transport = new sdk.StdioClientTransport({
        command: argv[0]!,
        args: argv.slice(1),
        env: { ...sdk.getDefaultEnvironment(), ...((c.env as Record<string, string> | undefined) ?? {}) },
        cwd: c.cwd ?? cwd,
        stderr: 'pipe',
      });
      let tail = '';
      transport.stderr?.on('data', (d: Buffer) => {
        const lines = (tail + d.toString('utf8')).split('\n');
        tail = lines.pop() ?? '';
        for (const l of lines) if (l.trim()) events.log(l);
      });
      client.onclose = () => {
        killGroup(groupOf());
        if (!closing) events.onClosed('the server process exited');
      };
      await client.connect(transport, opts);
      const pid = transport.pid;
      groupOf = () => pid;
    } else {
      const url = new URL(c.url);
      const requestInit = { headers: c.headers ?? {} };
      client.onclose = () => {
        if (!closing) events.onClosed('the server closed the session');
      };
      if (c.transport === 'sse') await client.connect(new sdk.SSEClientTransport(url, { requestInit }), opts);
      else {
        try {
          await client.connect(new sdk.StreamableHTTPClientTransport(url, { requestInit }), opts);
        } catch (err) {
          if (signal.aborted) throw err;
          // Older servers speak only HTTP+SSE: try that before giving up.
          events.log(`streamable HTTP failed (${err instanceof Error ? err.message : String(err)}); trying SSE`);
          await client.connect(new sdk.SSEClientTransport(url, { requestInit }), opts);
        }
      }
    }
    try {
      tools = await listAllTools(client, opts);
    } catch (err) {
      closing = true;
      await client.close().catch(() => undefined);
      killGroup(groupOf());
      throw err;
    }
    const hasResources = client.getServerCapabilities()?.resources !== undefined;
    const callOpts = (o: McpCallOptions) => ({ signal: o.signal, timeout: o.timeoutMs });
    return {
      tools: () => tools,
      hasResources,
      callTool: (name, args, o) => client.callTool({ name, arguments: args }, undefined, callOpts(o)),
      listResources: (o) => client.listResources(undefined, callOpts(o)),
      readResource: (uri, o) => client.readResource({ uri }, callOpts(o)),
      close: async () => {
        closing = true;
        try {
          await client.close();
        } finally {
          killGroup(groupOf());
        }
      },
    };
  }
}

async function listAllTools(client: SdkClient, opts: { signal: AbortSignal; timeout: number }): Promise<unknown[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const all: unknown[] = [];
  let cursor: string | undefined;
  // Bounded: a server that pages forever is not waited on.
  for (let page = 0; page < 50; page++) {
    const r = await client.listTools(cursor ? { cursor } : undefined, opts);
    all.push(...r.tools);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return all;
}
