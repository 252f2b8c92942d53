/**
 * The process that holds one step's overlay: `unshare` makes a user namespace (this user mapped to
 * root in it, no privilege outside) and a private mount namespace, mounts the overlay there, says
 * `ready`, then waits on its stdin. It ends when Tandem closes that pipe — or dies, which closes it
 * too — and with it goes the mount (a crash leaves the step's own folder, never a mount).
 *
 * `userxattr`: in a user namespace overlayfs keeps its marks (opaque folders) in `user.*` extended
 * attributes; without it the kernel falls back to a mode in which removing a folder fails with EIO.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { StepView } from './stepView';

export interface OverlayFolders {
  /** What the step sees below its own writes: the repository's top folder, never written. */
  lower: string;
  /** The step's own folder: everything it writes, and whiteouts for what it deletes. */
  upper: string;
  /** overlayfs's scratch folder, on the same file system as `upper`. */
  work: string;
  /** An empty folder: where the overlay is mounted, inside the namespace only. */
  mount: string;
}

export interface OverlayHolder {
  view: StepView;
  /** Ends the holder (and with it the mount) and waits for it. */
  close(): Promise<void>;
}

/** overlayfs splits its options on commas and its lower folders on colons. */
const escapeOption = (p: string) => p.replace(/([\\,:])/g, '\\$1');

const SCRIPT = 'mount -t overlay overlay -o "userxattr,lowerdir=$1,upperdir=$2,workdir=$3" "$4" && echo ready && exec cat >/dev/null';

/** Mounts the overlay in a namespace of its own; rejects with what `mount` said when the kernel refuses. */
export function holdOverlay(f: OverlayFolders, timeoutMs = 10_000): Promise<OverlayHolder> {
  const child = spawn('unshare', ['--user', '--map-root-user', '--mount', '--propagation', 'private', 'sh', '-c', SCRIPT, 'sh', escapeOption(f.lower), escapeOption(f.upper), escapeOption(f.work), f.mount], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise<OverlayHolder>((resolve, reject) => {
    let said = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(why));
    };
    const timer = setTimeout(() => fail(`the overlay was not mounted within ${timeoutMs} ms`), timeoutMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => {
      if (said.length < 2000) said += s;
    });
    child.on('error', (e) => fail(`unshare could not be started (${(e as NodeJS.ErrnoException).code ?? e.message})`));
    child.on('exit', (code, signal) => fail(said.trim().split('\n')[0] || `unshare ended (${signal ?? `exit ${code}`}) before the overlay was mounted`));
    child.stdout!.setEncoding('utf8');
    child.stdout!.once('data', (s: string) => {
      if (settled) return;
      if (!s.startsWith('ready')) return fail(`unexpected answer from the overlay's holder: ${s.slice(0, 200)}`);
      settled = true;
      clearTimeout(timer);
      release(child);
      resolve({ view: new StepView(child.pid!, f.mount), close: () => end(child) });
    });
  });
}

/** The holder never keeps Tandem running: its pipes and the process itself stop counting for Node's event loop. */
function release(child: ChildProcess): void {
  child.stdout!.destroy();
  child.stderr!.destroy();
  (child.stdin as unknown as Socket).unref();
  child.unref();
}

function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.stdin!.end();
  });
}
