/** WorkspaceFs on node:fs/promises, for the CLI and unit tests. */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { FileStat, WorkspaceFs } from '../../core/ports/ports';
import { readFileWithin } from './readFileWithin';
import { viewOfPath, type StepView } from './cow/stepView';

const MAX_SYMLINK_HOPS = 40;

function typeOf(s: fs.Stats | fs.Dirent): FileStat['type'] {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'directory';
  return 'other';
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class NodeWorkspaceFs implements WorkspaceFs {
  readonly roots: readonly string[];
  /**
   * Set when the root is a copy-on-write step's view (`/proc/<holder>/root/…`): real paths are then
   * resolved inside the step's namespace, where the overlay is (stepView.ts).
   */
  private readonly view: StepView | undefined;

  /** Roots are realpath'd once here so every inside/outside decision compares real paths. */
  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw new Error('NodeWorkspaceFs needs at least one workspace folder');
    this.view = viewOfPath(path.resolve(roots[0]!));
    this.roots = roots.map((r) => (this.view ? this.view.realpathSync(r, true) : fs.realpathSync.native(path.resolve(r))));
  }

  readText(absPath: string): Promise<string> {
    return fsp.readFile(absPath, 'utf8');
  }

  readTextWithin(absPath: string, within: string, maxBytes: number): Promise<string> {
    const view = this.view;
    return view ? readFileWithin(absPath, within, maxBytes, (p) => view.toHost(p)) : readFileWithin(absPath, within, maxBytes);
  }

  async stat(absPath: string): Promise<FileStat | undefined> {
    try {
      const s = await fsp.lstat(absPath);
      return { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs };
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async readDir(absPath: string): Promise<{ name: string; type: FileStat['type'] }[]> {
    const entries = await fsp.readdir(absPath, { withFileTypes: true });
    return entries.map((d) => ({ name: d.name, type: typeOf(d) }));
  }

  /**
   * Writes a new file beside the target and renames it over: a reader sees the old or the new text,
   * never half, and a hard link to the file (perhaps to a file outside the workspace) is left
   * pointing at the old contents instead of being changed in place. The file's mode is kept.
   */
  async writeText(absPath: string, content: string): Promise<void> {
    const dir = path.dirname(absPath);
    await fsp.mkdir(dir, { recursive: true });
    let mode: number | undefined;
    try {
      mode = (await fsp.stat(absPath)).mode & 0o7777;
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
    const tmp = path.join(dir, `.${path.basename(absPath)}.tandem-${process.pid}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    if (mode !== undefined) viewOfPath(absPath)?.noteWriteOver(absPath);
    try {
      await fsp.writeFile(tmp, content, { encoding: 'utf8', flag: 'wx' });
      if (mode !== undefined) await fsp.chmod(tmp, mode); // keep an existing file's mode (an executable script stays one)
      await fsp.rename(tmp, absPath);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
  }

  async delete(absPath: string): Promise<void> {
    const s = await fsp.lstat(absPath);
    if (s.isDirectory()) await fsp.rmdir(absPath);
    else await fsp.unlink(absPath);
  }

  /**
   * Real path, also for paths that do not exist yet: the nearest existing ancestor's real path plus
   * the rest. A dangling symlink is followed to where it points (so writing through
   * `ws/link -> /outside/new` is seen as a write to `/outside/new`, not to `ws/link`).
   */
  realpath(absPath: string): Promise<string> {
    // A path the step's commands printed (`<mount>/src/a.ts`) means the same file as the host spelling.
    if (this.view) return Promise.resolve(this.view.realpathSync(absPath));
    return this.resolveReal(path.resolve(absPath), 0);
  }

  private async resolveReal(p: string, hops: number): Promise<string> {
    if (hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error(`too many levels of symbolic links: ${p}`), { code: 'ELOOP' });
    try {
      return await fsp.realpath(p);
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
    const parent = path.dirname(p);
    if (parent === p) return p;
    const realParent = await this.resolveReal(parent, hops);
    const candidate = path.join(realParent, path.basename(p));
    let st: fs.Stats | undefined;
    try {
      st = await fsp.lstat(candidate);
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
    if (st?.isSymbolicLink()) {
      const target = await fsp.readlink(candidate);
      return this.resolveReal(path.resolve(realParent, target), hops + 1);
    }
    return candidate;
  }
}
