import type * as vscode from 'vscode';
import type { OpenTaskMemory } from '../../core/runtime/reopenTask';

/** Where the id of the task open in the chat is kept, per workspace (workspaceState survives a reload and a restart). */
const KEY = 'tandem.openTask';

/** The task open in this workspace's chat, remembered in the workspace's state (reopenTask.ts). */
export function workspaceOpenTask(state: vscode.Memento): OpenTaskMemory {
  return {
    // Stored by an older or another version: anything but a task id reads as none.
    get: () => {
      const v = state.get<unknown>(KEY);
      return typeof v === 'string' && /^[A-Za-z0-9._-]{1,200}$/.test(v) ? v : undefined;
    },
    set: (id) => state.update(KEY, id),
  };
}
