import * as vscode from 'vscode';
import type { Diagnostic, DiagnosticsProvider, ProblemWatch } from '../../core/ports/ports';

const SEVERITY: Record<vscode.DiagnosticSeverity, Diagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/**
 * How long a change waits for the language services. They answer a change in steps (TypeScript:
 * syntax first, types later), so a file's problems count as settled only after `quietMs` without
 * another update; `firstMs` bounds the wait for the first update (a language seen to report
 * problems before gets `firstMs`, one never seen only `unknownFirstMs`: most likely nothing checks
 * it); `capMs` bounds the whole wait.
 */
export interface SettleTimes {
  firstMs: number;
  unknownFirstMs: number;
  quietMs: number;
  capMs: number;
}

export const DEFAULT_SETTLE: SettleTimes = { firstMs: 3000, unknownFirstMs: 1000, quietMs: 1500, capMs: 8000 };

/** Languages nothing reports problems for: a write there never waits. */
const NEVER_CHECKED = new Set(['plaintext', 'log', 'ignore']);

/** Updates of one file's problems since it started listening. */
class ProblemUpdates {
  private count = 0;
  private last = 0;
  private readonly sub: vscode.Disposable;
  private wake: (() => void) | undefined;

  constructor(private readonly uri: vscode.Uri) {
    const key = uri.toString();
    this.sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === key)) return;
      this.count++;
      this.last = Date.now();
      this.wake?.();
    });
  }

  reset(): void {
    this.count = 0;
  }

  /** Waits for an update, then for quiet; true when any update came. */
  async settle(firstMs: number, times: SettleTimes, signal: AbortSignal): Promise<boolean> {
    const start = Date.now();
    for (;;) {
      if (signal.aborted) return this.count > 0;
      const now = Date.now();
      if (now - start >= times.capMs) return this.count > 0;
      let until: number;
      if (this.count === 0) {
        if (now - start >= firstMs) return false;
        until = start + firstMs;
      } else {
        if (now - this.last >= times.quietMs) return true;
        until = this.last + times.quietMs;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, Math.min(until, start + times.capMs) - Date.now()));
        signal.addEventListener('abort', done, { once: true });
        this.wake = done;
      });
    }
  }

  dispose(): void {
    this.sub.dispose();
  }
}

/** The editor's Problems, for one file or the whole workspace. Lines are 1-based like read_file's. */
export class VscodeDiagnostics implements DiagnosticsProvider {
  /** Languages whose problems have been seen to update after a write, in this session. */
  private readonly reporting = new Set<string>();

  constructor(private readonly times: SettleTimes = DEFAULT_SETTLE) {}

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

  async watch(absPath: string, signal: AbortSignal): Promise<ProblemWatch> {
    const uri = vscode.Uri.file(absPath);
    const updates = new ProblemUpdates(uri);
    try {
      // A file that does not exist yet has no problems before; one that exists is shown to the
      // language services first, so `before` is their verdict, not "never looked at".
      let before: Diagnostic[] | undefined = [];
      const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
      if (exists) {
        const { doc, shownNow } = await this.showForChecking(uri);
        const language = doc?.languageId ?? '';
        if (shownNow && !NEVER_CHECKED.has(language)) {
          const settled = await updates.settle(this.reporting.has(language) ? this.times.firstMs : this.times.unknownFirstMs, this.times, signal);
          if (settled) this.reporting.add(language);
          else if (!this.reporting.has(language)) before = undefined;
        }
        if (before) before = await this.get(absPath);
      }
      updates.reset();
      return {
        before,
        after: async () => {
          try {
            const { doc } = await this.showForChecking(uri);
            const language = doc?.languageId ?? '';
            if (NEVER_CHECKED.has(language)) return await this.get(absPath);
            const first = this.reporting.has(language) ? this.times.firstMs : this.times.unknownFirstMs;
            if (await updates.settle(first, this.times, signal)) this.reporting.add(language);
            return await this.get(absPath);
          } finally {
            updates.dispose();
          }
        },
      };
    } catch (e) {
      updates.dispose();
      throw e;
    }
  }

  /**
   * Language services check only files in an editor tab (TypeScript among them): a file no tab
   * shows is opened in a preview tab, without taking focus from what the user is doing.
   */
  private async showForChecking(uri: vscode.Uri): Promise<{ doc: vscode.TextDocument | undefined; shownNow: boolean }> {
    const key = uri.toString();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)
      ?? (await vscode.workspace.openTextDocument(uri).then((d) => d, () => undefined));
    if (!doc || NEVER_CHECKED.has(doc.languageId)) return { doc, shownNow: false };
    const inTab = vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
    if (inTab) return { doc, shownNow: false };
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
    return { doc, shownNow: true };
  }
}
