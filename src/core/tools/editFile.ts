import * as z from 'zod';
import { ToolError } from './tool';
import { applyEditBlocks, type EditOutcome } from './edit/editMatching';
import { editOverUserChange } from './edit/editOverUserChange';
import { applyLazyEditBlocks } from './edit/lazyEditBlocks';
import {
  assertNotIgnored, defineTool, displayPath, lineEnding, looksBinary, MAX_READ_BYTES,
  problemsNote, proposeAndWrite, resolvePath, userEditNote,
} from './toolSupport';

const input = z.object({
  path: z.string().min(1),
  edits: z
    .array(z.object({ old_text: z.string(), new_text: z.string() }))
    .min(1)
    .describe('Applied in order'),
});
type Input = z.infer<typeof input>;

/**
 * The line rules first (editMatching.ts: they place a marker between the very lines written around
 * it, which is what a model that keeps a block's first and last line means); where they cannot
 * tell what a marker in new_text keeps, or which region an old_text with markers means, the file's
 * syntax may (lazyEditBlocks.ts).
 */
async function applyBlocks(file: string, original: string, blocks: Input['edits']): Promise<EditOutcome> {
  const byLines = applyEditBlocks(original, blocks, lineEnding(original), file);
  if (byLines.ok) return byLines;
  const bySyntax = await applyLazyEditBlocks(file, original, blocks, lineEnding(original));
  return bySyntax?.ok || (bySyntax && bySyntax.clearer) ? bySyntax : byLines;
}

export const editFileTool = defineTool<Input>({
  name: 'edit_file',
  description:
    'Change a file by search/replace blocks. Each old_text must match exactly once (copied from read_file without line numbers). If any block fails, nothing is written.',
  input,
  permissions: ['read', 'write'],
  readOnly: false,
  display: { kind: 'edit', title: 'Edit file', headline: (i) => ({ verb: 'Edit', done: 'Edited', path: i.path, summary: `edit ${i.path} (${i.edits.length} block${i.edits.length === 1 ? '' : 's'})` }) },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path, 'write');
    const st = await ctx.host.fs.stat(r.real);
    const shown = displayPath(ctx, r);
    if (!st) throw new ToolError(`No such file: ${shown}. To create a file use write_file.`);
    if (st.type !== 'file') throw new ToolError(`${shown} is not a regular file.`);
    await assertNotIgnored(ctx, r, false);
    if (st.size > MAX_READ_BYTES) throw new ToolError(`${shown} is too large to edit here.`);
    const original = await ctx.host.fs.readText(r.real);
    if (looksBinary(original)) throw new ToolError(`${shown} looks like a binary file; it cannot be edited as text.`);
    // Changed since the agent's read (the user typed meanwhile): the blocks are re-matched against
    // the current text, and go through only where they are apart from the user's change.
    const outcome = ctx.reads.isFresh(r.real, original) === false
      ? { ok: true as const, ...editOverUserChange(shown, ctx.reads.seenText(r.real), original, i.edits, lineEnding(original)) }
      : await applyBlocks(r.rel ?? r.real, original, i.edits);
    if (!outcome.ok) return { content: outcome.error.replace(/^(Block \d+ of \d+|The edit):/, `$1 in ${shown}:`), isError: true };
    if (outcome.text === original) throw new ToolError('The edits leave the file unchanged.');

    const applied = await proposeAndWrite(ctx, { r, kind: 'edit', original, proposed: outcome.text, touched: outcome.trace.touched });
    const lines = [`Edited ${shown}: ${i.edits.length} block${i.edits.length === 1 ? '' : 's'} applied (+${applied.summary.added} -${applied.summary.removed}).`];
    lines.push(...outcome.notes);
    if (applied.userEdited) lines.push(userEditNote(r.rel ?? r.real, outcome.text, applied.written));
    lines.push(...(await problemsNote(shown, applied)));
    return { content: lines.join('\n') };
  },
});
