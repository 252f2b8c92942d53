/**
 * Whether a fact may cite a file: exactly when a read of it would be allowed, judged after
 * resolving symlinks and under every name the file goes by. A fact must not rest on (or point the
 * model at) a secret file (`.env`, keys), an ignored file, git's own files, or anything outside the
 * workspace: a citation is as good as a read, and a stored fact outlives the task that made it.
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../ports/ports';
import { WorkspacePaths, isWithin } from '../workspace/workspacePaths';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { isSecretFileName } from '../policy/secretFiles';
import { gitControlledPaths } from '../policy/gitControlledPaths';

export type CitablePath = { ok: true; rel: string; real: string; root: string } | { ok: false; why: string };

/** The open folder of that name (a citation's `folder`). */
export function folderRoot(roots: readonly string[], folder: string): string | undefined {
  return roots.find((r) => path.basename(r) === folder);
}

/**
 * A path as given, in a workspace of several folders: `api/src/app.py` is `src/app.py` of the folder
 * named api (how such a workspace names its files), else it is relative to the first folder.
 */
export function inFolder(roots: readonly string[], given: string): string {
  if (roots.length < 2 || path.isAbsolute(given)) return given;
  const [head, ...rest] = given.split(/[\\/]/);
  const root = head && rest.length ? folderRoot(roots, head) : undefined;
  return root ? path.join(root, ...rest) : given;
}

/** The folder a citation names (several folders open), for the fact to keep. */
export function folderOf(roots: readonly string[], root: string): string | undefined {
  return roots.length > 1 ? path.basename(root) : undefined;
}

export async function citablePath(fs: WorkspaceFs, given: string, matcher = new IgnoreMatcher(fs)): Promise<CitablePath> {
  let r;
  try {
    r = await new WorkspacePaths(fs).resolve(given);
  } catch (e) {
    return { ok: false, why: `${given}: ${(e as Error).message}` };
  }
  if (!r.inside || !r.root || !r.rel) return { ok: false, why: `${given} is outside the workspace` };
  for (const name of r.spellings) {
    const parts = name.split('/');
    if (parts.includes('.git')) return { ok: false, why: `${name} is inside .git` };
    const secret = parts.find((p) => isSecretFileName(p));
    if (secret) return { ok: false, why: `${name} is a secret file (${secret}); facts never cite one` };
  }
  for (const name of r.spellings) {
    if (await matcher.ignores(r.root, name, false)) return { ok: false, why: `${name} is excluded by the workspace's ignore rules (.gitignore / .tandemignore)` };
  }
  for (const g of await gitControlledPaths(r.root, (p) => fs.readText(p).catch(() => undefined))) {
    if (isWithin(await fs.realpath(g.path), r.real)) return { ok: false, why: `${r.rel} is git's own file (${g.why})` };
  }
  const st = await fs.stat(r.real);
  if (!st) return { ok: false, why: `${r.rel} does not exist` };
  if (st.type !== 'file') return { ok: false, why: `${r.rel} is not a file` };
  return { ok: true, rel: r.rel.split(path.sep).join('/'), real: r.real, root: r.root };
}
