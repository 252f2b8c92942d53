import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, WorkspaceFs } from '../../core/ports/ports';
import { readFileWithin } from '../node/readFileWithin';

const decoder = new TextDecoder('utf-8');

/**
 * The workspace as the editor sees it: reads prefer unsaved editor buffers over the disk, and
 * writes go through `WorkspaceEdit` (then save) so the user's Undo in that editor restores the
 * previous text. Paths are absolute and real (checked by the core's WorkspacePaths).
 */
export class VscodeWorkspaceFs implements WorkspaceFs, vscode.Disposable {
  private currentRoots: string[] = [];
  private readonly sub: vscode.Disposable;

  constructor() {
    this.refreshRoots();
    this.sub = vscode.workspace.onDidChangeWorkspaceFolders(() => this.refreshRoots());
  }

  get roots(): readonly string[] { return this.currentRoots; }

  private refreshRoots(): void {
    this.currentRoots = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => realpathSyncOr(f.uri.fsPath));
  }

  async readText(absPath: string): Promise<string> {
    const doc = this.openDocument(absPath);
    if (doc?.isDirty) return doc.getText();
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(absPath));
    return decoder.decode(bytes);
  }

  readTextWithin(absPath: string, within: string, maxBytes: number): Promise<string> {
    return readFileWithin(absPath, within, maxBytes);
  }

  async stat(absPath: string): Promise<FileStat | undefined> {
    try {
      const s = await vscode.workspace.fs.stat(vscode.Uri.file(absPath));
      return { type: fileType(s.type, false), size: s.size, mtimeMs: s.mtime };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  async readDir(absPath: string): Promise<{ name: string; type: FileStat['type'] }[]> {
    const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.file(absPath));
    return entries.map(([name, t]) => ({ name, type: fileType(t, true) }));
  }

  async writeText(absPath: string, content: string): Promise<void> {
    const uri = vscode.Uri.file(absPath);
    const exists = (await this.stat(absPath)) !== undefined;
    const edit = new vscode.WorkspaceEdit();
    let doc: vscode.TextDocument | undefined;
    if (exists) {
      doc = this.openDocument(absPath) ?? (await vscode.workspace.openTextDocument(uri));
      if (doc.getText() === content && !doc.isDirty) return;
      edit.replace(doc.uri, fullRange(doc), content);
    } else {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(absPath)));
      // The file operation carries the contents: no dirty buffer to save, so no race between the
      // create and a save (a save right after createFile+insert sometimes returned false).
      edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(content) });
    }
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error(`The editor refused the edit to ${absPath} (is the file read-only?)`);
    }
    doc = this.openDocument(absPath) ?? (await vscode.workspace.openTextDocument(uri));
    // Saving keeps the undo stack: Undo in the editor still restores the previous text.
    if (doc.isDirty && !(await doc.save()) && !(await doc.save())) throw new Error(`Could not save ${absPath}`);
    if (!exists && doc.getText() !== content) {
      // A new file that existed after all (a race): fall back to a replacing edit.
      const fix = new vscode.WorkspaceEdit();
      fix.replace(doc.uri, fullRange(doc), content);
      if (!(await vscode.workspace.applyEdit(fix)) || !(await doc.save())) throw new Error(`Could not write ${absPath}`);
    }
  }

  /** Existing files changed together (a rename): one WorkspaceEdit, so one Undo reverts every file. */
  async writeTexts(files: readonly { absPath: string; content: string }[]): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    const docs: vscode.TextDocument[] = [];
    for (const f of files) {
      const doc = this.openDocument(f.absPath) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(f.absPath)));
      docs.push(doc);
      if (doc.getText() !== f.content) edit.replace(doc.uri, fullRange(doc), f.content);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit to ${files.map((f) => f.absPath).join(', ')}`);
    for (const doc of docs) if (doc.isDirty && !(await doc.save()) && !(await doc.save())) throw new Error(`Could not save ${doc.uri.fsPath}`);
  }

  async delete(absPath: string): Promise<void> {
    const uri = vscode.Uri.file(absPath);
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(uri, { recursive: true, ignoreIfNotExists: true });
    if (await vscode.workspace.applyEdit(edit)) return;
    await vscode.workspace.fs.delete(uri, { recursive: true, useTrash: false });
  }

  async realpath(absPath: string): Promise<string> {
    const rest: string[] = [];
    let p = path.resolve(absPath);
    for (;;) {
      try {
        const real = await fs.promises.realpath(p);
        return rest.length ? path.join(real, ...rest.reverse()) : real;
      } catch (e) {
        const parent = path.dirname(p);
        if (parent === p || (e as NodeJS.ErrnoException).code !== 'ENOENT') {
          if (parent === p) return path.join(p, ...rest.reverse());
          throw e;
        }
        rest.push(path.basename(p));
        p = parent;
      }
    }
  }

  hasUnsavedChanges(absPath: string): boolean {
    return this.openDocument(absPath)?.isDirty === true;
  }

  /** An open document for that path (matching through symlinks for dirty ones, which are few). */
  private openDocument(absPath: string): vscode.TextDocument | undefined {
    const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && !d.isClosed);
    return docs.find((d) => samePath(d.uri.fsPath, absPath))
      ?? docs.find((d) => d.isDirty && samePath(realpathSyncOr(d.uri.fsPath), absPath));
  }

  dispose(): void { this.sub.dispose(); }
}

function fullRange(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(new vscode.Position(0, 0), doc.lineAt(doc.lineCount - 1).range.end);
}

function fileType(t: vscode.FileType, reportSymlinks: boolean): FileStat['type'] {
  if (reportSymlinks && t & vscode.FileType.SymbolicLink) return 'symlink';
  if (t & vscode.FileType.Directory) return 'directory';
  if (t & vscode.FileType.File) return 'file';
  if (t & vscode.FileType.SymbolicLink) return 'symlink';
  return 'other';
}

function isNotFound(e: unknown): boolean {
  return (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') || (e as NodeJS.ErrnoException)?.code === 'ENOENT';
}

function samePath(a: string, b: string): boolean {
  return process.platform === 'win32' || process.platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function realpathSyncOr(p: string): string {
  try { return fs.realpathSync(p); } catch { return p; }
}
