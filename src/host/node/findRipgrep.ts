/** Finds a ripgrep binary on PATH (the editor host prefers VS Code's bundled one). */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function findRipgrep(envPath: string | undefined = process.env.PATH): string | undefined {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd'] : ['rg'];
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const p = path.join(dir, name);
      try {
        fs.accessSync(p, fs.constants.X_OK);
        if (fs.statSync(p).isFile()) return p;
      } catch {
        // not here; keep looking
      }
    }
  }
  return undefined;
}
