/**
 * Real git repositories for tests: `gitIn` runs git with a test identity (a fresh machine has none
 * configured), `commitFiles` makes a folder a repository whose one commit holds the given files.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const gitIn = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

/** `ws` made a git repository whose one commit holds `files` (path → text; folders made as needed); returns `ws`. */
export function commitFiles(ws: string, files: Record<string, string>): string {
  gitIn(ws, 'init', '-q');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  gitIn(ws, 'add', '-A');
  gitIn(ws, 'commit', '-qm', 'init');
  return ws;
}
