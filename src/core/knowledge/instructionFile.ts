/**
 * Reading one instruction file from the repository: only a regular file (or a folder of rule files)
 * whose real path stays inside its workspace root — a link to `/etc/passwd` or to another checkout is
 * not project instructions — and not an enormous one. The agent's read rules hold for it under both
 * its names, its own and its link's target: nothing the ignore policy hides (an ignored folder's own
 * AGENTS.md included), nothing in `.git` or any git dir or included config, no secret file by name
 * (`AGENTS.md -> .env` would put the secret into the system prompt, the card and the history).
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../ports/ports';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { isSecretFileName } from '../policy/secretFiles';
import { isWithin } from '../workspace/pathWithin';

/** Larger than this is not a hand-written instructions file; it is skipped and said so. */
export const MAX_INSTRUCTION_FILE_BYTES = 512 * 1024;

export interface ReadInstruction {
  /** Workspace-relative, forward slashes. */
  rel: string;
  text: string;
}

export type InstructionRead = { ok: true; files: ReadInstruction[] } | { ok: false; why: string } | undefined;

/** The file (or the folder's rule files) at `rel` under `root`; undefined when there is none. */
export async function readInstructionFile(fs: WorkspaceFs, root: string, rel: string, folderAllowed = false, matcher = new IgnoreMatcher(fs)): Promise<InstructionRead> {
  const abs = path.join(root, rel);
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st) return undefined;
  const real = await fs.realpath(abs).catch(() => abs);
  if (!isWithin(root, real)) return { ok: false, why: `${rel} leads outside the workspace; not used` };
  const realSt = st.type === 'symlink' ? await fs.stat(real).catch(() => undefined) : st;
  if (!realSt) return undefined;
  const realRel = path.relative(root, real).split(path.sep).join('/');
  for (const name of new Set([rel.split(path.sep).join('/'), realRel])) {
    const shown = name === rel ? rel : `${rel} (a link to ${name})`;
    if (realSt.type === 'file' && isSecretFileName(path.posix.basename(name))) return { ok: false, why: `${shown} is a secret file by its name; not used` };
    if (await matcher.ignores(root, name, realSt.type === 'directory')) return { ok: false, why: `${shown} is excluded by the ignore rules or is git's own file; not used` };
  }
  if (realSt.type === 'directory') {
    if (!folderAllowed) return undefined;
    const entries = (await fs.readDir(real).catch(() => [])).filter((e) => e.type === 'file' && /\.(md|mdc|txt)$/i.test(e.name)).map((e) => e.name).sort();
    const files: ReadInstruction[] = [];
    for (const name of entries) {
      const one = await readInstructionFile(fs, root, `${rel}/${name}`, false, matcher);
      if (one?.ok) files.push(...one.files);
    }
    return files.length ? { ok: true, files } : undefined;
  }
  if (realSt.type !== 'file') return undefined;
  if (realSt.size > MAX_INSTRUCTION_FILE_BYTES) return { ok: false, why: `${rel} is ${Math.round(realSt.size / 1024)} KB, too large for instructions; not used` };
  const text = await fs.readText(real).catch(() => undefined);
  if (text === undefined || text.slice(0, 8192).includes('\u0000')) return undefined;
  if (!text.trim()) return undefined;
  return { ok: true, files: [{ rel: rel.split(path.sep).join('/'), text: text.trim() }] };
}
