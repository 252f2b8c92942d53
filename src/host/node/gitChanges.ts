/**
 * `@git`: the working tree's unstaged and staged changes, from git itself (run directly, no shell,
 * with a timeout and a size cap). Undefined when the folder is not a git repository or git is missing.
 */
import { execFile } from 'node:child_process';

const MAX_BYTES = 4 * 1024 * 1024;

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['--no-pager', '-c', 'core.quotepath=off', '-c', 'core.fsmonitor=false', ...args], { cwd, timeout: 10_000, maxBuffer: MAX_BYTES, windowsHide: true }, (err, stdout) => {
      resolve(err ? undefined : stdout);
    });
  });
}

export async function gitChanges(root: string): Promise<string | undefined> {
  // --no-ext-diff / --no-textconv / core.fsmonitor=false: a repository's config must not make git run programs of its choosing.
  const flags = ['--no-ext-diff', '--no-textconv', '--no-color'];
  const [unstaged, staged] = await Promise.all([git(root, ['diff', ...flags]), git(root, ['diff', '--staged', ...flags])]);
  if (unstaged === undefined || staged === undefined) return undefined;
  const parts: string[] = [];
  if (staged.trim()) parts.push(`# Staged\n${staged.trimEnd()}`);
  if (unstaged.trim()) parts.push(`# Not staged\n${unstaged.trimEnd()}`);
  return parts.join('\n\n');
}
