import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { WorkspaceFs } from '../ports/ports';
import type { StepPatchEntry } from '../ports/stepWorkspaces';

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

/**
 * The same for a step that worked in a workspace of its own, from its patch: each path's text in the
 * workspace (what the step started from, read before the patch is applied) against the step's.
 * A binary file or a link is named, not shown.
 */
export async function patchDiff(entries: readonly StepPatchEntry[], workspaceText: (rel: string) => Promise<string | null>): Promise<string> {
  const parts: string[] = [];
  for (const e of entries) {
    if (e.kind === 'symlink') { parts.push(`# ${e.path}: a link to ${e.target}`); continue; }
    const after = e.kind === 'file' ? Buffer.from(e.bytes) : null;
    if (e.kind === 'file' && after?.includes(0)) { parts.push(`# ${e.path}: binary (${after.length} bytes, mode ${e.mode.toString(8)})`); continue; }
    const before = e.before === null ? null : await workspaceText(e.path);
    const text = after?.toString('utf8') ?? null;
    parts.push(createTwoFilesPatch(before === null ? '/dev/null' : `a/${e.path}`, text === null ? '/dev/null' : `b/${e.path}`, before ?? '', text ?? '', '', '', { context: 3 }));
  }
  return capped(parts);
}

function capped(parts: readonly string[]): string {
  const all = parts.join('\n');
  return all.length > DIFF_CHARS ? `${all.slice(0, DIFF_CHARS)}\n… (${all.length - DIFF_CHARS} more characters of diff not shown)` : all;
}
