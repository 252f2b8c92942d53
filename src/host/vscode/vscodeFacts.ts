/**
 * The editor's facts: one book for the window's workspace folder, its file beside the task history
 * (the extension's global storage, outside the workspace), the user's global facts at the top of that
 * storage, `tandem.facts.*` read at each use.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceFs } from '../../core/ports/ports';
import { FactBook } from '../../core/facts/factBook';
import { FACTS_FILE, FactStore } from '../../core/facts/factStore';
import { DEFAULT_FACT_SETTINGS, type FactSettings } from '../../core/facts/factSettings';
import { workspaceFolderName } from '../../core/history/storageDir';

export function readFactSettings(config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration('tandem.facts')): FactSettings {
  const num = (key: keyof FactSettings, min: number) => {
    const v = config.get<unknown>(key);
    return typeof v === 'number' && Number.isFinite(v) && v >= min ? Math.floor(v) : (DEFAULT_FACT_SETTINGS[key] as number);
  };
  return {
    enabled: config.get<unknown>('enabled') !== false,
    maxAgeDays: num('maxAgeDays', 0),
    maxTokens: num('maxTokens', 0),
    max: num('max', 1),
  };
}

/** The window's facts, or undefined without a workspace folder (nothing to cite); the global ones in `globalDir` (the extension's global storage). */
export function createVscodeFactBook(historyDir: string, globalDir: string, fs: WorkspaceFs, secret: () => string | undefined): FactBook | undefined {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) return undefined;
  return new FactBook({
    store: new FactStore(path.join(historyDir, FACTS_FILE)),
    globalStore: new FactStore(path.join(globalDir, FACTS_FILE)),
    fs,
    workspace: workspaceFolderName(root),
    settings: () => readFactSettings(),
    secret,
  });
}
