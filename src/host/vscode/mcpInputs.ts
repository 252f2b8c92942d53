import * as vscode from 'vscode';
import type { McpInput } from '../../core/mcp/mcpConfig';
import type { McpInputResolver } from '../../core/mcp/mcpVariables';

/**
 * `${input:id}` values of MCP configurations: asked once (a password box for secrets) and kept in
 * SecretStorage, never in settings, logs or history. Cleared with the servers view's "Forget inputs".
 */
export class VscodeMcpInputs implements McpInputResolver {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  private key(id: string): string {
    return `tandem.mcp.input.${id}`;
  }

  async resolve(input: McpInput, server: string): Promise<string | undefined> {
    const kept = await this.secrets.get(this.key(input.id));
    if (kept !== undefined) return kept;
    const value = await vscode.window.showInputBox({
      title: `MCP server "${server}" needs ${input.id}`,
      prompt: input.description || input.id,
      password: input.password === true,
      ignoreFocusOut: true,
      ...(input.default !== undefined ? { value: input.default } : {}),
    });
    if (value === undefined) return input.default;
    await this.secrets.store(this.key(input.id), value);
    return value;
  }

  async forget(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.secrets.delete(this.key(id));
  }
}
