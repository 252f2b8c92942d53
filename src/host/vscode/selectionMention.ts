import * as vscode from 'vscode';

/**
 * The mention Add Selection to Tandem puts into the composer: `@src/cart.ts:12-20` for the selected
 * lines (`@src/cart.ts` when nothing is selected), quoted when the path has spaces. Undefined for a
 * file outside the workspace folders: mentions never reach outside the workspace.
 */
export function selectionMention(editor: vscode.TextEditor): string | undefined {
  const doc = editor.document;
  if (doc.uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(doc.uri)) return undefined;
  const rel = vscode.workspace.asRelativePath(doc.uri, false);
  const sel = editor.selection;
  let body = rel;
  if (!sel.isEmpty) {
    // A selection ending at column 0 of the next line does not include that line.
    const end = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
    const start = sel.start.line + 1;
    body = `${rel}:${start === end ? start : `${start}-${end}`}`;
  }
  return /\s/.test(body) ? `@"${body}"` : `@${body}`;
}
