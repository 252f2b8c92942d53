/**
 * The `yaml` library, loaded on first use: from `yaml.js` beside the bundle (the build ships one, so
 * the extension bundle stays within its size budget and activation does not pay for it), else from
 * node_modules (tests, development). The `require` arguments are computed so esbuild leaves them alone.
 */
import * as path from 'node:path';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

export function yamlLibrary(): typeof Yaml {
  if (loaded) return loaded;
  let lastError: unknown;
  for (const c of [path.join(__dirname, 'yaml.js'), ['y', 'a', 'm', 'l'].join('')]) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(c) as typeof Yaml;
      if (typeof mod.parse === 'function') return (loaded = mod);
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`the YAML parser could not be loaded: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}
