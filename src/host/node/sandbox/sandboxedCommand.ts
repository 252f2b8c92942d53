/**
 * One sandboxed command, start to finish: the bwrap command line (bwrapArgs.ts) over the mounts
 * found right before it runs (sandboxMounts.ts), the throwaway overlay for a read-only workspace,
 * and afterwards the protected paths compared with what they were: ones the command replaced are put
 * back, ones it created removed (protectedSnapshot.ts). Shared by the child-process
 * runner and the VS Code terminal runner, so both run exactly the same sandboxed command line.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandIsolation, SandboxStatus } from '../../../core/ports/ports';
import { bwrapArgs } from './bwrapArgs';
import { probeBwrap } from './bwrapProbe';
import { isWithin } from '../../../core/workspace/pathWithin';
import { restoreProtected, snapshotProtected } from './protectedSnapshot';
import { DEFAULT_SECRET_FILES, findSandboxMounts, protectedNamesNow, type SandboxMounts } from './sandboxMounts';
import { viewOfPath, type StepView } from '../cow/stepView';

export interface SandboxSettings {
  /** Environment to find bwrap in (`TANDEM_BWRAP`, PATH); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Commands get the network without asking (default off). */
  network?: boolean;
  /** Basename patterns of files hidden from commands (bound empty). */
  secretFiles?: readonly string[];
  /** Basename patterns the user allows despite `secretFiles`. */
  allowSecretFiles?: readonly string[];
  /** Folders outside the workspace bound read-only at their own paths (a step worktree's linked dependencies; see ForRootOptions). */
  readOnlyFolders?: readonly string[];
  /** Folders outside the workspace whose secret files are hidden too (a step worktree's source workspace; see ForRootOptions). */
  hideSecretsIn?: readonly string[];
  /**
   * Folders outside the workspace its commands must not see at all, covered by an empty folder: an
   * eval's task folders (the verifier and the reference change) and its results. One that holds a
   * workspace folder is left alone (covering it would hide the workspace too).
   */
  hiddenFolders?: readonly string[];
}

export function sandboxStatusFor(s: SandboxSettings): SandboxStatus {
  const probe = probeBwrap(s.env ?? process.env);
  return probe.ok ? { available: true, networkByDefault: s.network === true } : { available: false, why: probe.why };
}

export interface PreparedCommand {
  argv: string[];
  /** After the command: puts back protected paths it replaced, removes ones it created; returns what it did, for the model and the user. */
  after(): string[];
  /** Always, after the command: removes the throwaway overlay. */
  cleanup(): void;
}

export function prepareSandboxedCommand(
  s: SandboxSettings,
  iso: CommandIsolation,
  c: { cwd: string; shell: string; command: string },
): PreparedCommand | { refused: string } {
  const probe = probeBwrap(s.env ?? process.env);
  if (!probe.ok) return { refused: `Not run: the sandbox is unavailable (${probe.why}).` };
  // Found through this process's spelling of the paths (the walk reads the files)…
  const mounts = findSandboxMounts(iso.roots, s.secretFiles ?? DEFAULT_SECRET_FILES, s.allowSecretFiles ?? [], s.readOnlyFolders ?? [], s.hideSecretsIn ?? []);
  mounts.hiddenDirs.push(...hiddenFoldersFor(s.hiddenFolders ?? [], iso.roots, mounts.hiddenDirs));
  // What stands at each protected path now, to compare with afterwards (read only for a writable workspace).
  const before = iso.workspace === 'writable' ? snapshotProtected(mounts.protectedNames) : new Map();
  const after = () => restoreProtected(iso.roots, before, protectedNamesNow(iso.roots));
  const view = viewOf(c.cwd, iso.roots);
  if (!view) return prepareWith(probe, iso, c, mounts, after);
  // …and bound with the namespace's, from inside the copy-on-write step's namespace.
  const ns = (p: string) => view.toNs(p);
  const inner = prepareWith(probe, { ...iso, roots: iso.roots.map(ns) }, { ...c, cwd: ns(c.cwd) }, nsMounts(mounts, view), after);
  return { ...inner, argv: [...enterView(view), ...inner.argv] };
}

function prepareWith(
  probe: { path: string; disableUserns: boolean },
  iso: CommandIsolation,
  c: { cwd: string; shell: string; command: string },
  mounts: SandboxMounts,
  afterWritable: () => string[],
): PreparedCommand {
  // Secret files are covered by an empty file (bind mounts are nodev, so /dev/null would not read).
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-sandbox-'));
  const empty = path.join(scratch, 'empty');
  fs.writeFileSync(empty, '', { mode: 0o444 });
  const removeScratch = () => fs.rmSync(scratch, { recursive: true, force: true });
  if (iso.workspace === 'writable') {
    const argv = bwrapArgs({ bwrap: probe.path, disableUserns: probe.disableUserns, roots: iso.roots.map((r) => ({ path: r })), workspace: 'writable', network: iso.network, mounts, emptyFile: empty, ...c });
    return {
      argv,
      after: afterWritable,
      cleanup: removeScratch,
    };
  }
  // Read-only workspace: each folder is seen through an overlay whose writes land in a temporary
  // folder, deleted afterwards. The overlay is mounted in a user+mount namespace of its own (`unshare`),
  // so nothing outside sees it and no privileges are needed; bwrap then runs inside that namespace.
  const roots = iso.roots.map((r, i) => {
    for (const d of ['u', 'w', 'm']) fs.mkdirSync(path.join(scratch, `${d}${i}`));
    return { path: r, source: path.join(scratch, `m${i}`), upper: path.join(scratch, `u${i}`), work: path.join(scratch, `w${i}`) };
  });
  const esc = (p: string) => p.replace(/([\\,:])/g, '\\$1');
  // `userxattr`: in a user namespace overlayfs keeps its marks in `user.*` attributes; without it,
  // removing a folder fails with EIO. A kernel older than 5.11 does not know the option: mounted without.
  const mountScript = roots
    .map((r, i) => {
      const dirs = `lowerdir=$${3 * i + 1},upperdir=$${3 * i + 2},workdir=$${3 * i + 3}`;
      return `{ mount -t overlay overlay -o "userxattr,${dirs}" "${r.source}" 2>/dev/null || mount -t overlay overlay -o "${dirs}" "${r.source}"; }`;
    })
    .join(' && ');
  const mountArgs = roots.flatMap((r) => [esc(r.path), esc(r.upper), esc(r.work)]);
  const inner = bwrapArgs({ bwrap: probe.path, disableUserns: probe.disableUserns, roots, workspace: 'readonly', network: iso.network, mounts, emptyFile: empty, ...c });
  // $@ after the mount arguments is the bwrap command line.
  const script = `${mountScript} && shift ${mountArgs.length} && exec "$@"`;
  return {
    argv: ['unshare', '--user', '--map-root-user', '--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', ...mountArgs, ...inner],
    after: () => [],
    cleanup: removeScratch,
  };
}

/** The sandbox's own empty folders (bwrapArgs.ts): what is under them is not there to hide. */
const PRIVATE_FOLDERS = ['/tmp', '/run'];

/**
 * The folders to cover, at their real paths: existing folders that hold no workspace folder, and
 * are not inside a folder covered already (bwrap could not make the mount point in an empty,
 * read-only folder, and there is nothing there to hide).
 */
function hiddenFoldersFor(folders: readonly string[], roots: readonly string[], covered: readonly string[]): string[] {
  const out: string[] = [];
  const under = (p: string, list: readonly string[]) => list.some((c) => isWithin(c, p));
  for (const f of folders) {
    let real: string;
    try {
      real = fs.realpathSync(f);
      if (!fs.statSync(real).isDirectory()) continue;
    } catch {
      continue;
    }
    if (roots.some((r) => isWithin(real, r) || isWithin(r, real)) || under(real, PRIVATE_FOLDERS) || under(real, covered)) continue;
    out.push(real);
  }
  // The outermost only: one inside another is covered with it.
  return out.filter((p, i) => !out.some((q, j) => j !== i && q !== p && isWithin(q, p))).filter((p, i, all) => all.indexOf(p) === i);
}

/** The copy-on-write step view a command runs in, if any (its folder or its roots lie in one). */
function viewOf(cwd: string, roots: readonly string[]): StepView | undefined {
  return viewOfPath(cwd) ?? roots.map(viewOfPath).find((v) => v !== undefined);
}

/** The mounts as the step's namespace spells them. */
function nsMounts(m: SandboxMounts, view: StepView): SandboxMounts {
  const ns = (p: string) => view.toNs(p);
  return { readOnly: m.readOnly.map(ns), hidden: m.hidden.map(ns), hiddenDirs: m.hiddenDirs.map(ns), pinned: m.pinned.map(ns), protectedNames: m.protectedNames };
}

/**
 * Enters the step's user and mount namespace, where its overlay is mounted, keeping this process's
 * credentials (this user is root there, and nothing outside); the sandbox is set up from there.
 */
export function enterView(view: StepView): string[] {
  return view.enter;
}
