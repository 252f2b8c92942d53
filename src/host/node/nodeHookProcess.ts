/**
 * Runs a user's hook command: `/bin/sh -c` in the workspace folder, the JSON on stdin, in a PID
 * namespace of its own (ownPidNamespace.ts) so that everything it started ends with it — when it
 * exits, and when a timeout (or Stop) kills it, a child that called `setsid` included — and in a
 * process group of its own, killed whole (all there is where no PID namespace can be made); stdout
 * and stderr each cut at their cap. The environment is this process's without the API key variables.
 * Hooks run outside the command sandbox: they are the user's own commands, trusted as such.
 */
import { spawn } from 'node:child_process';
import { withoutApiKey } from '../../core/secrets/apiKeyEnv';
import { ownPidNamespace } from './ownPidNamespace';
import type { HookProcess, HookProcessRequest, HookProcessResult } from '../../core/userHooks/hookProcess';

/** After the hook exits, how long its pipes may stay open (a background child holding them) before we stop reading. */
const DRAIN_MS = 500;

export class NodeHookProcess implements HookProcess {
  constructor(private readonly baseEnv: NodeJS.ProcessEnv = process.env) {}

  run(req: HookProcessRequest): Promise<HookProcessResult> {
    return new Promise((resolve) => {
      const env = { ...withoutApiKey(this.baseEnv), ...req.env };
      const ns = ownPidNamespace(req.cwd, this.baseEnv);
      const argv = [...('argv' in ns ? ns.argv : []), '/bin/sh', '-c', req.command];
      let child;
      try {
        child = spawn(argv[0]!, argv.slice(1), { cwd: req.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      } catch (err) {
        resolve({ exitCode: null, stdout: '', stderr: '', timedOut: false, spawnError: err instanceof Error ? err.message : String(err) });
        return;
      }
      const out = { stdout: '', stderr: '' };
      const collect = (key: 'stdout' | 'stderr') => (chunk: Buffer) => {
        if (out[key].length < req.maxOutputChars) out[key] = (out[key] + chunk.toString('utf8')).slice(0, req.maxOutputChars);
      };
      child.stdout!.on('data', collect('stdout'));
      child.stderr!.on('data', collect('stderr'));
      let timedOut = false;
      let done = false;
      const killGroup = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, req.timeoutMs);
      const onAbort = () => killGroup();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (r: Omit<HookProcessResult, 'stdout' | 'stderr'>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        child.stdout!.destroy();
        child.stderr!.destroy();
        resolve({ ...r, stdout: out.stdout, stderr: out.stderr });
      };
      child.on('error', (err) => finish({ exitCode: null, timedOut: false, spawnError: err.message }));
      child.on('close', (code) => finish({ exitCode: timedOut ? null : code, timedOut }));
      // A hook's background child may keep the pipes open after the hook itself exited: do not wait for it.
      child.on('exit', (code) => setTimeout(() => finish({ exitCode: timedOut ? null : code, timedOut }), DRAIN_MS).unref());
      // A hook that does not read its stdin must not fail the write.
      child.stdin!.on('error', () => {});
      child.stdin!.end(req.stdin);
    });
  }
}
