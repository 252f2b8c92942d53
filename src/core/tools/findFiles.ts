import * as path from 'node:path';
import * as z from 'zod';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { ToolError } from './tool';
import { assertNotIgnored, defineTool, displayPath, resolvePath } from './toolSupport';
import { globMatcher } from './glob';
import { walk } from './walk';

const DEFAULT_MAX = 200;
const HARD_MAX = 1000;

const input = z.object({
  pattern: z.string().min(1).describe('e.g. "*.ts" (any depth) or "src/**/*.test.ts"'),
  path: z.string().optional(),
  max_results: z.number().int().min(1).max(HARD_MAX).optional(),
});
type Input = z.infer<typeof input>;

export const findFilesTool = defineTool<Input>({
  name: 'find_files',
  description: 'Find files by glob, skipping ignored files, .git, node_modules, dist, build.',
  input,
  permissions: ['read'],
  readOnly: true,
  display: {
    kind: 'find', title: 'Find files', fold: 'run',
    headline: (i) => ({ verb: 'Find files', done: 'Found files', detail: i.pattern, code: true, ...(i.path?.trim() ? { path: i.path } : {}), summary: `find ${i.pattern}${i.path ? ` in ${i.path}` : ''}` }),
  },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path ?? '.', 'read');
    const st = await ctx.host.fs.stat(r.real);
    if (!st || st.type !== 'directory') throw new ToolError(`${displayPath(ctx, r)} is not a folder.`);
    const matcher = new IgnoreMatcher(ctx.host.fs);
    await assertNotIgnored(ctx, r, true, matcher);
    const matches = globMatcher(i.pattern);
    const max = i.max_results ?? DEFAULT_MAX;
    const root = r.inside && r.root ? r.root : r.real;
    const found: string[] = [];
    let capped = false;
    for await (const e of walk(ctx, root, r.real, { recursive: true, matcher, fixedSkips: true })) {
      if (e.type === 'directory') continue;
      const relToBase = path.relative(r.real, e.abs).split(path.sep).join('/');
      if (!matches(relToBase)) continue;
      if (found.length >= max) {
        capped = true;
        break;
      }
      found.push(r.inside ? e.rel : e.abs);
    }
    if (found.length === 0) return { content: `No files match ${i.pattern}${i.path ? ` in ${i.path}` : ''}.` };
    const note = capped ? `\n[Stopped at ${max} files; use a narrower pattern or folder.]` : '';
    return { content: found.join('\n') + note };
  },
});
