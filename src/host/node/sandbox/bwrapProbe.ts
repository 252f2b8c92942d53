/**
 * Whether bubblewrap can sandbox commands on this machine, and if not, why — in words a user can
 * act on. bwrap needs Linux and either unprivileged user namespaces or a setuid bwrap; a container
 * or a kernel setting can take both away, so it is tried once (the same namespaces a command gets)
 * rather than assumed from its presence on PATH.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type BwrapProbe = { ok: true; path: string; disableUserns: boolean } | { ok: false; why: string };

/** `TANDEM_BWRAP` (a path; `off` turns the sandbox off) or `bwrap` on PATH. */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): string | { none: string } {
  const configured = env.TANDEM_BWRAP;
  if (configured === 'off') return { none: 'the sandbox is turned off (TANDEM_BWRAP=off)' };
  if (configured) return configured;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, 'bwrap');
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return { none: 'bubblewrap (bwrap) is not installed; on Debian/Ubuntu: sudo apt-get install bubblewrap' };
}

const cache = new Map<string, BwrapProbe>();

export function probeBwrap(env: NodeJS.ProcessEnv = process.env): BwrapProbe {
  if (process.platform !== 'linux') return { ok: false, why: `there is no command sandbox on ${process.platform} yet (bubblewrap is Linux-only)` };
  const found = findBwrap(env);
  if (typeof found !== 'string') return { ok: false, why: found.none };
  const known = cache.get(found);
  if (known) return known;
  // `--disable-userns` came with bwrap 0.8; older ones are still a sandbox, without that extra wall.
  const help = spawnSync(found, ['--help'], { encoding: 'utf8', timeout: 10_000 });
  const disableUserns = `${help.stdout ?? ''}${help.stderr ?? ''}`.includes('--disable-userns');
  const userns = ['--unshare-user', ...(disableUserns ? ['--disable-userns'] : []), '--cap-drop', 'ALL'];
  const r = spawnSync(found, [...userns, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  let result: BwrapProbe;
  if (r.error) result = { ok: false, why: `${found} could not be started (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})` };
  else if (r.status === 0) result = { ok: true, path: found, disableUserns };
  else {
    const said = (r.stderr || '').trim().split('\n')[0] ?? '';
    const hint = /namespace|permission|Operation not permitted/i.test(said)
      ? ' (user namespaces are unavailable: a container without them, or kernel.unprivileged_userns_clone=0 / an AppArmor restriction)'
      : '';
    result = { ok: false, why: `bwrap cannot create a sandbox here: ${said || `exit ${r.status}`}${hint}` };
  }
  cache.set(found, result);
  return result;
}
