/**
 * Runs inside the real extension host (as an `extensionTestsPath` suite) and measures what
 * activation costs: loading dist/extension.js (a fresh `require`, timed here) plus the body of
 * `activate()` (timed by the extension itself, reported through its test-mode exports).
 * Writes the figures as JSON to $TANDEM_BENCH_OUT.
 */
import * as vscode from 'vscode';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<{ activationMs: number }>('tandem-dev.tandem');
  if (!ext) throw new Error('tandem-dev.tandem is not loaded');
  const api = await ext.activate();
  const bundle = join(ext.extensionPath, 'dist', 'extension.js');
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) {
    delete require.cache[require.resolve(bundle)];
    const t0 = performance.now();
    require(bundle);
    loads.push(performance.now() - t0);
  }
  const out = process.env.TANDEM_BENCH_OUT;
  if (!out) throw new Error('TANDEM_BENCH_OUT is not set');
  writeFileSync(out, JSON.stringify({ activateBodyMs: api.activationMs, loadMs: loads }));
}
