/** Builds the CLI bundle (as `npm run build` does) and runs it as a child process, without a TTY. */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer, type ScriptStep } from './scriptedServer';

/** Same options as the CLI target in esbuild.mjs; rebuilt so the test runs what the source says now. */
export async function buildCli(): Promise<string> {
  const root = findRoot();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  const outfile = path.join(root, 'dist', 'cli.js');
  await esbuild.build({
    entryPoints: [path.join(root, 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  });
  // The openai SDK beside it, as esbuild.mjs ships it: the CLI loads it on the first request, and its
  // fault classification must work with the classes from that file (core/llm/openaiSdk.ts).
  await esbuild.build({
    entryPoints: { 'openai-sdk': path.join(root, 'src', 'core', 'llm', 'openaiSdkEntry.ts') },
    outdir: path.join(root, 'dist'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', logLevel: 'warning',
  });
  return outfile;
}

function findRoot(): string {
  let dir = __dirname;
  for (;;) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require(path.join(dir, 'package.json'));
      if (pkg.name === 'tandem') return dir;
    } catch {
      /* keep going up */
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package root not found');
    dir = up;
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCliProcess(
  cli: string,
  args: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number; onStdout?(all: string, child: import('node:child_process').ChildProcess): void } = {},
): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The step workspace kind a suite runs on passes (stepWorkspaceKinds.ts); the rest of Tandem's and OpenAI's variables do not.
    if (v !== undefined && (!/^(OPENAI_|TANDEM_)/.test(k) || k === 'TANDEM_STEP_WORKSPACES')) env[k] = v;
  }
  // History and other data go to a throwaway folder, never the user's data dir.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cli-data-'));
  env.TANDEM_DATA_DIR = dataDir;
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      opts.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit in time.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  }).finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
}

/** What a test of the built CLI works with; `ws` and `out` are fresh for each test. */
export interface CliTestKit {
  /** The CLI bundle, built once for the suite. */
  readonly cli: string;
  /** This test's workspace folder. */
  readonly ws: string;
  /** A folder outside the workspace (for escapes to aim at), when the suite asked for one. */
  readonly out: string;
  /** The scripted server this test started, if any: closed after the test. */
  server: ScriptedServer | undefined;
  /**
   * Starts this test's scripted server on `steps` and runs `tandem <command> --workspace <ws>
   * --base-url <server> …rest`, with no retries and a key unless `env` says otherwise.
   */
  run(steps: ScriptStep[], args: readonly string[], env?: Record<string, string | undefined>): Promise<CliRun>;
}

export interface CliTestKitOptions {
  /** The temp folders' name prefix (`out` gets `<prefix>out-`). */
  prefix: string;
  /** Also make a folder outside the workspace. */
  outside?: boolean;
  /** Where the folders go (default: the OS temp folder). */
  tmpRoot?: string;
  /** Resolve the folders' real paths (a temp root behind a symlink would otherwise show). */
  realpath?: boolean;
  /** Fills the folders before each test. */
  setup?(ws: string, out: string): void;
}

/**
 * Registers the hooks of a suite that runs the built CLI: the bundle built once, a fresh workspace
 * (and an outside folder) for each test, and after it the test's server closed and the folders removed.
 */
export function cliTestKit(o: CliTestKitOptions): CliTestKit {
  let cli: string | undefined;
  let ws: string | undefined;
  let out: string | undefined;
  const made = (v: string | undefined, what: string): string => {
    if (v === undefined) throw new Error(`the CLI kit's ${what} exists only inside a test`);
    return v;
  };
  const kit: CliTestKit = {
    get cli() { return made(cli, 'CLI bundle'); },
    get ws() { return made(ws, 'workspace'); },
    get out() { return made(out, 'outside folder'); },
    server: undefined,
    async run(steps, [command, ...rest], env = {}) {
      await kit.server?.close();
      const server = await ScriptedServer.start(steps);
      kit.server = server;
      return runCliProcess(kit.cli, [command!, '--workspace', kit.ws, '--base-url', server.url, ...rest], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', ...env } });
    },
  };
  const folder = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(o.tmpRoot ?? os.tmpdir(), prefix));
    return o.realpath ? fs.realpathSync(dir) : dir;
  };
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = folder(o.prefix);
    out = o.outside ? folder(`${o.prefix}out-`) : undefined;
    o.setup?.(ws, out ?? '');
  });
  afterEach(async () => {
    await kit.server?.close();
    kit.server = undefined;
    for (const dir of [ws, out]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    ws = out = undefined;
  });
  return kit;
}
