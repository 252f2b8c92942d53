import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * One writer per task: an editor window and a terminal (or two windows) appending to the same log
 * would interleave two diverging stories, and one's compaction would drop the other's records.
 * The lock is a file holding the writer's pid; a lock whose process is gone (killed, crashed) is
 * taken over. Same-machine only, which is where the history lives.
 */
const LOCK = 'writer.lock';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the task, if another live process does. */
export function lockHolder(dir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, LOCK), 'utf8').trim());
    return pid !== process.pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the task for this process; returns the other live holder's pid instead when there is one. */
export function acquireTaskLock(dir: string): number | undefined {
  const holder = lockHolder(dir);
  if (holder !== undefined) return holder;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, LOCK), String(process.pid));
  return undefined;
}

export function releaseTaskLock(dir: string): void {
  try {
    if (Number(fs.readFileSync(path.join(dir, LOCK), 'utf8').trim()) === process.pid) fs.rmSync(path.join(dir, LOCK), { force: true });
  } catch {
    /* not ours or gone */
  }
}
