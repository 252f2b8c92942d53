/**
 * The write tools' rules on a workspace-relative path, in one place: the tools (toolSupport.ts's
 * `resolvePath`), the approval policy (approvalPolicy.ts) and a step patch's apply
 * (plans/graph/applyStepPatch.ts) ask here, so a path one of them refuses no other lets through.
 * Segments are compared as case-insensitive file systems (macOS, Windows) see them: `.GIT` and
 * `.git.` are `.git` there.
 */
import { executionSensitiveReason } from './executionSensitivePaths';
import { IGNORE_FILE_NAMES } from './ignorePolicy';

/** A segment as a case-insensitive file system sees it. */
const norm = (seg: string) => seg.toLowerCase().replace(/[. ]+$/, '');

/** True when `rel` (`/`-separated) is `.git` or inside a `.git` folder: git's own files. */
export const isUnderGit = (rel: string): boolean => rel.split('/').some((seg) => norm(seg) === '.git');

/**
 * The ignore files decide what the agent may read (`.env` in `.gitignore`); an edit that re-includes
 * a secret would let the agent grant itself access. So, like files that run code, only a person
 * approving that change can allow it.
 */
export function ignoreFileReason(rel: string): string | undefined {
  const name = rel.split(/[\\/]/).pop()?.toLowerCase().replace(/[. ]+$/, '');
  return name && (IGNORE_FILE_NAMES as readonly string[]).includes(name) ? 'an edit could re-include ignored secrets' : undefined;
}

/**
 * Why blanket approval never covers changing `rel`: it can make code run by itself
 * (executionSensitivePaths.ts), or it decides what the agent may read; undefined when neither.
 */
export function protectedFileReason(rel: string): { why: string; what: string } | undefined {
  const runs = executionSensitiveReason(rel);
  if (runs) return { why: runs, what: 'can make code run by itself' };
  const reads = ignoreFileReason(rel);
  if (reads) return { why: reads, what: 'decides what the agent may read' };
  return undefined;
}
