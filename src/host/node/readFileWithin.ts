/**
 * Reads a file only if the file actually opened is a regular file inside `within`, judged on the
 * open file descriptor, so a link swapped in between a check and the read cannot redirect it: the
 * last component is opened with O_NOFOLLOW, and the descriptor's own path (/proc/self/fd on Linux)
 * or, elsewhere, the path's real location with the same device and inode as the descriptor, must be
 * inside `within`. The bytes come from that descriptor.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { isWithin } from '../../core/workspace/pathWithin';

/** `hostPath`: the descriptor's path as this process spells it, when the file lies in another mount namespace (a copy-on-write step's view). */
export async function readFileWithin(absPath: string, within: string, maxBytes: number, hostPath: (p: string) => string = (p) => p): Promise<string> {
  const refuse = (why: string) => Object.assign(new Error(`${absPath} ${why}`), { code: 'EOUTSIDE' });
  let h: fsp.FileHandle;
  try {
    h = await fsp.open(absPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw refuse('is a symbolic link; not followed');
    throw e;
  }
  try {
    const st = await h.stat();
    if (!st.isFile()) throw refuse('is not a regular file');
    if (st.size > maxBytes) throw refuse(`is larger than ${maxBytes} bytes`);
    let where: string;
    try {
      where = hostPath(await fsp.readlink(`/proc/self/fd/${h.fd}`));
    } catch {
      where = await fsp.realpath(absPath);
      const now = await fsp.stat(where);
      if (now.ino !== st.ino || now.dev !== st.dev) throw refuse('changed while it was opened');
    }
    if (!path.isAbsolute(where) || !isWithin(within, where)) throw refuse(`leads outside ${within}`);
    return (await h.readFile({ encoding: 'utf8' })).slice(0, maxBytes);
  } finally {
    await h.close();
  }
}
