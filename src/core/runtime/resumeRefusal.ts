import { TaskLockedError } from '../history/historyStore';

/** Why a saved task could not be opened here, and whether asking its holder to hand it over may help. */
export interface ResumeRefusal { taskId: string; reason: string; canTakeOver: boolean }

/** What the user is told when a saved task cannot be opened here (in words they know: a window, never a process id). */
export function resumeRefusal(taskId: string, e: unknown): ResumeRefusal {
  if (e instanceof TaskLockedError) {
    return { taskId, canTakeOver: true, reason: `This task is open in another window or terminal — or in a browser tab that was closed or reloaded, whose editor is still running. Take it over here: that window stops and saves it, and turns read-only.` };
  }
  return { taskId, canTakeOver: false, reason: e instanceof Error ? e.message : String(e) };
}
