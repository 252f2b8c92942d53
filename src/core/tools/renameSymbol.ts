/**
 * Renames a symbol everywhere through the language server: every file the rename touches is shown
 * in ONE approval (each file's diff), then written as one edit (one Undo in the editor), with a
 * checkpoint of every file first (the card's Revert takes them all back). A rename that would touch
 * a file outside the workspace, an ignored file or git's own files is refused whole.
 */
import * as z from 'zod';
import type { ApprovalInfo } from '../../protocol';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { rejectionText } from '../text/rejectionText';
import type { ResolvedPath } from '../workspace/workspacePaths';
import { locateSymbol, needsEditor, symbolAt, symbolAtSchema } from './codeNavigation';
import { ToolError } from './tool';
import { assertFresh, assertStillAsApproved, defineTool, resolvePath, summarizeDiff } from './toolSupport';

const input = z.object({ ...symbolAt, new_name: z.string().min(1).max(200) });
type Input = z.infer<typeof input>;

interface FileChange {
  r: ResolvedPath;
  label: string;
  original: string;
  proposed: string;
  added: number;
  removed: number;
  diff: string;
}

export const renameSymbolTool = defineTool<Input>({
  name: 'rename_symbol',
  description: 'Rename a symbol in every file that uses it (one approval).',
  input,
  parameters: symbolAtSchema('new_name'),
  permissions: ['read', 'write'],
  readOnly: false,
  display: { kind: 'edit', title: 'Rename symbol', headline: (i) => ({ verb: `rename ${i.symbol} → ${i.new_name} (${i.path})` }) },
  async run(i, ctx) {
    const intel = ctx.host.codeIntel;
    if (!intel) return { content: needsEditor('rename_symbol'), isError: true };
    const { r, at } = await locateSymbol(ctx, i);
    let rewrites;
    try {
      rewrites = await intel.rename(r.real, at, i.new_name);
    } catch (e) {
      throw new ToolError(`The language server did not rename ${i.symbol}: ${(e as Error).message || 'no answer'}. Nothing was changed.`);
    }
    if (rewrites.length === 0) throw new ToolError(`The rename of ${i.symbol} changes nothing (no language server answered, or the name is already ${i.new_name}). Nothing was changed.`);

    const matcher = new IgnoreMatcher(ctx.host.fs);
    const changes: FileChange[] = [];
    for (const w of rewrites) {
      const fr = await resolvePath(ctx, w.path, 'write');
      if (!fr.inside || !fr.root || !fr.rel) throw new ToolError(`Refused: the rename would change ${fr.real}, outside the workspace. Nothing was changed.`);
      for (const name of fr.spellings) {
        if (await matcher.ignores(fr.root, name, false)) throw new ToolError(`Refused: the rename would change ${name}, which the ignore rules exclude. Nothing was changed.`);
      }
      const original = await ctx.host.fs.readText(fr.real);
      assertFresh(ctx, fr, original, false);
      if (original === w.text) continue;
      const s = summarizeDiff(fr.rel, original, w.text);
      changes.push({ r: fr, label: fr.rel, original, proposed: w.text, ...s });
    }
    if (changes.length === 0) throw new ToolError(`The rename of ${i.symbol} changes nothing. Nothing was changed.`);

    const info: ApprovalInfo = {
      kind: 'edit',
      path: changes[0]!.label,
      files: changes.map((c) => ({ path: c.label, added: c.added, removed: c.removed })),
      diff: changes.map((c) => c.diff).join('\n'),
      added: changes.reduce((n, c) => n + c.added, 0),
      removed: changes.reduce((n, c) => n + c.removed, 0),
      reason: `rename ${i.symbol} → ${i.new_name} in ${changes.length} file${changes.length === 1 ? '' : 's'}`,
    };
    const files = changes.map((c) => ({ absPath: c.r.real, originalText: c.original, proposedText: c.proposed }));
    const decision = await ctx.approve({ info, files });
    if (!decision.approved) throw new ToolError(rejectionText(decision, `the rename of ${i.symbol}`, 'Nothing was changed.'));

    ctx.signal.throwIfAborted();
    // Every file exactly as shown, or none written.
    for (const c of changes) await assertStillAsApproved(ctx, c.r, c.original);
    for (const c of changes) await ctx.beforeChange?.(c.r.real);
    if (ctx.host.fs.writeTexts) await ctx.host.fs.writeTexts(changes.map((c) => ({ absPath: c.r.real, content: c.proposed })));
    else for (const c of changes) await ctx.host.fs.writeText(c.r.real, c.proposed);
    for (const c of changes) ctx.reads.record(c.r.real, c.proposed);
    const list = changes.map((c) => `${c.label} (+${c.added} −${c.removed})`).join(', ');
    return { content: `Renamed ${i.symbol} to ${i.new_name} in ${changes.length} file${changes.length === 1 ? '' : 's'}: ${list}.` };
  },
});
