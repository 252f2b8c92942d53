import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { WorkspaceFs } from '../ports/ports';

/** How much of a step's diff the Reviewer is shown (head of each file's patch, then a note). */
const DIFF_CHARS = 12_000;

/**
 * What one plan step changed, as unified diffs (workspace-relative names): each changed file's text
 * before the step first touched it against its text now. For the Reviewer's step review.
 */
export async function stepDiff(fs: WorkspaceFs, root: string, before: ReadonlyMap<string, string | null>, changed: Iterable<string> = []): Promise<string> {
  const parts: string[] = [];
  // Files a command changed have no kept text from before: named, so the diff is not silent about them.
  const byCommand = [...changed].filter((abs) => !before.has(abs)).map((abs) => path.relative(root, abs).split(path.sep).join('/')).sort();
  if (byCommand.length) parts.push(`# Changed by the step's commands (text before not kept): ${byCommand.join(', ')}`);
  for (const [abs, old] of [...before].sort(([a], [b]) => a.localeCompare(b))) {
    const now = await fs.readText(abs).catch(() => null);
    if (now === old) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    parts.push(createTwoFilesPatch(old === null ? '/dev/null' : `a/${rel}`, now === null ? '/dev/null' : `b/${rel}`, old ?? '', now ?? '', '', '', { context: 3 }));
  }
  return capped(parts);
}

/** The same for a step that worked in a worktree: its changed files' texts before and after (null: absent). */
export function changesDiff(changes: readonly { path: string; before: string | null; after: string | null }[]): string {
  return capped(changes.map((c) => createTwoFilesPatch(c.before === null ? '/dev/null' : `a/${c.path}`, c.after === null ? '/dev/null' : `b/${c.path}`, c.before ?? '', c.after ?? '', '', '', { context: 3 })));
}

function capped(parts: readonly string[]): string {
  const all = parts.join('\n');
  return all.length > DIFF_CHARS ? `${all.slice(0, DIFF_CHARS)}\n… (${all.length - DIFF_CHARS} more characters of diff not shown)` : all;
}
