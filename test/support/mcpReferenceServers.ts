/**
 * The MCP reference servers from npm (devDependencies), run as real processes: server-everything
 * (stdio, streamable HTTP, SSE) and server-filesystem. Each stdio command line carries a unique tag
 * so a test can find (and kill) its own process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { McpServerDef } from '../../src/core/mcp/mcpConfig';
import { McpHub, type McpHubOptions } from '../../src/core/mcp/mcpHub';
import { SdkMcpLauncher } from '../../src/host/node/mcp/sdkMcpLauncher';
import { nullLogger } from '../../src/core/ports/ports';

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

let tags = 0;
export function uniqueTag(): string {
  return `--tandem-test-${process.pid}-${++tags}-${Date.now()}`;
}

export function everythingStdio(name = 'everything', origin: McpServerDef['origin'] = 'user', tag = uniqueTag()): McpServerDef {
  return { name, origin, config: { transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio', tag] } };
}

/** The pid of the live process whose argv is exactly this, if any. */
export function pidOf(argv: readonly string[]): number | undefined {
  const wanted = argv.map((a) => `${a}\u0000`).join('');
  for (const p of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') === wanted) return Number(p);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

export function hubFor(cwd: string, overrides: Partial<McpHubOptions> = {}): McpHub {
  return new McpHub({
    launcher: new SdkMcpLauncher(),
    trust: { isApproved: () => true },
    cwd,
    workspaceFolder: cwd,
    userHome: process.env.HOME ?? '/',
    env: process.env,
    timeoutMs: () => 20_000,
    trustedForReading: () => false,
    logger: nullLogger,
    ...overrides,
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** server-everything over HTTP (`streamableHttp` or `sse`), listening once it says so. */
export async function everythingHttp(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess; close(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 20_000);
    const onData = (d: Buffer) => {
      if (/listening|running/i.test(d.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`, child, close: () => child.kill() };
}


