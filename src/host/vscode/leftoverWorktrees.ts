import * as vscode from 'vscode';
import type { Logger } from '../../core/ports/ports';
import { removeLeftoverWorktrees } from '../../core/plans/graph/stepWorktree';

/**
 * Step worktrees a crashed or killed editor left behind are removed on the next start (a live
 * window's are kept: their owner process answers). Later than activation, so it never costs
 * `activate()` its budget, and in the background: nothing waits for it.
 */
export function removeLeftoverWorktreesSoon(logger: Logger, delayMs = 3000): vscode.Disposable {
  const timer = setTimeout(() => {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      void removeLeftoverWorktrees(folder.uri.fsPath).then((removed) => {
        if (removed.length) logger.info(`removed ${removed.length} step worktree(s) left by a run that ended abruptly`);
      });
    }
  }, delayMs);
  return { dispose: () => clearTimeout(timer) };
}
