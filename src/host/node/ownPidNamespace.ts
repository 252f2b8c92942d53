/**
 * The start of a command line that runs a process in a PID namespace of its own, for what runs
 * outside the command sandbox but must end whole: a user's hook, a stdio MCP server. A process group
 * does not hold them: a child that calls `setsid` (a daemonising tool, `setsid cmd &`) leaves the
 * group and outlives a kill of it. In a PID namespace the first process is its init, and when that
 * init ends the kernel kills every process left in the namespace, `setsid` or not; bubblewrap's
 * `--die-with-parent` ends that init when bwrap itself is killed (a timeout, Stop, the end of a run).
 *
 * Everything else is as it was: the whole file system, writable, at the same paths (`--dev-bind / /`),
 * the same working folder, environment and user — as root, root with its capabilities; as an
 * ordinary user, bwrap makes a user namespace mapping that user to itself. Only `/proc` is the
 * namespace's own, so the process sees its own tree, not the editor's or the CLI's (nor their
 * environment) — except for a process whose folder is reached through `/proc/<pid>/root` (a
 * copy-on-write step's workspace, cow/stepView.ts), which keeps the host's `/proc` to reach it. What it loses: bwrap sets no_new_privs, so a setuid program (sudo) does not gain
 * privileges there.
 *
 * Where bwrap is missing or cannot make the namespace (not Linux, a container without namespaces),
 * this says why, and callers fall back to a process group, which `setsid` escapes.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { findBwrap } from './sandbox/bwrapProbe';

export type PidNamespace = { argv: string[] } | { unavailable: string };

const PREFIX = ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent'];

/** The options after bwrap's path for a process started in `cwd`. */
function optionsFor(cwd: string): string[] {
  const abs = path.resolve(cwd);
  const throughProc = abs === '/proc' || abs.startsWith('/proc/');
  return [...PREFIX, ...(throughProc ? [] : ['--proc', '/proc']), '--chdir', abs, '--'];
}

const cache = new Map<string, { ok: true } | { ok: false; why: string }>();

/** `[bwrap, …options, '--']` for a process started in `cwd`: put the command and its arguments after it. Tried once per bwrap. */
export function ownPidNamespace(cwd: string, env: NodeJS.ProcessEnv = process.env): PidNamespace {
  if (process.platform !== 'linux') return { unavailable: `no PID namespaces on ${process.platform}` };
  const found = findBwrap(env);
  if (typeof found !== 'string') return { unavailable: found.none };
  let known = cache.get(found);
  if (!known) {
    const r = spawnSync(found, [...optionsFor('/'), 'true'], { encoding: 'utf8', timeout: 10_000 });
    known = r.status === 0 ? { ok: true } : { ok: false, why: `${found} cannot make a PID namespace here: ${r.error?.message ?? ((r.stderr || '').trim().split('\n')[0] || `exit ${r.status}`)}` };
    cache.set(found, known);
  }
  return known.ok ? { argv: [found, ...optionsFor(cwd)] } : { unavailable: known.why };
}
