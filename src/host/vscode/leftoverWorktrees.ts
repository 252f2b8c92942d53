import * as vscode from 'vscode';
import type { Logger } from '../../core/ports/ports';
import * as path from 'node:path';
import { describeLeftover, removeLeftoverWorktrees } from '../../core/planRuns/stepWorktree';

/**
 * Step worktrees a crashed or killed editor left behind are removed on the next start (a live
 * window's are kept: their owner process answers), the changes a step had made there kept first as
 * a patch in the task history's folder (`historyDir`), and the user told where. Later than
 * activation, so it never costs `activate()` its budget, and in the background: nothing waits for it.
 */
export function removeLeftoverWorktreesSoon(logger: Logger, historyDir: string, delayMs = 3000): vscode.Disposable {
  const timer = setTimeout(() => {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      void removeLeftoverWorktrees(folder.uri.fsPath, path.join(historyDir, 'interrupted-steps')).then((removed) => {
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
