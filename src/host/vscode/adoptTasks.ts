import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../core/ports/ports';

/**
 * Moves tasks saved by an earlier version under a window's own storage folder into the workspace
 * folder's shared one, so History still lists them. A task already there is left where it is.
 * Each task is a folder holding `meta.json`; anything else is not touched.
 */
export function adoptTasks(from: string, to: string, logger: Logger): void {
  let names: string[];
  try {
    names = fs.readdirSync(from, { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join(from, d.name, 'meta.json'))).map((d) => d.name);
  } catch {
    return; // nothing saved there
  }
  if (names.length === 0) return;
  fs.mkdirSync(to, { recursive: true });
  for (const name of names) {
    const dest = path.join(to, name);
    if (fs.existsSync(dest)) continue;
    try {
      fs.renameSync(path.join(from, name), dest);
    } catch {
      try { fs.cpSync(path.join(from, name), dest, { recursive: true }); } catch (e) { logger.warn(`history: could not move task ${name} from ${from}: ${String(e)}`); }
    }
  }
}
