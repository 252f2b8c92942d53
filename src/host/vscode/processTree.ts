import { execFile } from 'node:child_process';

/** All descendants of a process (children first found, deepest last), read from `ps`. POSIX only. */
export async function descendantPids(rootPid: number): Promise<number[]> {
  if (process.platform === 'win32') return [];
  const table = await new Promise<string>((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { maxBuffer: 8 * 1024 * 1024 }, (err, stdout) => resolve(err ? '' : stdout));
  });
  const children = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!pid || ppid === undefined || Number.isNaN(ppid)) continue;
    (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push(pid);
  }
  const out: number[] = [];
  const queue = [...(children.get(rootPid) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Kills everything a shell started (not the shell itself, which is the user's visible terminal):
 * SIGTERM first, SIGKILL to what is left after a grace period.
 */
export async function killDescendants(rootPid: number, graceMs = 1500): Promise<void> {
  const first = await descendantPids(rootPid);
  for (const pid of first) signal(pid, 'SIGTERM');
  if (!first.length) return;
  await new Promise((r) => setTimeout(r, graceMs));
  for (const pid of await descendantPids(rootPid)) signal(pid, 'SIGKILL');
  for (const pid of first) signal(pid, 'SIGKILL');
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try { process.kill(pid, sig); } catch { /* already gone */ }
}
