/**
 * The bubblewrap command line for one command. Order matters: later mounts go on top of earlier
 * ones, so the whole system goes in read-only first, then the workspace writable, then the folders
 * above protected paths pinned (bound onto themselves: a mount point cannot be renamed), then the
 * protected paths read-only again and the secret files as empty files on top.
 */
import { API_KEY_ENV_VARS } from '../../../core/secrets/apiKeyEnv';
import type { SandboxMounts } from './sandboxMounts';

export interface BwrapCommand {
  bwrap: string;
  /** Workspace folders: writable, or (readonly) bound from a throwaway overlay prepared by the caller. */
  roots: readonly { path: string; source?: string }[];
  workspace: 'writable' | 'readonly';
  network: boolean;
  mounts: Pick<SandboxMounts, 'readOnly' | 'hidden' | 'hiddenDirs' | 'pinned'>;
  /** An empty, read-only file bound over each hidden secret file. */
  emptyFile: string;
  cwd: string;
  shell: string;
  command: string;
  /** bwrap knows `--disable-userns` (0.8+): the command cannot make a user namespace of its own. */
  disableUserns?: boolean;
}

export function bwrapArgs(c: BwrapCommand): string[] {
  const a: string[] = [
    // Its own process namespace: nothing outside is visible (/proc/$PPID/environ shows the
    // sandbox's own init), and when the command ends every process it started ends with it
    // (setsid and nohup included). --die-with-parent: killing bwrap (Stop, timeout) ends all of it.
    '--die-with-parent',
    // A user namespace and no capabilities at all, even when Tandem runs as root (containers, CI):
    // with CAP_SYS_ADMIN a command could `umount .env`, `umount .git` or remount / read-write.
    // uid 0 stays uid 0 inside (owner checks on workspace files still pass), but it is root of
    // nothing; and no nested user namespace, where it would get capabilities back.
    '--unshare-user', ...(c.disableUserns ? ['--disable-userns'] : []), '--cap-drop', 'ALL',
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    // No controlling terminal to push keystrokes into (TIOCSTI).
    '--new-session',
    ...(c.network ? [] : ['--unshare-net']),
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    // Private /tmp (and /run: sockets such as docker.sock or the session bus reach outside).
    '--tmpfs', '/tmp',
    '--tmpfs', '/run',
  ];
  for (const r of c.roots) a.push(c.workspace === 'writable' || r.source ? '--bind' : '--ro-bind', r.source ?? r.path, r.path);
  // A read-only workspace is an overlay thrown away afterwards: nothing there to pin, and a pin bound
  // from the real folder would let writes through to it.
  if (c.workspace === 'writable') for (const p of c.mounts.pinned) a.push('--bind', p, p);
  for (const p of c.mounts.readOnly) a.push('--ro-bind', p, p);
  for (const p of c.mounts.hidden) a.push('--ro-bind', c.emptyFile, p);
  // The user's secret folders: an empty, read-only folder in their place.
  for (const p of c.mounts.hiddenDirs) a.push('--tmpfs', p, '--remount-ro', p);
  for (const name of API_KEY_ENV_VARS) a.push('--unsetenv', name);
  a.push('--setenv', 'TMPDIR', '/tmp', '--setenv', 'GIT_OPTIONAL_LOCKS', '0', '--setenv', 'TANDEM_SANDBOX', '1');
  a.push('--chdir', c.cwd, '--', c.shell, '-e', '-o', 'pipefail', '-c', c.command);
  return [c.bwrap, ...a];
}
