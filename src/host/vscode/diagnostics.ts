import * as vscode from 'vscode';
import type { Diagnostic, DiagnosticsProvider } from '../../core/ports';

const SEVERITY: Record<vscode.DiagnosticSeverity, Diagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The editor's Problems, for one file or the whole workspace. Lines are 1-based like read_file's. */
export class VscodeDiagnostics implements DiagnosticsProvider {
  async get(absPath?: string): Promise<Diagnostic[]> {
    const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = absPath
      ? [[vscode.Uri.file(absPath), vscode.languages.getDiagnostics(vscode.Uri.file(absPath))]]
      : vscode.languages.getDiagnostics();
    const out: Diagnostic[] = [];
    for (const [uri, diags] of entries) {
      if (uri.scheme !== 'file') continue;
      for (const d of diags) {
        out.push({
          path: uri.fsPath,
          line: d.range.start.line + 1,
          severity: SEVERITY[d.severity] ?? 'info',
          message: d.message,
          source: d.source,
        });
      }
    }
    // Errors first: they are what the agent should look at.
    const rank = { error: 0, warning: 1, info: 2, hint: 3 } as const;
    return out.sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
  }
}
