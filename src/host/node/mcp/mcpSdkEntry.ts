/**
 * The parts of the MCP SDK Tandem uses, as one module: the build bundles this file on its own as
 * `dist/mcp-sdk.js`, loaded on the first server start (mcpSdk.ts), so the extension bundle does not
 * carry the SDK and activation does not pay for it.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
