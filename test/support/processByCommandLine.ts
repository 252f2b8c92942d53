import * as fs from 'node:fs';

/**
 * Whether a live process runs exactly this argv. A command may run in the sandbox's own PID
 * namespace, where the `$$` it prints means nothing outside; its unique command line finds it.
 */
export function processRunning(argv: readonly string[]): boolean {
  const wanted = argv.map((a) => `${a}\u0000`).join('');
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).some((p) => {
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') !== wanted) return false;
      process.kill(Number(p), 0);
      return true;
    } catch {
      return false;
    }
  });
}

/** Kills every process that runs exactly this argv: what a failed test left behind. */
export function killByCommandLine(argv: readonly string[]): void {
  const wanted = argv.map((a) => `${a}\u0000`).join('');
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') === wanted) process.kill(Number(p), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
