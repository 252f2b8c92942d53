/**
 * Runs inside the real extension host (as an `extensionTestsPath` suite) and measures what
 * activation costs: loading dist/extension.js (a fresh `require`, timed here) plus the body of
 * `activate()` (timed by the extension itself, reported through its test-mode exports), and which
 * of the files loaded on demand beside the bundle activation loaded anyway.
 * Writes the figures as JSON to $TANDEM_BENCH_OUT.
 */
import * as vscode from 'vscode';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<{ activationMs: number }>('tandem-dev.tandem');
  if (!ext) throw new Error('tandem-dev.tandem is not loaded');
  const api = await ext.activate();
  const bundle = join(ext.extensionPath, 'dist', 'extension.js');
  // The files beside the bundle that activation loaded: the SDKs and parsers load on first use, so none.
  const dist = join(ext.extensionPath, 'dist');
  const lazyLoaded = Object.keys(require.cache).filter((f) => f.startsWith(dist) && f !== bundle).map((f) => basename(f));
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) {
    delete require.cache[require.resolve(bundle)];
    const t0 = performance.now();
    require(bundle);
    loads.push(performance.now() - t0);
  }
  const out = process.env.TANDEM_BENCH_OUT;
  if (!out) throw new Error('TANDEM_BENCH_OUT is not set');
  writeFileSync(out, JSON.stringify({ activateBodyMs: api.activationMs, loadMs: loads, lazyLoaded }));
}
