import * as z from 'zod';
import type { ApprovalInfo } from '../../protocol';
import { rejectionText } from '../text/rejectionText';
import { ToolError } from './tool';
import { aliasesOf, assertFresh, assertStillAsApproved, defineTool, displayPath, looksBinary, MAX_READ_BYTES, resolvePath, summarizeDiff } from './toolSupport';

const input = z.object({ path: z.string().min(1) });
type Input = z.infer<typeof input>;

export const deleteFileTool = defineTool<Input>({
  name: 'delete_file',
  description: 'Delete one file (not a folder), with approval; a checkpoint keeps its contents.',
  input,
  permissions: ['delete'],
  readOnly: false,
  display: { kind: 'delete', title: 'Delete file', headline: (i) => ({ verb: 'Delete', done: 'Deleted', path: i.path, summary: `delete ${i.path}` }) },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path, 'write');
    const shown = displayPath(ctx, r);
    const st = await ctx.host.fs.stat(r.real);
    if (!st) throw new ToolError(`No such file: ${shown}.`);
    if (st.type === 'directory') throw new ToolError(`${shown} is a folder; delete_file deletes files only.`);
    const label = r.rel ?? r.real;
    const info: ApprovalInfo = { kind: 'delete', path: label, ...aliasesOf(r) };
    if (!r.inside) info.real_path = r.real;
    let original: string | undefined;
    if (st.type === 'file' && st.size <= MAX_READ_BYTES) {
      original = await ctx.host.fs.readText(r.real);
      // Like an overwrite: deleting a file that changed since the agent read it would drop a change it never saw.
      assertFresh(ctx, r, original, false);
      if (!looksBinary(original)) {
        const d = summarizeDiff(label, original, undefined);
        Object.assign(info, { diff: d.diff, added: 0, removed: d.removed });
      }
    }
    const decision = await ctx.approve({ info, originalText: original });
    if (!decision.approved) {
      return { content: rejectionText(decision, `deleting ${shown}`, 'Nothing was changed.'), isError: true };
    }
    ctx.signal.throwIfAborted();
    // Only the path is re-checked when the contents were never read (binary or too large).
    await assertStillAsApproved(ctx, r, original, original !== undefined);
    await ctx.beforeChange?.(r.real);
    await ctx.host.fs.delete(r.real);
    ctx.reads.forget(r.real);
    return { content: `Deleted ${shown}.` };
  },
});
