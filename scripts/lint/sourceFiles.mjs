// The source files a text-level lint check reads: every file under the given folders (or the files
// named) whose name matches `code`, never a declaration file, a dot-folder or a folder in `skipDirs`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Absolute paths of the source files under `root`'s `dirs`; a folder this checkout lacks is passed over. */
export function sourceFiles(root, dirs, { code, skipDirs }) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (skipDirs.has(name) || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (code.test(name) && !name.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of dirs) {
    const p = join(root, d);
    try {
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    } catch { /* a folder this checkout does not have */ }
  }
  return out;
}
