import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EnvOverrides } from '../node/nodeCommandRunner';

/** `terminal.integrated.env.<platform>`'s key for this system. */
function platformKey(): 'linux' | 'osx' | 'windows' {
  return process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux';
}

/**
 * The user's `terminal.integrated.env.<platform>` with its variables resolved, as VS Code applies it
 * to every terminal it opens. The agent's commands must see the same environment as the user's own
 * terminal: a PATH set there (a Node version manager's folder, say) decides which `node` a check runs.
 * The agent's terminal sets PATH itself (for its launcher), which would otherwise replace this one,
 * and the child-process runners never saw the setting at all.
 */
export function userTerminalEnv(): EnvOverrides {
  const raw = vscode.workspace.getConfiguration('terminal.integrated').get<Record<string, unknown>>(`env.${platformKey()}`);
  if (!raw || typeof raw !== 'object') return {};
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const out: EnvOverrides = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === null) out[name] = null;
    else if (typeof value === 'string') out[name] = resolveTerminalVariables(value, process.env, folder);
  }
  return out;
}

/**
 * `${env:NAME}`, `${workspaceFolder}`, `${userHome}` and `${pathSeparator}` (`${/}`) as VS Code's
 * variable resolver reads them in terminal settings; any other variable stays as written.
 */
export function resolveTerminalVariables(value: string, env: NodeJS.ProcessEnv, workspaceFolder: string | undefined): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name.startsWith('env:')) return env[name.slice(4)] ?? '';
    if (name === 'workspaceFolder') return workspaceFolder ?? whole;
    if (name === 'userHome') return os.homedir();
    if (name === 'pathSeparator' || name === '/') return path.sep;
    return whole;
  });
}
