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

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls until `check` returns a value (not undefined/false) or the budget runs out. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}
