/**
 * git runs hooks from the folder `core.hooksPath` names (a repository's `.git/config` can point it
 * at `tools/hooks` in the working tree), so that folder is as protected as `.git/hooks`.
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../ports/ports';

/** The absolute folder `core.hooksPath` names in a git config's text, or undefined. */
export function parseHooksPath(configText: string, root: string, home = process.env.HOME ?? '/'): string | undefined {
  let inCore = false;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.replace(/[;#].*$/, '').trim();
    const section = /^\[\s*([^\]\s"]+)/.exec(line);
    if (section) {
      inCore = section[1]!.toLowerCase() === 'core';
      // `[core] hooksPath = x` on one line
      const rest = line.slice(line.indexOf(']') + 1).trim();
      if (!inCore || !rest) continue;
      const v = valueOf(rest);
      if (v !== undefined) return toAbs(v, root, home);
      continue;
    }
    if (!inCore) continue;
    const v = valueOf(line);
    if (v !== undefined) return toAbs(v, root, home);
  }
  return undefined;
}

function valueOf(line: string): string | undefined {
  const m = /^hookspath\s*=\s*(.*)$/i.exec(line);
  return m ? m[1]!.trim().replace(/^"(.*)"$/, '$1') : undefined;
}

function toAbs(v: string, root: string, home: string): string | undefined {
  if (!v) return undefined;
  return path.resolve(root, v.startsWith('~/') ? path.join(home, v.slice(2)) : v);
}

/** The real path of the hooks folder `<root>/.git/config` names, if any. */
export async function gitHooksFolder(fs: WorkspaceFs, root: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await fs.readText(path.join(root, '.git', 'config'));
  } catch {
    return undefined;
  }
  const p = parseHooksPath(text, root);
  return p ? fs.realpath(p) : undefined;
}
