import * as vscode from 'vscode';
import type { Logger } from '../../core/ports/ports';
import * as path from 'node:path';
import type { StepWorkspaces } from '../../core/ports/stepWorkspaces';
import { describeLeftover } from '../../core/planRuns/describeLeftover';

/**
 * Step workspaces a crashed or killed editor left behind are removed on the next start (a live
 * window's are kept: their owner process answers), the changes a step had made there kept first as
 * a step patch in the task history's folder (`historyDir`), and the user told where. The editor's
 * one sweep. Later than activation, so it never costs `activate()` its budget, and in the
 * background: nothing waits for it.
 */
export function removeLeftoverWorktreesSoon(logger: Logger, stepWorkspaces: StepWorkspaces | undefined, historyDir: string, delayMs = 3000): vscode.Disposable {
  const timer = setTimeout(() => {
    if (!stepWorkspaces) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      void stepWorkspaces.sweep(folder.uri.fsPath, path.join(historyDir, 'interrupted-steps')).then((removed) => {
        for (const l of removed) {
          const said = `Tandem: ${describeLeftover(l)}`;
          if (l.patch || l.notKept) {
            logger.warn(said);
            void vscode.window.showWarningMessage(said);
          } else logger.info(said);
        }
      });
    }
  }, delayMs);
  return { dispose: () => clearTimeout(timer) };
}
