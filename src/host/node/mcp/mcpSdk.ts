/**
 * Loads the MCP SDK on first use: `mcp-sdk.js` beside the bundle (the build ships one), else the
 * package from node_modules (tests, development, a CLI run from the repository). The `require`
 * arguments are computed so esbuild leaves them alone.
 */
import * as path from 'node:path';
import type * as Sdk from './mcpSdkEntry';

let loaded: typeof Sdk | undefined;

export function mcpSdk(): typeof Sdk {
  if (loaded) return loaded;
  let lastError: unknown;
  const pkg = ['@modelcontextprotocol', 'sdk', 'client'].join('/');
  const fromPackage = () => Object.assign({}, ...['index.js', 'stdio.js', 'streamableHttp.js', 'sse.js'].map((f) => require(`${pkg}/${f}`) as object)) as typeof Sdk;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const load of [() => require(path.join(__dirname, 'mcp-sdk.js')) as typeof Sdk, fromPackage]) {
    try {
      const mod = load();
      if (typeof mod.Client === 'function') return (loaded = mod);
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`the MCP client could not be loaded: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}
