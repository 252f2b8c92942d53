import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../../core/ports/ports';

/**
 * A path clicked on a card opens in the editor, in the first column (the user's, not the diff
 * column). The path comes from the webview, which is untrusted: it must resolve — symlinks
 * followed — to a file inside one of the workspace folders, or nothing opens.
 */
export async function openWorkspaceFile(p: string, roots: readonly string[], logger: Logger): Promise<boolean> {
  if (await opens(p, roots)) return true;
  // `src/cart.ts:12` or `:12-20` (a path in a model's answer, a mention) opens at those lines.
  const ranged = /^(.*?):(\d+)(?:-(\d+))?$/.exec(p);
  if (ranged?.[1]) {
    const a = Number(ranged[2]);
    const b = ranged[3] ? Number(ranged[3]) : a;
    if (await opens(ranged[1], roots, { start: Math.max(1, Math.min(a, b)), end: Math.max(1, a, b) })) return true;
  }
  logger.warn(`open_file: ${p.slice(0, 200)} is not a file inside the workspace`);
  return false;
}

async function opens(p: string, roots: readonly string[], lines?: { start: number; end: number }): Promise<boolean> {
  for (const root of roots) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (!realRoot) continue;
    const real = await fs.realpath(path.resolve(root, p)).catch(() => undefined);
    if (!real || (real !== realRoot && !real.startsWith(realRoot + path.sep))) continue;
    const st = await fs.stat(real).catch(() => undefined);
    if (!st?.isFile()) continue;
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(real), { preview: true, preserveFocus: false, viewColumn: vscode.ViewColumn.One });
    if (lines) {
      const last = Math.min(lines.end, editor.document.lineCount) - 1;
      const first = Math.min(lines.start - 1, last);
      const range = new vscode.Range(first, 0, last, editor.document.lineAt(last).text.length);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    return true;
  }
  return false;
}
