import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

/**
 * Where the CLI keeps a workspace's history: the user's data dir, one folder per workspace
 * (`<data>/tandem/workspaces/<name>-<hash of its real path>`), not `<workspace>/.tandem`.
 * Why: transcripts hold whatever the agent read (keys in a .env, customer data) and must never
 * be committed by a `git add -A`, wiped by `git clean -xfd`, or read back by the agent's own
 * search and read tools; VS Code's `storageUri`, which the editor uses, lives outside the
 * workspace for the same reasons, and both hosts then behave alike.
 * `TANDEM_DATA_DIR` (or `--history-dir`) overrides the base, e.g. for CI or tests.
 */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TANDEM_DATA_DIR) return env.TANDEM_DATA_DIR;
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'tandem');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'tandem');
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'tandem');
}

export function cliHistoryDir(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(dataHome(env), 'workspaces', workspaceFolderName(workspace));
}

/**
 * One folder name per workspace folder, `<name>-<hash of its real path>`: the same folder opened
 * from any window (or the CLI) gets the same name, and two folders with the same name do not mix.
 */
export function workspaceFolderName(workspace: string): string {
  let real = path.resolve(workspace);
  try {
    real = fs.realpathSync(real);
  } catch {
    /* a workspace that does not exist yet still gets a stable folder */
  }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 12);
  const name = path.basename(real).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
  return `${name}-${hash}`;
}
