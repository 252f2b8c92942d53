/**
 * A copy-on-write step workspace as the host process reaches it. The step's overlay (the workspace
 * below, the step's own folder on top) is mounted inside a user+mount namespace of its own, held by
 * one small process (overlayHolder.ts): no privilege is needed, and nothing outside that namespace
 * sees the mount. The host's file tools and searches reach the very same mount through
 * `/proc/<holder>/root`, which the kernel resolves inside the holder's namespace; the step's commands
 * enter that namespace (nsenter) before their sandbox is set up. One kernel overlay, two ways in:
 * the file tools and the commands cannot see different files.
 *
 * Two spellings of one place: the host path (`/proc/<pid>/root/<mount>/…`, what the file tools are
 * rooted at) and the namespace path (`<mount>/…`, what commands see). Nothing here may use a plain
 * `realpath` on a host path: it reads `/proc/<pid>/root` as `/` and lands on the host's empty mount
 * point, so real paths are resolved here, link by link, inside the namespace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../../../core/workspace/pathWithin';

const MAX_SYMLINK_HOPS = 40;

export class StepView {
  /** `/proc/<pid>/root`: the holder's root, as the host reaches it. */
  readonly prefix: string;

  /**
   * @param pid the process that holds the namespace
   * @param mount where the overlay is mounted inside the namespace (an empty folder on the host)
   */
  /**
   * The workspace's repository below the overlay (its top folder), once the step is made; with it,
   * the paths the step's file tools wrote over while the workspace had them (top-relative): nothing
   * in the step's own folder says so (a write is a new file renamed over the old), and a file the
   * workspace deletes afterwards must read as the workspace's change, not as one the step made.
   */
  lower: string | undefined;
  private readonly wroteOverLower = new Set<string>();

  constructor(readonly pid: number, readonly mount: string) {
    this.prefix = `/proc/${pid}/root`;
  }

  /** Notes a file tool's write over `hostPath` (a host path in this view), if the workspace has that file now. */
  noteWriteOver(hostPath: string): void {
    if (!this.lower || !isWithin(this.hostMount, hostPath)) return;
    const rel = path.relative(this.hostMount, hostPath).split(path.sep).join('/');
    if (!rel || this.wroteOverLower.has(rel)) return;
    if (fs.lstatSync(path.join(this.lower, rel), { throwIfNoEntry: false })) this.wroteOverLower.add(rel);
  }

  /** Whether a file tool of the step wrote over `rel` (top-relative) while the workspace had it. */
  wroteOver(rel: string): boolean {
    return this.wroteOverLower.has(rel);
  }

  /**
   * The command line prefix that enters the holder's user and mount namespace, where the overlay is
   * mounted, keeping this process's credentials (this user is root there, and nothing outside).
   */
  get enter(): string[] {
    return ['nsenter', '-t', String(this.pid), '--user', '--mount', '--preserve-credentials', '--'];
  }

  /** The overlay's top folder as the host reaches it. */
  get hostMount(): string {
    return this.prefix + this.mount;
  }

  /** The namespace's spelling of a host path (a path that is no view path is the same in both). */
  toNs(p: string): string {
    return isWithin(this.prefix, p) && p !== this.prefix ? p.slice(this.prefix.length) : p;
  }

  /** The host's spelling of a namespace path: under the mount, through the holder; elsewhere the namespace sees what the host sees. */
  toHost(p: string): string {
    return isWithin(this.mount, p) ? this.prefix + p : p;
  }

  /**
   * The real path of `p` (either spelling) as the namespace resolves it, spelled for the host; for a
   * path that does not exist, its nearest existing ancestor's real path joined with the rest. A
   * dangling link is followed to where it points, as NodeWorkspaceFs does. `mustExist`: throws
   * ENOENT instead, as `fs.realpathSync` does.
   */
  realpathSync(p: string, mustExist = false): string {
    let rest = this.toNs(path.resolve(p)).split('/').filter(Boolean);
    let at = '/';
    let hops = 0;
    while (rest.length) {
      const name = rest.shift()!;
      if (name === '.') continue;
      if (name === '..') {
        at = path.dirname(at);
        continue;
      }
      const next = path.join(at, name);
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(this.toHost(next));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      }
      if (!st?.isSymbolicLink()) {
        at = next;
        // Nothing below a missing path can be a link: the rest is joined as it is.
        if (!st && mustExist) throw Object.assign(new Error(`no such file or folder: ${p}`), { code: 'ENOENT' });
        if (!st) return this.toHost(path.join(at, ...rest));
        continue;
      }
      if (++hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error(`too many levels of symbolic links: ${p}`), { code: 'ELOOP' });
      const target = fs.readlinkSync(this.toHost(next));
      rest = [...target.split('/').filter(Boolean), ...rest];
      if (path.isAbsolute(target)) at = '/';
    }
    return this.toHost(at);
  }
}

/** The views of this process's running copy-on-write steps, by their host mount path. */
const views = new Map<string, StepView>();

export function registerStepView(view: StepView): void {
  views.set(view.hostMount, view);
}

export function forgetStepView(view: StepView): void {
  views.delete(view.hostMount);
}

/** The view a host path lies in (a step's root, a file in it), if any. */
export function viewOfPath(p: string): StepView | undefined {
  if (!p.startsWith('/proc/')) return undefined;
  for (const [mount, v] of views) if (isWithin(mount, p)) return v;
  return undefined;
}
