import * as vscode from 'vscode';

export type SelectionIntent = 'plan' | 'explain';

export interface SelectionContext {
  /** Workspace-relative path (absolute outside the workspace). */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  languageId: string;
  text: string;
}

const WHOLE_FILE_MAX_LINES = 500;

/** The selection with its file and lines; an empty selection means the whole (small) file. */
export function selectionContext(editor: vscode.TextEditor): SelectionContext | undefined {
  const doc = editor.document;
  let range: vscode.Range = editor.selection;
  if (editor.selection.isEmpty) {
    if (doc.lineCount > WHOLE_FILE_MAX_LINES) return undefined;
    range = new vscode.Range(0, 0, doc.lineCount - 1, doc.lineAt(doc.lineCount - 1).text.length);
  }
  // A selection ending at column 0 of the next line does not include that line.
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return {
    path: doc.uri.scheme === 'file' ? vscode.workspace.asRelativePath(doc.uri, false) : doc.uri.toString(),
    startLine: range.start.line + 1,
    endLine: endLine + 1,
    languageId: doc.languageId,
    text: doc.getText(range),
  };
}

/** The prompt sent for Plan from selection / Explain selection: file, lines and the code itself. */
export function selectionPrompt(intent: SelectionIntent, sel: SelectionContext, goal?: string): string {
  const where = sel.startLine === sel.endLine ? `line ${sel.startLine}` : `lines ${sel.startLine}-${sel.endLine}`;
  // A fence longer than any backtick run inside the code, so the code cannot close it.
  const longest = Math.max(2, ...(sel.text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const code = `${fence}${sel.languageId}\n${sel.text}\n${fence}`;
  if (intent === 'explain') {
    return `Explain this code from \`${sel.path}\` (${where}): what it does, how it fits in the surrounding code, and anything surprising.\n\n${code}`;
  }
  const want = goal?.trim() ? goal.trim() : 'Propose improvements to this code.';
  return `${want}\n\nThe code in question is \`${sel.path}\` (${where}):\n\n${code}`;
}
