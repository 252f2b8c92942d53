/**
 * What the core needs from a connected MCP server; the host implements it with the MCP SDK
 * (src/host/node/mcp). Everything that comes back is unchecked server output: the core checks it
 * (mcpResults.ts) before it becomes a tool row or a tool result.
 */
export interface McpConnection {
  /** The server's tools as last listed (raw). */
  tools(): readonly unknown[];
  /** Whether the server offers resources. */
  readonly hasResources: boolean;
  callTool(name: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<unknown>;
  listResources(opts: McpCallOptions): Promise<unknown>;
  readResource(uri: string, opts: McpCallOptions): Promise<unknown>;
  /** Stops the server (kills its process, closes the session). */
  close(): Promise<void>;
}

export interface McpCallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** What the hub tells a host's launcher to watch for. */
export interface McpConnectionEvents {
  /** The server said its tool list changed and the new list is in `tools()`. */
  onToolsChanged(): void;
  /** The connection ended (the process exited, the session closed); `error` when it was not asked to. */
  onClosed(error?: string): void;
  /** A line the server wrote to stderr, or the transport's own notice: for the log channel. */
  log(line: string): void;
}

/** Starts servers; implemented by the host (processes, HTTP sessions). */
export interface McpLauncher {
  connect(server: import('./mcpConfig').McpServerDef, cwd: string, events: McpConnectionEvents, signal: AbortSignal): Promise<McpConnection>;
}
