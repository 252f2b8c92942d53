import * as z from 'zod';
import type { Permission } from '../../protocol';
import { ToolError, type ToolContext } from './tool';
import { applyEditBlocks } from './edit/editMatching';
import { looksLikeElisionMarker } from './edit/editMarkers';
import { reconstructLazyText } from './edit/lazyReconstruction';
import { assertFresh, defineTool, displayPath, lineEnding, problemsNote, proposeAndWrite, resolvePath, userEditNote } from './toolSupport';

const input = z.object({
  path: z.string().min(1),
  content: z.string(),
});
type Input = z.infer<typeof input>;

async function exists(i: Input, ctx: ToolContext): Promise<boolean> {
  const r = await ctx.paths.resolve(i.path);
  return (await ctx.host.fs.stat(r.real)) !== undefined;
}

/** A line that is an elision marker: its wording, and not a line the original has (that one is code). */
function newMarkerTest(original: string): (line: string) => boolean {
  const had = new Set(original.split('\n').map((l) => l.trim()));
  return (l) => looksLikeElisionMarker(l) && !had.has(l.trim());
}

const SEND_WHOLE = 'send the complete file, or change it with edit_file (a marker is never written into a file).';

export const writeFileTool = defineTool<Input>({
  name: 'write_file',
  description: 'Write a whole file: new files or complete rewrites (read an existing file first). Prefer edit_file for changes.',
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
  display: { kind: 'edit', title: 'Write file', headline: (i) => ({ verb: 'Write', done: 'Wrote', path: i.path, summary: `write ${i.path}` }) },
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
    // A rewrite that says "# ... existing code ..." for parts it keeps is a lazy edit of the whole
    // file: the markers keep the file's lines, they are never written.
    let proposed = i.content;
    const notes: string[] = [];
    const isMarker = original !== undefined ? newMarkerTest(original) : undefined;
    if (original !== undefined && isMarker && i.content.split('\n').some(isMarker)) {
      // Read by the syntax trees (lazyReconstruction.ts), which place a marker only where one
      // reading is clear; by the lines written around each marker (editMatching.ts) only where no
      // grammar reads the file (where the trees see no clear reading, the lines' may be a wrong one).
      const bySyntax = await reconstructLazyText(r.rel ?? r.real, original, i.content, isMarker);
      const byLines = bySyntax ? undefined : applyEditBlocks(original, [{ old_text: original, new_text: i.content }], lineEnding(original));
      if (bySyntax?.ok) {
        proposed = bySyntax.text;
        notes.push(`The elision markers kept ${bySyntax.kept} existing line${bySyntax.kept === 1 ? '' : 's'} of ${shown} (placed by its syntax); check the result.`);
      } else if (byLines?.ok) {
        proposed = byLines.text;
        notes.push(...byLines.notes.map((n) => n.replace(/^The edit: /, '')));
      } else if (bySyntax) {
        throw new ToolError(`The content's elision markers could not be placed: ${bySyntax.reason}. Nothing was changed; ${SEND_WHOLE}`);
      } else if (byLines && !byLines.ok) {
        throw new ToolError(
          `${byLines.error.replace(/^The edit: /, '').replace(/\nNothing was changed\.$/, '')}\n` +
            `(content has elision markers such as "# ... existing code ..." that are not lines of ${shown}; a marker is never written into a file.) Nothing was changed.`,
        );
      }
    }
    const applied = await proposeAndWrite(ctx, { r, kind: original === undefined ? 'create' : 'edit', original, proposed });
    const verb = original === undefined ? 'Created' : 'Rewrote';
    const lines = [`${verb} ${shown} (+${applied.summary.added} -${applied.summary.removed}).`];
    lines.push(...notes);
    if (applied.userEdited) lines.push(userEditNote(r.rel ?? r.real, proposed, applied.written));
    lines.push(...(await problemsNote(shown, applied)));
    return { content: lines.join('\n') };
  },
});
