import { TaskLockedError, TaskNotFoundError } from '../history/historyStore';
import { LOCK_BEAT_MS, LOCK_STALE_MS } from '../history/taskLock';
import type { Logger } from '../ports/ports';
import type { ResumeRefusal } from './resumeRefusal';

/**
 * Which task a window had open, kept across a reload or a restart of the editor (VS Code: the
 * workspace's state). Undefined: a new, empty task was open — the window opens empty.
 */
export interface OpenTaskMemory {
  get(): string | undefined;
  set(id: string | undefined): void | PromiseLike<void>;
}

/**
 * How long a window that starts keeps trying to open the task it had open while another window
 * holds it. A reloaded browser tab's old editor keeps the task's lock, but stops beating as soon
 * as nobody answers it: within `LOCK_STALE_MS` the lock is stale and the task opens here by
 * itself. A holder still beating after that is a live window: the notice with Take over stays.
 */
export const REOPEN_WAIT_MS = LOCK_STALE_MS + 3 * LOCK_BEAT_MS;

/** What reopening needs from the task runtime. */
export interface Reopener {
  /** Opens the saved task (throws why it cannot). */
  resume(id: string): Promise<unknown>;
  /** Whether the window is still as it started: nothing typed, nothing else opened, no resume in flight. */
  untouched(): boolean;
  refused(r: ResumeRefusal): void;
  forget(): void;
  logger: Logger;
}

export type ReopenOutcome = 'none' | 'opened' | 'held' | 'unavailable';

/**
 * At start-up: the task that was open when the window last closed or reloaded opens again, as it
 * was saved (a run that was going comes back stopped: see settleInterruptedCards.ts). Held by
 * another window, the chat says so with Take over, and keeps trying while that window may be one
 * that went away (`retried` settles when it stops). Gone or unreadable: the chat opens empty with
 * one line saying so; the task's files are not touched, and the window forgets it.
 * Resolves after the first try (a start-up can wait for that much; not for the retries).
 */
export async function reopenTask(id: string | undefined, r: Reopener, wait: { ms: number; everyMs: number } = { ms: REOPEN_WAIT_MS, everyMs: LOCK_BEAT_MS }): Promise<{ outcome: ReopenOutcome; retried: Promise<ReopenOutcome> }> {
  const done = (outcome: ReopenOutcome) => ({ outcome, retried: Promise.resolve(outcome) });
  if (!id) return done('none');
  const first = await tryOpen(id, r);
  if (first !== 'held') return done(first);
  const until = Date.now() + wait.ms;
  const retried = (async (): Promise<ReopenOutcome> => {
    while (Date.now() < until) {
      await new Promise((res) => setTimeout(res, wait.everyMs));
      // The user started something else meanwhile (or clicked Take over): that wins.
      if (!r.untouched()) return 'none';
      const next = await tryOpen(id, r, true);
      if (next !== 'held') return next;
    }
    return 'held';
  })();
  return { outcome: 'held', retried };
}

async function tryOpen(id: string, r: Reopener, quiet = false): Promise<ReopenOutcome> {
  try {
    await r.resume(id);
    return 'opened';
  } catch (e) {
    if (e instanceof TaskLockedError) {
      if (!quiet) r.refused({ taskId: id, canTakeOver: true, reason: HELD });
      return 'held';
    }
    r.logger.warn(`reopening task ${id}: ${e instanceof Error ? e.message : String(e)}`);
    r.forget();
    r.refused({
      taskId: id,
      canTakeOver: false,
      reason: e instanceof TaskNotFoundError
        ? 'The task last open in this workspace is no longer in its history, so a new task is open.'
        : `The task last open in this workspace could not be read: ${oneLine(e).replace(/\.$/, '')}. It is left as it is, and a new task is open.`,
    });
    return 'unavailable';
  }
}

/** An error's message on one line (the note is one line). */
function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();
}

/** In words the user knows: a window, never a process id. */
const HELD = 'The task last open in this workspace is open in another window or terminal. If that window was closed or reloaded, it opens here by itself in a few seconds; or Take over: that window stops and saves it, and turns read-only.';
