/**
 * The editor's side of mentions: git changes, the active terminal's last output, and the one-line
 * automatic context (active file, visible lines, selection) unless `tandem.autoContext` is off.
 */
import * as vscode from 'vscode';
import type { ContextSources, EditorContext, LineSpan } from '../../core/ports/contextSources';
import { gitChanges } from '../node/gitChanges';
import { TerminalOutputTracker } from './terminalOutput';

export class VscodeContextSources implements ContextSources, vscode.Disposable {
  private readonly terminal = new TerminalOutputTracker();

  gitChanges(root: string): Promise<string | undefined> {
    return gitChanges(root);
  }

  terminalOutput(): Promise<string | undefined> {
    return this.terminal.lastOutput();
  }

  async activeSelection(): Promise<{ path: string; lines: LineSpan } | undefined> {
    const c = await this.current();
    return c?.selection ? { path: c.path, lines: c.selection } : undefined;
  }

  async editorContext(): Promise<EditorContext | undefined> {
    if (vscode.workspace.getConfiguration('tandem').get<boolean>('autoContext') === false) return undefined;
    return this.current();
  }

  private async current(): Promise<EditorContext | undefined> {
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor || editor.document.uri.scheme !== 'file') return undefined;
    const visible = editor.visibleRanges[0];
    const sel = editor.selection;
    const lastLine = (r: vscode.Range) => (r.end.character === 0 && r.end.line > r.start.line ? r.end.line : r.end.line + 1);
    return {
      path: editor.document.uri.fsPath,
      ...(visible ? { visible: { start: visible.start.line + 1, end: lastLine(visible) } } : {}),
      ...(!sel.isEmpty ? { selection: { start: sel.start.line + 1, end: lastLine(sel) } } : {}),
    };
  }

  dispose(): void {
    this.terminal.dispose();
  }
}
