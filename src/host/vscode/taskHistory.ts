/**
 * History in the editor: each task is saved in the extension's global storage, one folder per
 * workspace folder (outside the workspace; the same from every window on that folder), with
 * checkpoints, condensing and the budget.
 * "Tandem: Open History" lists the tasks (title, date, size, cost) and offers Resume, Open
 * (read-only, as Markdown), Export and Delete; "Tandem: Revert Last Change" undoes the agent's
 * latest change in the current task.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { HistoryStore, TaskLockedError } from '../../core/history/historyStore';
import { resumeRefusal } from '../../core/runtime/resumeRefusal';
import type { RevertResult } from '../../core/checkpoints/checkpointStore';
import { workspaceFolderName } from '../../core/history/storageDir';
import { adoptTasks } from './adoptTasks';
import { exportMarkdown } from '../../core/history/exportMarkdown';
import { formatUsd } from '../../core/cost/priceTable';
import type { Logger } from '../../core/ports/ports';
import type { AgentSession } from './agentSession';

/** Past tasks open as virtual documents: read-only in the editor, nothing to save when closed. */
const HISTORY_SCHEME = 'tandem-history';

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/**
 * Whether this window is still there: a round trip to the workbench (a context key, harmless). A
 * browser tab that was closed never answers, so its extension host stops beating.
 */
async function windowAnswers(): Promise<boolean> {
  await vscode.commands.executeCommand('setContext', 'tandem.windowPresent', true);
  return true;
}

export class VscodeTaskHistory {
  readonly store: HistoryStore;

  constructor(context: vscode.ExtensionContext, private readonly logger: Logger, private readonly session: () => AgentSession) {
    // One folder per workspace folder in global storage, not the window's storageUri: code-server
    // gives each window its own storageUri, so a second window on the same folder saw no tasks.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const dir = folder?.scheme === 'file'
      ? path.join(context.globalStorageUri.fsPath, 'workspaces', workspaceFolderName(folder.fsPath))
      : context.storageUri?.fsPath ?? path.join(context.globalStorageUri.fsPath, 'no-workspace');
    if (context.storageUri && context.storageUri.fsPath !== dir) adoptTasks(context.storageUri.fsPath, dir, logger);
    // The task lock beats only while this window answers: code-server keeps a closed or reloaded
    // tab's extension host running, and its lock must go stale so the new tab can resume the task.
    this.store = new HistoryStore(dir, { presence: windowAnswers });
    const store = this.store;
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, {
      async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
        const t = await store.load(uri.query);
        return exportMarkdown(t.meta, t.cards);
      },
    }));
  }

  /** The task as a read-only Markdown document, titled by the task (the id rides in the query). */
  private static docUri(id: string, title: string): vscode.Uri {
    const name = title.replace(/[\\/:*?"<>|#?%\u0000-\u001f]+/g, ' ').trim().slice(0, 60) || 'task';
    return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${name}.md`, query: id });
  }

  async openHistory(): Promise<void> {
    const tasks = await this.store.list();
    if (tasks.length === 0) {
      void vscode.window.showInformationMessage('Tandem: no saved tasks in this workspace yet.');
      return;
    }
    const current = this.session().task?.id;
    const pick = await vscode.window.showQuickPick(
      tasks.map((t) => ({
        label: t.title,
        description: `${new Date(t.updated).toLocaleString()} · ${t.cards} cards · ${size(t.bytes)} · ${t.usage.cost_usd !== undefined ? formatUsd(t.usage.cost_usd) : 'cost unknown'}${t.id === current ? ' · current' : ''}`,
        id: t.id,
      })),
      { title: 'Tandem: History', placeHolder: 'Search tasks by title or date', matchOnDescription: true },
    );
    if (!pick) return;
    const action = await vscode.window.showQuickPick(['Resume', 'Open (read-only)', 'Export as Markdown…', 'Delete'], { title: pick.label });
    try {
      if (action === 'Resume') {
        if (pick.id === current) {
          void vscode.window.showInformationMessage('Tandem: this is the task already open in the chat.');
          return;
        }
        await this.resume(pick.id);
      }
      else if (action === 'Open (read-only)') {
        const doc = await vscode.workspace.openTextDocument(VscodeTaskHistory.docUri(pick.id, pick.label));
        await vscode.window.showTextDocument(doc, { preview: true });
      } else if (action === 'Export as Markdown…') {
        const t = await this.store.load(pick.id);
        const target = await vscode.window.showSaveDialog({ filters: { Markdown: ['md'] }, saveLabel: 'Export' });
        if (target) await vscode.workspace.fs.writeFile(target, Buffer.from(exportMarkdown(t.meta, t.cards), 'utf8'));
      } else if (action === 'Delete') {
        if (pick.id === current) {
          void vscode.window.showWarningMessage('Tandem: this is the current task; start a new task before deleting it.');
          return;
        }
        const ok = await vscode.window.showWarningMessage(`Delete "${pick.label}" and its checkpoints?`, { modal: true }, 'Delete');
        if (ok === 'Delete') await this.store.delete(pick.id);
      }
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      this.logger.error(`history ${action ?? ''} ${pick.id}: ${msg}`);
      void vscode.window.showErrorMessage(`Tandem: ${msg}`);
    }
  }

  /** Resume; a task another window holds is explained, with a button that asks that window to hand it over. */
  private async resume(id: string): Promise<void> {
    try {
      await this.session().resumeTask(id);
    } catch (e) {
      if (!(e instanceof TaskLockedError)) throw e;
      const choice = await vscode.window.showWarningMessage(`Tandem: ${resumeRefusal(id, e).reason}`, { modal: true }, 'Take Over');
      if (choice === 'Take Over') await this.session().resumeTask(id, { takeOver: true });
    }
  }

  /** On deactivate: what the current task has not flushed yet is written. */
  dispose(): void {
    void this.session().task?.close();
  }

  /** "Revert Whole Task": every change of the current task, newest first, or nothing if any file was edited since. */
  async revertTask(): Promise<void> {
    const task = this.session().task;
    if (!task || !task.lastChangeCallId()) {
      void vscode.window.showInformationMessage('Tandem: the agent has made no change in this task that could be reverted.');
      return;
    }
    const ok = await vscode.window.showWarningMessage('Revert every change the agent made in this task?', { modal: true }, 'Revert');
    if (ok !== 'Revert') return;
    await this.show(await task.revertTask());
  }

  private async show(r: RevertResult): Promise<void> {
    if (r.ok) {
      void vscode.window.showInformationMessage(`Tandem: ${r.message}`);
      return;
    }
    const diff = r.conflicts.map((c) => c.diff).filter(Boolean).join('\n');
    const choice = await vscode.window.showWarningMessage(`Tandem: ${r.message.split('\n')[0]} ${r.conflicts.map((c) => c.reason).join(' ')}`, ...(diff ? ['Show Diff'] : []));
    if (choice === 'Show Diff' && diff) {
      const doc = await vscode.workspace.openTextDocument({ content: diff, language: 'diff' });
      await vscode.window.showTextDocument(doc, { preview: true });
    }
  }

  async revertLastChange(): Promise<void> {
    const task = this.session().task;
    const callId = task?.lastChangeCallId();
    if (!task || !callId) {
      void vscode.window.showInformationMessage('Tandem: the agent has made no change in this task that could be reverted.');
      return;
    }
    await this.show(await task.revertCall(callId));
  }
}
