/**
 * Loads the `openai` SDK on first use: `openai-sdk.js` beside the bundle (the build ships one),
 * else the package from node_modules (tests, development). The `require` arguments are computed so
 * esbuild leaves them alone. One module instance per process: the client that throws and the fault
 * classification that asks `instanceof` (llmError.ts, retryPolicy.ts) both get their classes here.
 */
import * as path from 'node:path';
import type * as Sdk from './openaiSdkEntry';

export type OpenaiSdk = typeof Sdk;

let loaded: OpenaiSdk | undefined;

export function openaiSdk(): OpenaiSdk {
  if (loaded) return loaded;
  let lastError: unknown;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fromPackage = () => require(['open', 'ai'].join('')) as OpenaiSdk;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const load of [() => require(path.join(__dirname, 'openai-sdk.js')) as OpenaiSdk, fromPackage]) {
    try {
      const mod = load();
      if (typeof mod.OpenAI === 'function' && typeof mod.APIError === 'function') return (loaded = mod);
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`the openai SDK could not be loaded: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}
