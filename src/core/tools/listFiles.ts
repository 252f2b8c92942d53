import * as path from 'node:path';
import * as z from 'zod';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import type { ResolvedPath } from '../workspace/workspacePaths';
import { ToolError, type ToolContext } from './tool';
import { assertNotIgnored, defineTool, displayPath, resolvePath } from './toolSupport';
import { walk } from './walk';

const DEFAULT_MAX = 500;
const HARD_MAX = 2000;

const input = z.object({
  path: z.string().default('.'),
  recursive: z.boolean().default(false),
  max_entries: z.number().int().min(1).max(HARD_MAX).optional(),
});
type Input = z.infer<typeof input>;

export const listFilesTool = defineTool<Input>({
  name: 'list_files',
  description: 'List a folder\'s entries (folders end with /), optionally recursive; ignored files left out.',
  input,
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'list', title: 'List folder', fold: 'run', headline: (i) => ({ verb: 'List', done: 'Listed', path: i.path?.trim() ? i.path : '.', summary: `list ${i.path ?? '.'}${i.recursive ? ' (recursive)' : ''}` }) },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path ?? '.', 'read');
    const st = await ctx.host.fs.stat(r.real);
    if (!st) throw new ToolError(`No such folder: ${displayPath(ctx, r)}`);
    if (st.type !== 'directory') throw new ToolError(`${displayPath(ctx, r)} is a file, not a folder; use read_file.`);
    const matcher = new IgnoreMatcher(ctx.host.fs);
    await assertNotIgnored(ctx, r, true, matcher);
    const listing = await listDirectory(ctx, r, { recursive: i.recursive ?? false, maxEntries: i.max_entries ?? DEFAULT_MAX }, matcher);
    return { content: listing };
  },
});

/** Entries below `r`, relative to it; capped with a note saying so. */
export async function listDirectory(
  ctx: ToolContext,
  r: ResolvedPath,
  opts: { recursive: boolean; maxEntries: number },
  matcher: IgnoreMatcher,
): Promise<string> {
  // Outside the workspace (approved) there are no workspace ignore files; walk relative to the folder itself.
  const root = r.inside && r.root ? r.root : r.real;
  const lines: string[] = [];
  let capped = false;
  for await (const e of walk(ctx, root, r.real, { recursive: opts.recursive, matcher, fixedSkips: opts.recursive, showSkippedDirs: true })) {
    if (lines.length >= opts.maxEntries) {
      capped = true;
      break;
    }
    const rel = path.relative(r.real, e.abs).split(path.sep).join('/');
    const suffix = e.type === 'directory' ? '/' : e.type === 'symlink' ? ' (symlink)' : '';
    lines.push(`${rel}${suffix}${e.notEntered ? ' (not expanded)' : ''}`);
  }
  if (lines.length === 0) return '(empty folder)';
  if (capped) lines.push(`[Listing stopped at ${opts.maxEntries} entries; list a subfolder or use find_files to narrow it.]`);
  return lines.join('\n');
}
