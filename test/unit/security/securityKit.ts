/**
 * Shared by the adversarial security tests: a byte-exact fingerprint of a folder tree (so "nothing
 * changed" means no file changed, appeared, vanished or was re-pointed), and the built CLI run
 * against a scripted server.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { runCliProcess, type CliRun } from '../../support/cliRunner';
// The step builders, for the security suites that import everything from here.
export { calls, tc, text } from '../../support/scriptSteps';

/** path → "file <sha256>" | "dir" | "link -> target" | "other <mode>", for every entry under `root` (symlinks not followed). */
export function treeFingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs);
      const st = fs.lstatSync(abs);
      if (st.isSymbolicLink()) out[rel] = `link -> ${fs.readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(abs);
      } else if (st.isFile()) out[rel] = `file ${createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}`;
      else out[rel] = `other ${st.mode.toString(8)}`;
    }
  };
  walk(root);
  return out;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Runs `node dist/cli.js run …` against a fresh scripted server; the caller closes `server`. */
export async function runCliAgainst(
  cli: string,
  steps: ScriptStep[],
  ws: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ run: CliRun; server: ScriptedServer }> {
  const server = await ScriptedServer.start(steps);
  try {
    const run = await runCliProcess(cli, ['run', '--workspace', ws, '--base-url', server.url, ...args], {
      env: { TANDEM_API_KEY: 'sk-security-suite-key', TANDEM_MAX_RETRIES: '0', ...env },
    });
    return { run, server };
  } catch (e) {
    await server.close();
    throw e;
  }
}

/** Every write-capable tool name, and the shell. */
export const WRITE_TOOLS = ['write_file', 'edit_file', 'apply_patch', 'delete_file', 'run_command'];
