/**
 * One changed path of a step workspace as step-patch data, read without following any link: every
 * folder on the way is checked with lstat (a link there means the path is gone as far as the step's
 * result goes: a deletion, and the link itself is its own entry), the file is opened with O_NOFOLLOW
 * and O_NONBLOCK and judged on the open descriptor. A FIFO, socket or device is refused by name and
 * never opened, and so is a link to one inside the step workspace (reading through it would block).
 */
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { StepPatchRefusal, type StepPatchBefore, type StepPatchEntry } from '../../core/ports/stepWorkspaces';

/** What a path is, by lstat: a special file is named for the refusal. */
function special(st: import('node:fs').Stats): string | undefined {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return undefined;
}

const REFUSED = (what: string) => `is ${what}; a step's result holds files, links and deletions only (it is never opened)`;

/** lstat of `rel` under `root` with no link followed on the way; undefined when absent or reached only through a link or a non-folder. */
async function lstatNoFollow(root: string, rel: string): Promise<import('node:fs').Stats | undefined> {
  const parts = rel.split('/');
  let at = root;
  for (let i = 0; i < parts.length - 1; i++) {
    at = path.join(at, parts[i]!);
    const st = await fs.lstat(at).catch(() => undefined);
    if (!st?.isDirectory()) return undefined;
  }
  return fs.lstat(path.join(root, rel)).catch(() => undefined);
}

/**
 * Where a link at `rel` points inside `root`, lexically (a link leaving `root` points nowhere the
 * reader looks). Followed through links inside `root`, a few hops at most.
 */
async function linkEndsAt(root: string, rel: string, target: string): Promise<{ rel: string; st: import('node:fs').Stats } | undefined> {
  let from = rel;
  let to = target;
  for (let hop = 0; hop < 8; hop++) {
    const abs = path.resolve(root, path.dirname(from), to);
    const inner = path.relative(root, abs);
    if (!inner || inner.startsWith('..') || path.isAbsolute(inner)) return undefined;
    const innerRel = inner.split(path.sep).join('/');
    const st = await lstatNoFollow(root, innerRel);
    if (!st) return undefined;
    if (!st.isSymbolicLink()) return { rel: innerRel, st };
    from = innerRel;
    to = await fs.readlink(path.join(root, innerRel));
  }
  return undefined;
}

/** The bytes of a regular file at `abs`, opened without following a link and without blocking; rejects when it is not one any more. */
async function readRegular(abs: string, rel: string): Promise<{ bytes: Uint8Array; mode: number }> {
  const h = await fs.open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = await h.stat();
    const what = special(st);
    if (what) throw new StepPatchRefusal(rel, REFUSED(what));
    if (!st.isFile()) throw new StepPatchRefusal(rel, 'changed into something that is no file while it was read');
    return { bytes: new Uint8Array(await h.readFile()), mode: st.mode & 0o777 };
  } finally {
    await h.close();
  }
}

/** The entry for `rel` as the step workspace at `root` has it now; `before` is what the step started from. */
export async function readStepEntry(root: string, rel: string, before: StepPatchBefore): Promise<StepPatchEntry> {
  const st = await lstatNoFollow(root, rel);
  if (!st) return { path: rel, kind: 'deletion', before };
  const what = special(st);
  if (what) throw new StepPatchRefusal(rel, REFUSED(what));
  if (st.isSymbolicLink()) {
    const target = await fs.readlink(path.join(root, rel));
    const end = await linkEndsAt(root, rel, target);
    const endWhat = end && special(end.st);
    if (end && endWhat) throw new StepPatchRefusal(end.rel, `${REFUSED(endWhat)}, and ${rel} is a link to it`);
    return { path: rel, kind: 'symlink', target, before };
  }
  if (st.isDirectory()) return { path: rel, kind: 'deletion', before };
  const { bytes, mode } = await readRegular(path.join(root, rel), rel);
  return { path: rel, kind: 'file', mode, bytes, before };
}
