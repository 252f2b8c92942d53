/**
 * The check after a sandboxed command: what stands at each protected path is compared with what stood
 * there before — its kind, a file's bytes (sha256), a link's target, a folder's identity — not only
 * its name. Inside the sandbox a protected path is read-only and the folders above it are pinned
 * (sandboxMounts.ts), so a command can change one only where no mount reaches: a protected name that
 * is a link (the mount protects its target; the link itself can be removed and made again), or one
 * that did not exist (nothing to bind). So afterwards:
 * - a protected path replaced by something else is put back: its original moved back when it is
 *   still in the workspace (found by device, inode and birth time), else a file's bytes and mode or a link's
 *   target written again; a folder whose original is nowhere in the workspace was not replaced by the
 *   command (it cannot move one out: the rest of the system is read-only), so it is left, and said;
 * - a protected path that did not exist before is removed — unless it is an original the command
 *   moved, which goes back to its place.
 * A file changed in place (same inode) was not changed by the command (it is read-only there): the
 * user or their editor did that meanwhile, and it is kept.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Bytes kept (and hashed) to write a protected file back; a bigger one is known by its inode and can only be moved back. */
const MAX_KEPT_BYTES = 1 << 20;
/** Entries looked at while searching the workspace for a moved original. */
const MAX_SEARCHED = 200_000;

interface Entry {
  kind: 'file' | 'dir' | 'link' | 'other';
  /** `dev:ino:birth`: the same file or folder, wherever it is now (the birth time tells a reused inode number apart). */
  id: string;
  mode: number;
  target?: string;
  sha256?: string;
  bytes?: Buffer;
}

export type ProtectedSnapshot = Map<string, Entry>;

const identity = (st: fs.BigIntStats) => `${st.dev}:${st.ino}:${st.birthtimeNs}`;

function entryAt(p: string, keepBytes: boolean): Entry | undefined {
  let st: fs.BigIntStats;
  try {
    st = fs.lstatSync(p, { bigint: true });
  } catch {
    return undefined;
  }
  const id = identity(st);
  const mode = Number(st.mode);
  if (st.isSymbolicLink()) {
    try {
      return { kind: 'link', id, mode, target: fs.readlinkSync(p) };
    } catch {
      return undefined;
    }
  }
  if (st.isDirectory()) return { kind: 'dir', id, mode };
  if (!st.isFile()) return { kind: 'other', id, mode };
  let bytes: Buffer | undefined;
  if (st.size <= BigInt(MAX_KEPT_BYTES)) {
    try {
      // Not through a link swapped in meanwhile; a FIFO or a device is never opened (regular files only, above).
      const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      try {
        bytes = fs.readFileSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      bytes = undefined;
    }
  }
  const sha256 = bytes ? createHash('sha256').update(bytes).digest('hex') : undefined;
  return { kind: 'file', id, mode, sha256, bytes: keepBytes ? bytes : undefined };
}

/** What stands at each protected path now (before the command). */
export function snapshotProtected(names: Iterable<string>): ProtectedSnapshot {
  const out: ProtectedSnapshot = new Map();
  for (const n of names) {
    const e = entryAt(n, true);
    if (e) out.set(n, e);
  }
  return out;
}

function unchanged(before: Entry, now: Entry | undefined): boolean {
  if (!now || now.kind !== before.kind) return false;
  if (before.kind === 'link') return now.target === before.target;
  if (before.kind === 'file') return now.id === before.id || (before.sha256 !== undefined && now.sha256 === before.sha256);
  return now.id === before.id;
}

/** Whether `e` is `original` moved: the same inode (numbers are reused once a file is gone) with the same kind and contents. */
function isMoved(original: Entry, e: Entry | undefined): boolean {
  return e !== undefined && e.id === original.id && e.kind === original.kind && e.target === original.target && e.sha256 === original.sha256;
}

/** Where each of `wanted` is now under the roots (not following links, node_modules left out), by identity. */
function findMoved(roots: readonly string[], wanted: Entry[]): Map<Entry, string> {
  const found = new Map<Entry, string>();
  const stack = [...roots];
  let seen = 0;
  while (stack.length && found.size < wanted.length && seen < MAX_SEARCHED) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      seen++;
      const abs = path.join(dir, name);
      let st: fs.BigIntStats;
      try {
        st = fs.lstatSync(abs, { bigint: true });
      } catch {
        continue;
      }
      const id = identity(st);
      for (const w of wanted) if (w.id === id && !found.has(w) && isMoved(w, entryAt(abs, false))) found.set(w, abs);
      if (st.isDirectory() && name !== 'node_modules') stack.push(abs);
    }
  }
  return found;
}

/**
 * Puts every protected path back as it was before the command and removes protected paths it made;
 * `namesNow` are the protected paths found after it. Returns one line per path, for the model and the user.
 */
export function restoreProtected(roots: readonly string[], before: ProtectedSnapshot, namesNow: Set<string>): string[] {
  const rel = (p: string) => path.relative(roots.find((r) => p.startsWith(r)) ?? '/', p);
  const changed = [...before].filter(([name, e]) => !unchanged(e, entryAt(name, false)));
  const made = [...namesNow].filter((n) => !before.has(n));
  const notes: string[] = [];
  // Originals the command moved: looked for by identity, where a protected name is now, then in the whole workspace.
  const moved = new Map<Entry, string>();
  for (const n of made) {
    const now = entryAt(n, false);
    const original = changed.find(([, e]) => !moved.has(e) && isMoved(e, now));
    if (original) moved.set(original[1], n);
  }
  const missing = changed.map(([, e]) => e).filter((e) => !moved.has(e));
  if (missing.length) for (const [e, p] of findMoved(roots, missing)) moved.set(e, p);
  for (const [name, e] of changed) {
    const original = moved.get(e);
    // Aside first: the original may be inside what the command put in its place.
    const aside = `${name}.tandem-restore-${process.pid}`;
    if (!original && e.kind === 'dir') {
      notes.push(`${rel(name)} is not the folder it was before the command, and that folder is not in the workspace: left as it is; check it before running git or opening the folder in an editor`);
      continue;
    }
    try {
      if (original && original !== name) fs.renameSync(original, aside);
      fs.rmSync(name, { recursive: true, force: true });
      fs.mkdirSync(path.dirname(name), { recursive: true });
      if (original && original !== name) fs.renameSync(aside, name);
      else if (e.kind === 'link') fs.symlinkSync(e.target!, name);
      else if (e.kind === 'file' && e.bytes) {
        fs.writeFileSync(name, e.bytes, { flag: 'wx' });
        fs.chmodSync(name, e.mode & 0o7777);
      } else {
        notes.push(`removed what the command put at ${rel(name)}, a protected path it replaced; the original could not be written back`);
        continue;
      }
      notes.push(`put back ${rel(name)}, which the command replaced: files that make code run by themselves (.git, editor tasks, hooks, CI, direnv…) are not replaced by sandboxed commands`);
    } catch (err) {
      notes.push(`could not put back ${rel(name)}, which the command replaced (${err instanceof Error ? err.message : String(err)}): check it before running git or opening the folder in an editor`);
    }
  }
  const movedBack = new Set([...moved.values()]);
  for (const p of made) {
    if (movedBack.has(p) || !fs.existsSync(path.dirname(p))) continue;
    try {
      fs.lstatSync(p);
    } catch {
      continue; // inside something removed above
    }
    fs.rmSync(p, { recursive: true, force: true });
    notes.push(
      `removed ${rel(p)}, which the command created: files that make code run by themselves ` +
        '(.git, editor tasks, hooks, CI, direnv…) and ignore files are not created by sandboxed commands; write it with a file tool, which asks the user',
    );
  }
  return notes;
}
