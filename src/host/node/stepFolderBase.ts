/**
 * The private folders step workspaces live in (both kinds: git worktrees and copy-on-write views):
 * `<memory-backed or temp folder>/tandem-…-<user>/<repository id>/`, made 0700 and checked to be this
 * user's. The repository's folder is removed when its last step goes (nothing left in /dev/shm), so a
 * step being made beside a step being removed could find it gone between making it and writing into
 * it. In this process the two take turns per folder (`ownerFileIn`, `removeIfEmpty`); against another
 * process's removal, `ownerFileIn` makes the folder again until the owner file is in (from then on the
 * folder is not empty, and no removal takes it away).
 */
import { statfsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { processAlive } from '../../core/history/taskLock';

export { processAlive };

/** Memory-backed room worth using (a container's 64 MB /dev/shm is not). */
const SHM_MIN_FREE = 2 * 1024 ** 3;
let shmUsable: boolean | undefined;

const userTag = () => (typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username);

/** `<root>/<name>-<user>`: Linux's /dev/shm when it has room (checking out and removing there takes a fraction of the time a busy disk takes), else the OS temp folder. */
export function stepFoldersRoot(name: string): string {
  if (shmUsable === undefined) {
    try {
      const s = statfsSync('/dev/shm');
      shmUsable = process.platform === 'linux' && s.bavail * s.bsize >= SHM_MIN_FREE;
    } catch {
      shmUsable = false;
    }
  }
  return path.join(shmUsable ? '/dev/shm' : os.tmpdir(), `${name}-${userTag()}`);
}

/** Makes `dir` and its parent 0700, and checks they are folders of this user's, no links (a shared temp folder is anyone's to pre-create a name in). */
async function privateFolder(dir: string): Promise<void> {
  for (const d of [path.dirname(dir), dir]) {
    await fs.mkdir(d, { recursive: true, mode: 0o700 });
    const st = await fs.lstat(d);
    const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
    if (!st.isDirectory() || !mine) throw new Error(`${d} is not a folder of this user's; step workspaces are not made there`);
    if ((st.mode & 0o077) !== 0) await fs.chmod(d, 0o700);
  }
}

const folderTurns = new Map<string, Promise<unknown>>();
/** Runs `work` after every earlier turn on `folder` in this process has ended. */
function inFolderTurn<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const next = (folderTurns.get(folder) ?? Promise.resolve()).then(work, work);
  const settled = next.then(() => undefined, () => undefined);
  folderTurns.set(folder, settled);
  void settled.then(() => { if (folderTurns.get(folder) === settled) folderTurns.delete(folder); });
  return next;
}

/** Removes a repository's folder of steps if it is empty (another step's files keep it); whether it went. */
export function removeIfEmpty(folder: string): Promise<boolean> {
  return inFolderTurn(folder, () => fs.rmdir(folder).then(() => true, () => false));
}

/**
 * Writes `<dir>.owner` (0600) in `dir`'s private parent, making that folder (again) as often as a
 * removal beside it takes it away between the two; then `dir` itself when asked.
 */
export function ownerFileIn(dir: string, text: string, o: { makeDir?: boolean } = {}): Promise<void> {
  return inFolderTurn(path.dirname(dir), async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        await privateFolder(path.dirname(dir));
        await fs.writeFile(`${dir}.owner`, text, { mode: 0o600 });
        if (o.makeDir) await fs.mkdir(dir, { mode: 0o700 });
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw e;
      }
    }
  });
}
