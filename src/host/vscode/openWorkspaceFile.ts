import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../../core/ports';

/**
 * A path clicked on a card opens in the editor, in the first column (the user's, not the diff
 * column). The path comes from the webview, which is untrusted: it must resolve — symlinks
 * followed — to a file inside one of the workspace folders, or nothing opens.
 */
export async function openWorkspaceFile(p: string, roots: readonly string[], logger: Logger): Promise<boolean> {
  for (const root of roots) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (!realRoot) continue;
    const real = await fs.realpath(path.resolve(root, p)).catch(() => undefined);
    if (!real || (real !== realRoot && !real.startsWith(realRoot + path.sep))) continue;
    const st = await fs.stat(real).catch(() => undefined);
    if (!st?.isFile()) continue;
    await vscode.window.showTextDocument(vscode.Uri.file(real), { preview: true, preserveFocus: false, viewColumn: vscode.ViewColumn.One });
    return true;
  }
  logger.warn(`open_file: ${p.slice(0, 200)} is not a file inside the workspace`);
  return false;
}
