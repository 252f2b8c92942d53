/**
 * One sandboxed command, start to finish: the bwrap command line (bwrapArgs.ts) over the mounts
 * found right before it runs (sandboxMounts.ts), the throwaway overlay for a read-only workspace,
 * and afterwards the removal of protected files the command created. Shared by the child-process
 * runner and the VS Code terminal runner, so both run exactly the same sandboxed command line.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandIsolation, SandboxStatus } from '../../../core/ports/ports';
import { bwrapArgs } from './bwrapArgs';
import { probeBwrap } from './bwrapProbe';
import { createdProtected, DEFAULT_SECRET_FILES, findSandboxMounts } from './sandboxMounts';

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
}

export function sandboxStatusFor(s: SandboxSettings): SandboxStatus {
  const probe = probeBwrap(s.env ?? process.env);
  return probe.ok ? { available: true, networkByDefault: s.network === true } : { available: false, why: probe.why };
}

export interface PreparedCommand {
  argv: string[];
  /** After the command: removes protected files it created; returns what it did, for the model and the user. */
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
  const mounts = findSandboxMounts(iso.roots, s.secretFiles ?? DEFAULT_SECRET_FILES, s.allowSecretFiles ?? [], s.readOnlyFolders ?? [], s.hideSecretsIn ?? []);
  // Secret files are covered by an empty file (bind mounts are nodev, so /dev/null would not read).
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-sandbox-'));
  const empty = path.join(scratch, 'empty');
  fs.writeFileSync(empty, '', { mode: 0o444 });
  const removeScratch = () => fs.rmSync(scratch, { recursive: true, force: true });
  if (iso.workspace === 'writable') {
    const argv = bwrapArgs({ bwrap: probe.path, disableUserns: probe.disableUserns, roots: iso.roots.map((r) => ({ path: r })), workspace: 'writable', network: iso.network, mounts, emptyFile: empty, ...c });
    return {
      argv,
      after: () => {
        const created = createdProtected(iso.roots, mounts.protectedNames);
        for (const p of created) fs.rmSync(p, { recursive: true, force: true });
        return created.map(
          (p) =>
            `removed ${path.relative(iso.roots.find((r) => p.startsWith(r)) ?? '/', p)}, which the command created: files that make code run by themselves ` +
            '(.git, editor tasks, hooks, CI, direnv…) and ignore files are not created by sandboxed commands; write it with a file tool, which asks the user',
        );
      },
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
  const mountScript = roots
    .map((r, i) => `mount -t overlay overlay -o "lowerdir=$${3 * i + 1},upperdir=$${3 * i + 2},workdir=$${3 * i + 3}" "${r.source}"`)
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
