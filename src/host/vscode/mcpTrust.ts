import * as vscode from 'vscode';
import type { McpServerDef } from '../../core/mcp/mcpConfig';
import type { McpTrustStore } from '../../core/mcp/mcpHub';

const KEY = 'tandem.mcp.approvedServers';

/**
 * Approvals of the workspace's own MCP servers, per workspace (workspaceState), keyed by name and
 * command line: a changed command line is a different server and is asked about again. The question
 * names both; nothing starts until the user picks "Allow and Start".
 */
export class VscodeMcpTrust implements McpTrustStore {
  constructor(private readonly state: vscode.Memento) {}

  private key(def: McpServerDef, commandLine: string): string {
    return `${def.name}\n${commandLine}`;
  }

  private approved(): string[] {
    const v = this.state.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  isApproved(def: McpServerDef, commandLine: string): boolean {
    return this.approved().includes(this.key(def, commandLine));
  }

  async ask(def: McpServerDef, commandLine: string): Promise<boolean> {
    const allow = 'Allow and Start';
    // Modal: a program from the repository is about to run; the answer must be a deliberate one.
    const picked = await vscode.window.showWarningMessage(
      `This workspace defines the MCP server "${def.name}". Start it?`,
      { modal: true, detail: `It runs: ${commandLine}\n\nOnly start servers from repositories you trust. Tandem remembers your answer for this workspace; revoke it in Tandem: MCP Servers.` },
      allow,
    );
    if (picked !== allow) return false;
    await this.state.update(KEY, [...new Set([...this.approved(), this.key(def, commandLine)])]);
    return true;
  }

  /** Forgets the approval of a server (it is stopped by the caller and asked about again on the next start). */
  async revoke(name: string): Promise<void> {
    await this.state.update(KEY, this.approved().filter((k) => !k.startsWith(`${name}\n`)));
  }

  approvedNames(): string[] {
    return this.approved().map((k) => k.split('\n')[0]!);
  }
}
