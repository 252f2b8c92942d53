/**
 * Starts llama.cpp's real `llama-server` (built by scripts/setup-llama-server.mjs) on a free port
 * with a tiny model written for the test, and a byte-for-byte TCP tap in front of it that counts
 * the chat requests that reached the server (the server itself logs none by default).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeTinyModel, type TinyBehaviour } from './tinyModel';

interface LlamaServerPaths {
  LLAMA_SERVER_BIN: string;
  LLAMA_SERVER_OK: string;
  LLAMA_SERVER_TEMPLATES: string;
  TEST_TEMPLATE: string;
}

export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'scripts', 'llama-server-paths.mjs'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

/** The pinned build's paths, from the same module the setup script uses. */
export async function llamaServerPaths(): Promise<LlamaServerPaths> {
  return (await import(pathToFileURL(path.join(repoRoot(), 'scripts', 'llama-server-paths.mjs')).href)) as LlamaServerPaths;
}

/** The built binary; a missing build fails with the command that makes it (never a skip). */
export async function requireLlamaServer(): Promise<LlamaServerPaths> {
  const p = await llamaServerPaths();
  if (!fs.existsSync(p.LLAMA_SERVER_OK) || !fs.existsSync(p.LLAMA_SERVER_BIN) || !fs.existsSync(path.join(p.LLAMA_SERVER_TEMPLATES, p.TEST_TEMPLATE))) {
    assert.fail(`llama-server is not built (${p.LLAMA_SERVER_BIN}). Run \`node scripts/setup-llama-server.mjs\` (npm test does).`);
  }
  return p;
}

const modelCache = new Map<TinyBehaviour, string>();
const modelDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-tiny-gguf-'));
process.on('exit', () => fs.rmSync(modelDir, { recursive: true, force: true }));

/** One GGUF per behaviour per test run (about 16 MB each). */
export async function tinyModelFile(behaviour: TinyBehaviour): Promise<string> {
  const cached = modelCache.get(behaviour);
  if (cached) return cached;
  // A chat template from llama.cpp's own models/templates, carried in the model's metadata.
  const { LLAMA_SERVER_TEMPLATES, TEST_TEMPLATE } = await requireLlamaServer();
  const chatTemplate = fs.readFileSync(path.join(LLAMA_SERVER_TEMPLATES, TEST_TEMPLATE), 'utf8');
  const file = path.join(modelDir, `tiny-${behaviour}.gguf`);
  await writeTinyModel(file, { behaviour, chatTemplate });
  modelCache.set(behaviour, file);
  return file;
}

export interface LlamaServerOptions {
  behaviour: TinyBehaviour;
  /** false starts the server with --no-jinja (the legacy template path that refuses `tools`). */
  jinja: boolean;
  apiKey?: string;
  ctxSize?: number;
}

export interface RunningLlamaServer {
  /** The tap's URL with `/v1`: what Tandem is configured with. */
  baseURL: string;
  /** The server's own port, without the tap. */
  directURL: string;
  process: ChildProcess;
  /** Chat completion requests that reached the server through the tap. */
  chatRequests(): number;
  /** The body of the last chat request through the tap (a benchmark replays it). */
  lastRequestBody(): string | undefined;
  /** Everything the server logged. */
  log(): string;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`llama-server exited (${child.exitCode ?? child.signalCode}):\n${log().slice(-4000)}`);
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`llama-server did not become healthy in ${timeoutMs} ms:\n${log().slice(-4000)}`);
}

const REQUEST_LINE = 'POST /v1/chat/completions ';

/** A TCP pass-through that counts `POST /v1/chat/completions` request lines on the way in. */
function startTap(targetPort: number): Promise<{ port: number; count: () => number; lastBody: () => string | undefined; close: () => Promise<void> }> {
  let count = 0;
  let lastRaw = '';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let tail = '';
    client.on('data', (d) => {
      const text = tail + d.toString('latin1');
      const found = text.split(REQUEST_LINE).length - 1;
      count += found;
      if (found > 0) lastRaw = text.slice(text.lastIndexOf(REQUEST_LINE));
      else if (lastRaw) lastRaw += d.toString('latin1');
      // Long enough for a request line split across chunks, too short to hold a whole (counted) one.
      tail = text.slice(-(REQUEST_LINE.length - 1));
      upstream.write(d);
    });
    upstream.on('data', (d) => client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        count: () => count,
        lastBody: () => {
          const at = lastRaw.indexOf('\r\n\r\n');
          return at < 0 ? undefined : Buffer.from(lastRaw.slice(at + 4), 'latin1').toString('utf8');
        },
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}

export async function startLlamaServer(o: LlamaServerOptions): Promise<RunningLlamaServer> {
  const { LLAMA_SERVER_BIN } = await requireLlamaServer();
  const model = await tinyModelFile(o.behaviour);
  const port = await freePort();
  const args = [
    '-m', model,
    '--host', '127.0.0.1', '--port', String(port),
    '-c', String(o.ctxSize ?? 16384),
    '-np', '1',
    '-t', '2',
    // Greedy: the model's answers are fixed by its weights; this only removes sampling noise.
    '--temp', '0', '--top-k', '1',
    '-n', '4096',
    o.jinja ? '--jinja' : '--no-jinja',
    ...(o.apiKey ? ['--api-key', o.apiKey] : []),
  ];
  const child = spawn(LLAMA_SERVER_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const directURL = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(directURL, child, () => log, 60_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  const tap = await startTap(port);
  const exited = new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    baseURL: `http://127.0.0.1:${tap.port}/v1`,
    directURL,
    process: child,
    chatRequests: tap.count,
    lastRequestBody: tap.lastBody,
    log: () => log,
    kill: () => stop('SIGKILL'),
    async close() {
      await stop('SIGTERM');
      await tap.close();
    },
  };
}
