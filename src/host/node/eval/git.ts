/** git as the eval runs it: no pager, no user config's hooks or signing, a fixed identity for its own commits. */
import { spawnSync } from 'node:child_process';

const IDENTITY = ['-c', 'user.name=tandem-eval', '-c', 'user.email=eval@tandem.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', '-c', 'init.defaultBranch=main'];

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export function git(cwd: string, args: readonly string[], input?: string): GitResult {
  const r = spawnSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, input, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' } });
  return { ok: r.status === 0, stdout: r.stdout ?? '', stderr: r.stderr ?? (r.error ? String(r.error) : '') };
}

/** The same, throwing with git's own message on failure. */
export function gitOrThrow(cwd: string, args: readonly string[], input?: string): string {
  const r = git(cwd, args, input);
  if (!r.ok) throw new Error(`git ${args.slice(0, 3).join(' ')} failed in ${cwd}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return r.stdout;
}
