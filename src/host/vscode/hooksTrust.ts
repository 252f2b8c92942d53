import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { HookCommand } from '../../core/userHooks/hookConfig';

const KEY = 'tandem.hooks.trustedFiles';

/**
 * Trust in a repository's `.tandem/hooks.json`, per workspace (workspaceState), keyed by the file
 * and exactly the commands it holds: a changed command is a different file and is asked about
 * again. The question is a modal naming every command, since they run on the user's machine
 * outside the sandbox at every matching event; nothing runs until the user picks "Trust and Run".
 * Revoked from Tandem: Hooks. The same shape as the MCP servers' approvals (mcpTrust.ts).
 */
export class VscodeHooksTrust {
  /** Files the user declined in this window: not asked again until the file changes or the window reloads. */
  private readonly declined = new Set<string>();

  constructor(private readonly state: vscode.Memento) {}

  private key(file: string, commands: readonly HookCommand[]): string {
    const what = commands.map((c) => [c.event, c.matcher, c.command, c.timeoutMs]);
    return `${file}\n${createHash('sha256').update(JSON.stringify(what)).digest('hex')}`;
  }

  private trusted(): string[] {
    const v = this.state.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  isTrusted(file: string, commands: readonly HookCommand[]): boolean {
    return this.trusted().includes(this.key(file, commands));
  }

  /** Asks once per window (a "no" is not asked again until the commands change); true when the user trusts them now. */
  async ask(file: string, shown: string, commands: readonly HookCommand[], again = false): Promise<boolean> {
    const key = this.key(file, commands);
    if (this.declined.has(key) && !again) return false;
    const trust = 'Trust and Run';
    const list = commands.map((c) => `• ${c.event}${c.matcher ? ` [${c.matcher}]` : ''}: ${c.command}`).join('\n');
    // Modal: programs from the repository are about to run at every tool call; the answer must be deliberate.
    const picked = await vscode.window.showWarningMessage(
      `This workspace's ${shown} runs ${commands.length === 1 ? 'a command' : `${commands.length} commands`} on your machine at every matching event. Trust ${commands.length === 1 ? 'it' : 'them'}?`,
      {
        modal: true,
        detail: `${list}\n\nHooks run outside the command sandbox, as your own commands. Only trust hooks from repositories you trust. Tandem remembers your answer for this workspace; revoke it in Tandem: Hooks.`,
      },
      trust,
    );
    if (picked !== trust) {
      this.declined.add(key);
      return false;
    }
    this.declined.delete(key);
    await this.state.update(KEY, [...new Set([...this.trusted().filter((k) => !k.startsWith(`${file}\n`)), key])]);
    return true;
  }

  async revoke(file: string): Promise<void> {
    await this.state.update(KEY, this.trusted().filter((k) => !k.startsWith(`${file}\n`)));
  }

  trustedFiles(): string[] {
    return this.trusted().map((k) => k.split('\n')[0]!);
  }
}
