/**
 * The MCP servers of a host (one editor window, one CLI run) and their tools as one provider of the
 * tool registry. A server defined by the repository (a workspace `mcp.json`) never starts until the
 * user approved it by name and command line (the trust store remembers that per workspace, and it
 * can be revoked); the user's own servers and the CLI's `--mcp-config` start when asked to.
 * A server that crashes, cannot start or sends malformed lists gets an error status said in words;
 * its tools leave the registry, and the turn goes on without them.
 */
import type { Logger } from '../ports/ports';
import type { Tool } from '../tools/tool';
import type { ToolProvider } from '../tools/toolRegistry';
import { serverCommandLine, type McpInput, type McpServerDef } from './mcpConfig';
import type { McpConnection, McpLauncher } from './mcpConnection';
import { checkToolList } from './mcpResults';
import { MAX_SCHEMA_CHARS, mcpNamePrefix, mcpToolName, mcpToolRow, type McpServerHandle } from './mcpToolRow';
import { mcpResourceRow } from './mcpResourceRow';
import { resolveVariables, type McpInputResolver } from './mcpVariables';

export type McpServerState =
  | { state: 'awaiting_approval' }
  | { state: 'not_approved' }
  | { state: 'starting' }
  | { state: 'ready' }
  | { state: 'error'; message: string }
  | { state: 'stopped' };

/** Whether the user approved a repository's server (by name and command line). */
export interface McpTrustStore {
  isApproved(def: McpServerDef, commandLine: string): boolean;
  /** Asks the user, once per start; true when they approved (then remembered). Absent: nobody can approve here. */
  ask?(def: McpServerDef, commandLine: string): Promise<boolean>;
}

export interface McpHubOptions {
  launcher: McpLauncher;
  trust: McpTrustStore;
  inputs?: McpInputResolver;
  /** Where stdio servers run (the workspace folder). */
  cwd: string;
  workspaceFolder?: string;
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs(): number;
  /** The user's setting: servers whose read-only tools read-only roles may use. */
  trustedForReading(server: string): boolean;
  logger: Logger;
}

export interface McpServerView {
  name: string;
  origin: McpServerDef['origin'];
  commandLine: string;
  status: McpServerState;
  tools: { name: string; readOnly: boolean }[];
}

class ServerEntry implements McpServerHandle {
  status: McpServerState = { state: 'stopped' };
  conn: McpConnection | undefined;
  rows: Tool[] = [];
  abort = new AbortController();
  /** Bumped on every (re)start, so events of an old connection are ignored. */
  generation = 0;
  /** Why it may not start: another server's name makes the same tool names. */
  clash: string | undefined;

  constructor(readonly def: McpServerDef, private readonly hub: McpHub) {}

  get name(): string { return this.def.name; }
  connection(): McpConnection | { down: string } {
    if (this.conn && this.status.state === 'ready') return this.conn;
    return { down: this.status.state === 'error' ? this.status.message : this.status.state.replace('_', ' ') };
  }
  timeoutMs(): number { return this.hub.options.timeoutMs(); }
  trustedForReading(): boolean {
    // A repository's own file cannot trust itself (the parser dropped the field); the user's setting can.
    return this.hub.options.trustedForReading(this.def.name) || (this.def.origin !== 'workspace' && this.def.config.trustReadOnly === true);
  }
  failed(message: string): void { this.hub.fail(this, message); }
}

export class McpHub implements ToolProvider {
  readonly id = 'mcp';
  private readonly entries = new Map<string, ServerEntry>();
  private inputs: McpInput[] = [];
  private readonly listeners = new Set<() => void>();
  private merged: Tool[] | undefined;

  constructor(readonly options: McpHubOptions) {}

  /** Replaces the configured servers; a server whose definition changed is stopped (start it again). */
  configure(servers: readonly McpServerDef[], inputs: readonly McpInput[]): void {
    this.inputs = [...inputs];
    const next = new Map(servers.map((s) => [s.name, s]));
    for (const [name, e] of this.entries) {
      const def = next.get(name);
      if (!def || JSON.stringify(def) !== JSON.stringify(e.def)) {
        void this.stopEntry(e);
        this.entries.delete(name);
      }
    }
    for (const def of servers) if (!this.entries.has(def.name)) this.entries.set(def.name, new ServerEntry(def, this));
    // Two servers whose names make the same tool names (`acme.prod`, `acme_prod`): a call, an
    // approval or an --allow-tool for one could reach the other, so neither starts.
    const byPrefix = new Map<string, string[]>();
    for (const name of this.entries.keys()) byPrefix.set(mcpNamePrefix(name), [...(byPrefix.get(mcpNamePrefix(name)) ?? []), name]);
    for (const e of this.entries.values()) {
      const same = byPrefix.get(mcpNamePrefix(e.name))!.filter((n) => n !== e.name);
      e.clash = same.length ? `its tool names (${mcpNamePrefix(e.name)}__…) would be the same as those of the MCP server ${same.join(', ')}; rename one of them` : undefined;
    }
    this.changed();
  }

  /** Starts every configured server that is not running (a repository's asks first). */
  async startAll(): Promise<void> {
    await Promise.all([...this.entries.values()].filter((e) => e.status.state !== 'ready' && e.status.state !== 'starting').map((e) => this.startEntry(e)));
  }

  async restart(name: string): Promise<void> {
    const e = this.entries.get(name);
    if (!e) throw new Error(`There is no MCP server named ${name}.`);
    await this.stopEntry(e);
    await this.startEntry(e);
  }

  async stop(name: string): Promise<void> {
    const e = this.entries.get(name);
    if (e) await this.stopEntry(e);
  }

  views(): McpServerView[] {
    return [...this.entries.values()].map((e) => ({
      name: e.name,
      origin: e.def.origin,
      commandLine: serverCommandLine(e.def.config),
      status: e.status,
      tools: e.rows.map((t) => ({ name: t.name, readOnly: t.readOnly })),
    }));
  }

  /** The connection of a running server (resources are read through it). */
  server(name: string): McpServerHandle | undefined {
    return this.entries.get(name);
  }

  get serverNames(): string[] {
    return [...this.entries.keys()];
  }

  tools(): readonly Tool[] {
    this.merged ??= [...this.entries.values()].flatMap((e) => (e.status.state === 'ready' ? e.rows : []));
    return this.merged;
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every server (their processes are killed): the host is going away. */
  async dispose(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.stopEntry(e)));
  }

  private async startEntry(e: ServerEntry): Promise<void> {
    const o = this.options;
    const commandLine = serverCommandLine(e.def.config);
    const generation = ++e.generation;
    if (e.clash) {
      o.logger.warn(`MCP server ${e.name} not started: ${e.clash}`);
      this.set(e, { state: 'error', message: `not started: ${e.clash}` });
      return;
    }
    if (e.def.origin === 'workspace' && !o.trust.isApproved(e.def, commandLine)) {
      this.set(e, { state: 'awaiting_approval' });
      const approved = o.trust.ask ? await o.trust.ask(e.def, commandLine).catch(() => false) : false;
      if (generation !== e.generation) return;
      if (!approved) {
        this.set(e, { state: 'not_approved' });
        o.logger.info(`MCP server ${e.name} (from the workspace) not started: not approved (${commandLine})`);
        return;
      }
    }
    this.set(e, { state: 'starting' });
    const resolved = await resolveVariables(e.def.config, {
      ...(o.workspaceFolder ? { workspaceFolder: o.workspaceFolder } : {}),
      userHome: o.userHome,
      env: o.env,
      inputs: this.inputs,
      ...(o.inputs ? { resolver: o.inputs } : {}),
      server: e.name,
    });
    if (generation !== e.generation) return;
    if (!resolved.ok) {
      this.set(e, { state: 'error', message: `no value given for ${resolved.missing.map((m) => `\${input:${m}}`).join(', ')}` });
      return;
    }
    e.abort = new AbortController();
    try {
      const conn = await o.launcher.connect({ ...e.def, config: resolved.config }, o.cwd, {
        onToolsChanged: () => {
          if (generation === e.generation) this.refreshRows(e);
        },
        onClosed: (error) => {
          if (generation !== e.generation || e.status.state !== 'ready') return;
          e.conn = undefined;
          this.set(e, error ? { state: 'error', message: error } : { state: 'stopped' });
        },
        log: (line) => o.logger.info(`[mcp ${e.name}] ${line}`),
      }, e.abort.signal);
      if (generation !== e.generation) {
        await conn.close().catch(() => undefined);
        return;
      }
      e.conn = conn;
      this.refreshRows(e, false);
      this.set(e, { state: 'ready' });
      o.logger.info(`MCP server ${e.name} ready: ${e.rows.length} tools`);
    } catch (err) {
      if (generation !== e.generation) return;
      const message = err instanceof Error ? err.message : String(err);
      o.logger.warn(`MCP server ${e.name} did not start: ${message}`);
      this.set(e, { state: 'error', message: `could not start: ${message}` });
    }
  }

  private refreshRows(e: ServerEntry, notify = true): void {
    if (!e.conn) return;
    const { tools: listed, skipped } = checkToolList(e.conn.tools());
    if (skipped.length) this.options.logger.warn(`MCP server ${e.name}: tools with malformed definitions skipped: ${skipped.join(', ')}`);
    const tooLarge = listed.filter((t) => JSON.stringify(t.inputSchema).length > MAX_SCHEMA_CHARS);
    if (tooLarge.length) {
      this.options.logger.warn(`MCP server ${e.name}: tools left out, their input schema is over ${MAX_SCHEMA_CHARS / 1024} KB (it would go out with every request): ${tooLarge.map((t) => `${t.name} (${Math.round(JSON.stringify(t.inputSchema).length / 1024)} KB)`).join(', ')}`);
    }
    // Two tools of one server whose names end up the same (cleaned, cut at 64): neither is offered.
    const fits = listed.filter((t) => !tooLarge.includes(t));
    const counts = new Map<string, number>();
    for (const t of fits) counts.set(mcpToolName(e.name, t.name), (counts.get(mcpToolName(e.name, t.name)) ?? 0) + 1);
    const clashing = fits.filter((t) => counts.get(mcpToolName(e.name, t.name))! > 1);
    if (clashing.length) this.options.logger.warn(`MCP server ${e.name}: tools left out, their names become the same tool name: ${clashing.map((t) => t.name).join(', ')}`);
    const tools = fits.filter((t) => !clashing.includes(t));
    e.rows = [...tools.map((t) => mcpToolRow(e, t)), ...(e.conn.hasResources ? [mcpResourceRow(e)] : [])];
    if (notify) this.changed();
  }

  /** A call found the connection broken: the server is in error and its tools leave the registry. */
  fail(e: ServerEntry, message: string): void {
    if (e.status.state !== 'ready') return;
    this.set(e, { state: 'error', message });
  }

  private async stopEntry(e: ServerEntry): Promise<void> {
    e.generation++;
    e.abort.abort();
    const conn = e.conn;
    e.conn = undefined;
    if (e.status.state !== 'stopped') this.set(e, { state: 'stopped' });
    await conn?.close().catch((err) => this.options.logger.warn(`MCP server ${e.name}: closing failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  private set(e: ServerEntry, status: McpServerState): void {
    e.status = status;
    this.changed();
  }

  private changed(): void {
    this.merged = undefined;
    for (const l of this.listeners) l();
  }
}
