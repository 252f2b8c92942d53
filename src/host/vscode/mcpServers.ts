/**
 * The window's MCP servers: the workspace's `.vscode/mcp.json` (VS Code's own format, comments
 * allowed) and the user's `tandem.mcpServers` setting, started for every task's tool registry.
 * The workspace's servers start only once approved by name and command line (asked in a
 * notification, remembered per workspace, revocable from the servers view); the user's start at
 * once. Processes run in the workspace folder, stderr goes to the Tandem log, and they end with the
 * extension host. Config changes restart what changed.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
// The ESM build: the UMD main loads its parts with require calls a bundler cannot follow.
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { parseMcpConfig, type McpInput, type McpServerDef } from '../../core/mcp/mcpConfig';
import { McpHub, type McpServerView } from '../../core/mcp/mcpHub';
import type { Logger } from '../../core/ports/ports';
import { SdkMcpLauncher } from '../node/mcp/sdkMcpLauncher';
import { VscodeMcpInputs } from './mcpInputs';
import { VscodeMcpTrust } from './mcpTrust';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

export class VscodeMcpServers implements vscode.Disposable {
  readonly hub: McpHub;
  readonly trust: VscodeMcpTrust;
  private readonly inputs: VscodeMcpInputs;
  private readonly subscriptions: vscode.Disposable[] = [];
  private inputIds: string[] = [];

  constructor(context: vscode.ExtensionContext, private readonly logger: Logger) {
    this.trust = new VscodeMcpTrust(context.workspaceState);
    this.inputs = new VscodeMcpInputs(context.secrets);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const config = () => vscode.workspace.getConfiguration('tandem.mcp');
    this.hub = new McpHub({
      launcher: new SdkMcpLauncher(),
      trust: this.trust,
      inputs: this.inputs,
      cwd: folder ?? os.homedir(),
      ...(folder ? { workspaceFolder: folder } : {}),
      userHome: os.homedir(),
      env: process.env,
      timeoutMs: () => {
        const v = config().get<unknown>('timeoutMs');
        return typeof v === 'number' && v > 0 ? v : DEFAULT_MCP_TIMEOUT_MS;
      },
      trustedForReading: (server) => (config().get<unknown>('trustedForReading') as unknown[] | undefined)?.includes(server) === true,
      logger,
    });
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
    this.subscriptions.push(
      watcher,
      watcher.onDidChange(() => void this.reload()),
      watcher.onDidCreate(() => void this.reload()),
      watcher.onDidDelete(() => void this.reload()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('tandem.mcpServers')) void this.reload();
      }),
    );
  }

  /** Reads the configurations and starts what is not running (asking about the workspace's servers). */
  async reload(): Promise<void> {
    const { servers, inputs } = await this.read();
    this.inputIds = inputs.map((i) => i.id);
    this.hub.configure(servers, inputs);
    await this.hub.startAll();
  }

  private async read(): Promise<{ servers: McpServerDef[]; inputs: McpInput[] }> {
    const servers: McpServerDef[] = [];
    const inputs: McpInput[] = [];
    const add = (parsed: ReturnType<typeof parseMcpConfig>, where: string) => {
      for (const p of parsed.problems) this.logger.warn(`${where}: ${p}`);
      for (const s of parsed.servers) {
        if (servers.some((x) => x.name === s.name)) this.logger.warn(`${where}: MCP server "${s.name}" is defined twice; the first definition is used`);
        else servers.push(s);
      }
      inputs.push(...parsed.inputs);
    };
    // The user's own servers first: a repository cannot shadow one by reusing its name.
    const user = vscode.workspace.getConfiguration('tandem').inspect<unknown>('mcpServers')?.globalValue;
    if (user !== undefined) add(parseMcpConfig({ servers: user }, 'user'), 'tandem.mcpServers');
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(f.uri, '.vscode', 'mcp.json');
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue;
      }
      const errors: ParseError[] = [];
      const data = parseJsonc(text, errors, { allowTrailingComma: true });
      if (errors.length) {
        this.logger.warn(`${path.join(f.name, '.vscode', 'mcp.json')}: not valid JSON (${errors.length} errors); its servers are not used`);
        continue;
      }
      add(parseMcpConfig(data, 'workspace'), path.join(f.name, '.vscode', 'mcp.json'));
    }
    return { servers, inputs };
  }

  views(): McpServerView[] {
    return this.hub.views();
  }

  /** The servers view: each server's state and tools; restart, approve, revoke, allow tools. */
  async showServers(): Promise<void> {
    type Item = vscode.QuickPickItem & { server?: McpServerView };
    const items: Item[] = this.views().map((v) => ({
      label: `${icon(v)} ${v.name}`,
      description: `${stateText(v)}${v.origin === 'workspace' ? ' · from the workspace' : ''}`,
      detail: `${v.commandLine}${v.tools.length ? ` — tools: ${v.tools.map((t) => t.name).join(', ')}` : ''}`,
      server: v,
    }));
    if (!items.length) {
      void vscode.window.showInformationMessage('No MCP servers are configured. Add them to .vscode/mcp.json or the tandem.mcpServers setting.');
      return;
    }
    const picked = await vscode.window.showQuickPick(items, { title: 'Tandem: MCP Servers', placeHolder: 'Pick a server to restart it, change its approval or allow its tools' });
    if (!picked?.server) return;
    const v = picked.server;
    const actions = [
      v.status.state === 'ready' ? 'Restart' : 'Start',
      ...(v.status.state === 'ready' ? ['Stop'] : []),
      ...(v.tools.length ? ['Allow Tools Without Asking…'] : []),
      ...(v.origin === 'workspace' && this.trust.approvedNames().includes(v.name) ? ['Revoke Approval'] : []),
      ...(this.inputIds.length ? ['Forget Stored Inputs'] : []),
    ];
    const action = await vscode.window.showQuickPick(actions, { title: `MCP server ${v.name}: ${stateText(v)}` });
    if (action === 'Restart' || action === 'Start') await this.hub.restart(v.name);
    else if (action === 'Stop') await this.hub.stop(v.name);
    else if (action === 'Revoke Approval') {
      await this.trust.revoke(v.name);
      await this.hub.stop(v.name);
    } else if (action === 'Forget Stored Inputs') await this.inputs.forget(this.inputIds);
    else if (action === 'Allow Tools Without Asking…') await this.allowTools(v);
  }

  private async allowTools(v: McpServerView): Promise<void> {
    const config = vscode.workspace.getConfiguration('tandem.mcp');
    const allowed = new Set((config.get<unknown>('allowedTools') as string[] | undefined)?.filter((x) => typeof x === 'string') ?? []);
    const picked = await vscode.window.showQuickPick(
      v.tools.map((t) => ({ label: t.name, picked: allowed.has(t.name) })),
      { canPickMany: true, title: `Tools of ${v.name} that run without asking` },
    );
    if (!picked) return;
    for (const t of v.tools) allowed.delete(t.name);
    for (const p of picked) allowed.add(p.label);
    await config.update('allowedTools', [...allowed], vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    void this.hub.dispose();
  }
}

function stateText(v: McpServerView): string {
  const s = v.status;
  switch (s.state) {
    case 'ready': return `ready, ${v.tools.length} tools`;
    case 'error': return `error: ${s.message}`;
    case 'awaiting_approval': return 'waiting for your approval';
    case 'not_approved': return 'not approved';
    default: return s.state;
  }
}

function icon(v: McpServerView): string {
  return { ready: '$(pass)', error: '$(error)', starting: '$(sync~spin)', awaiting_approval: '$(shield)', not_approved: '$(circle-slash)', stopped: '$(debug-stop)' }[v.status.state];
}
