import * as z from 'zod';
import { fileSymbols } from './codeNavigation';
import { ToolError } from './tool';
import { assertNotIgnored, defineTool, displayPath, resolvePath } from './toolSupport';

const MAX_SYMBOLS = 300;
const input = z.object({ path: z.string() });
type Input = z.infer<typeof input>;

export const documentOutlineTool = defineTool<Input>({
  name: 'document_outline',
  description: "A file's symbols with their lines.",
  input,
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'lookup', title: 'Outline of a file', fold: 'run', headline: (i) => ({ verb: `outline of ${i.path}` }) },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path, 'read');
    const st = await ctx.host.fs.stat(r.real);
    if (st?.type !== 'file') throw new ToolError(`${displayPath(ctx, r)} is not a file.`);
    await assertNotIgnored(ctx, r, false);
    const text = await ctx.host.fs.readText(r.real);
    const found = await fileSymbols(ctx, r.real, text);
    const shown = displayPath(ctx, r);
    if (!found) return { content: `No language server answered for ${shown} and no grammar covers it — try search or read_file.` };
    if (found.symbols.length === 0) return { content: `${shown} declares no symbols.` };
    const lines = found.symbols.slice(0, MAX_SYMBOLS).map((s) => `${'  '.repeat(s.depth)}${s.kind} ${s.name}  :${s.line}`);
    if (found.symbols.length > MAX_SYMBOLS) lines.push(`[${found.symbols.length - MAX_SYMBOLS} more not shown]`);
    const note = found.from === 'tree-sitter' ? '\n[from a syntax parse: declarations only]' : '';
    return { content: `${shown}\n${lines.join('\n')}${note}` };
  },
});
