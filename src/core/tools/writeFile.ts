import { z } from 'zod';
import type { Permission } from '../../protocol';
import { ToolError, type ToolContext } from './tool';
import { assertFresh, defineTool, displayPath, proposeAndWrite, resolvePath, userEditNote } from './toolSupport';

const input = z.object({
  path: z.string().min(1),
  content: z.string().describe('The whole new file contents'),
});
type Input = z.infer<typeof input>;

async function exists(i: Input, ctx: ToolContext): Promise<boolean> {
  const r = await ctx.paths.resolve(i.path);
  return (await ctx.host.fs.stat(r.real)) !== undefined;
}

export const writeFileTool = defineTool<Input>({
  name: 'write_file',
  description: 'Write a whole file: for new files or complete rewrites (an existing file must have been read first). Prefer edit_file for changes.',
  input,
  // Static: what a role needs to be offered the tool at all; per call it is `create` or `write`.
  permissions: ['create'],
  async permissionsFor(i, ctx): Promise<readonly Permission[]> {
    try {
      return (await exists(i, ctx)) ? ['write'] : ['create'];
    } catch {
      return ['create'];
    }
  },
  readOnly: false,
  summarize: (i) => `write ${i.path}`,
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path, 'write');
    const shown = displayPath(ctx, r);
    const st = await ctx.host.fs.stat(r.real);
    let original: string | undefined;
    if (st) {
      if (st.type !== 'file') throw new ToolError(`${shown} exists and is not a regular file.`);
      original = await ctx.host.fs.readText(r.real);
      assertFresh(ctx, r, original, true);
      if (original === i.content) return { content: `${shown} already has exactly this content; nothing to do.` };
    }
    const applied = await proposeAndWrite(ctx, { r, kind: original === undefined ? 'create' : 'edit', original, proposed: i.content });
    const verb = original === undefined ? 'Created' : 'Rewrote';
    const lines = [`${verb} ${shown} (+${applied.summary.added} -${applied.summary.removed}).`];
    if (applied.userEdited) lines.push(userEditNote(r.rel ?? r.real, i.content, applied.written));
    return { content: lines.join('\n') };
  },
});
