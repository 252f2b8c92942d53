import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Replace a file so that a reader (or a process killed mid-write) sees either the old content or
 * the new, never a mix: write a temp file in the same directory, fsync it, rename it over the
 * target (atomic on POSIX and NTFS within one volume), then fsync the directory so the rename
 * itself survives a power cut. `durable: false` skips the fsyncs: still all-or-nothing against a
 * killed process, but a power cut may lose the file — for files that can be rebuilt (task meta).
 */
export function writeFileAtomic(file: string, data: string | Buffer, opts: { durable?: boolean } = {}): void {
  const durable = opts.durable ?? true;
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  // Windows refuses a rename over a file another process holds open (an indexer, an antivirus) for a moment: retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(tmp, file);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt < 5 && (code === 'EPERM' || code === 'EACCES' || code === 'EBUSY')) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 * (attempt + 1));
        continue;
      }
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }
  if (durable) fsyncDir(dir);
}

/** Makes a rename or a new file in `dir` durable. Not possible on Windows (EPERM/EISDIR): ignored there. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    /* best effort */
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Appends and fsyncs (data, not metadata) so an appended record survives a kill right after. */
export function appendDurable(file: string, data: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, data);
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Temp files left by a writer that was killed between write and rename. */
export function removeStaleTemps(dir: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith('.') && n.endsWith('.tmp')) fs.rmSync(path.join(dir, n), { force: true });
}
