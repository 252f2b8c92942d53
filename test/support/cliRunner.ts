/** Builds the CLI bundle (as `npm run build` does) and runs it as a child process, without a TTY. */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
    if (v !== undefined && !/^(OPENAI_|TANDEM_)/.test(k)) env[k] = v;
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
