import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A fresh folder for one test: inside the opened workspace when there is one (so it is "in the workspace"), else in the temp dir. */
export function tempDir(prefix: string): string {
  const root = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.tmpdir();
  return fs.realpathSync(fs.mkdtempSync(path.join(root, `.tandem-it-${prefix}-`)));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Closes every editor without "Save?" prompts: revert dirty documents first. */
export async function closeAllEditors(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && doc.uri.scheme === 'file') {
      await vscode.window.showTextDocument(doc, { preserveFocus: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}
