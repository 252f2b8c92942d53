/**
 * Overwrites the values of the named variables where the kernel keeps this process's initial
 * environment, which `/proc/<pid>/environ` reads out. Deleting them from `process.env` is not
 * enough: any process of the same user (a hook, which runs outside the sandbox, reading
 * `/proc/$PPID/environ`) could still read the key there. Linux only; elsewhere, or when the kernel
 * refuses the write, it reports why and changes nothing.
 */
import * as fs from 'node:fs';

export function scrubInitialEnviron(names: readonly string[]): { scrubbed: number } | { failed: string } {
  if (process.platform !== 'linux') return { failed: 'not Linux' };
  let fd: number | undefined;
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): field 3 is the first; env_start/env_end are fields 50/51.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[50 - 3]);
    const end = Number(fields[51 - 3]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return { failed: 'no environment range in /proc/self/stat' };
    fd = fs.openSync('/proc/self/mem', 'r+');
    const buf = Buffer.alloc(end - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    let scrubbed = 0;
    let at = 0;
    while (at < buf.length) {
      const nul = buf.indexOf(0, at);
      const stop = nul === -1 ? buf.length : nul;
      const entry = buf.toString('latin1', at, stop);
      const eq = entry.indexOf('=');
      if (eq > 0 && names.includes(entry.slice(0, eq)) && stop > at + eq + 1) {
        const blank = Buffer.alloc(stop - (at + eq + 1), 'x');
        fs.writeSync(fd, blank, 0, blank.length, start + at + eq + 1);
        scrubbed++;
      }
      at = stop + 1;
    }
    return { scrubbed };
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err) };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
