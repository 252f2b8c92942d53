import * as vscode from 'vscode';
import type { TandemExports } from '../../../src/extension';

export const EXTENSION_ID = 'tandem-dev.tandem';

/** The extension under test, activated; fails loudly when it is missing. */
export async function tandem(): Promise<{ ext: vscode.Extension<TandemExports>; api: TandemExports }> {
  const ext = vscode.extensions.getExtension<TandemExports>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  const api = await ext.activate();
  return { ext, api };
}

/** Resolves with `value()` once it is truthy; rejects after `ms` saying what never happened. */
export async function waitFor<T>(what: string, value: () => T | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = value();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
