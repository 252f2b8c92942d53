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
