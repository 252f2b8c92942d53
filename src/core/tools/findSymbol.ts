import * as z from 'zod';
import type { CodeSymbol } from '../ports/codeIntelligence';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { outlineOf } from '../syntax/symbolOutline';
import { grammarFor } from '../syntax/syntaxGuard';
import { formatLocations, hiddenNote } from './codeNavigation';
import type { ToolContext } from './tool';
import { MAX_READ_BYTES, defineTool } from './toolSupport';
import { walk } from './walk';

/** The syntax-parse fallback reads at most this many candidate files (those whose text contains the name). */
const MAX_PARSED_FILES = 400;
const input = z.object({
  name: z.string().min(1),
  kind: z.string().optional(),
});
type Input = z.infer<typeof input>;

/** Declarations whose name contains `name` (any case), from a tree-sitter parse of the files that mention it. */
async function parsedSymbols(ctx: ToolContext, name: string): Promise<CodeSymbol[]> {
  const want = name.toLowerCase();
  const matcher = new IgnoreMatcher(ctx.host.fs);
  const out: CodeSymbol[] = [];
  let parsed = 0;
  for (const root of ctx.paths.roots) {
    for await (const e of walk(ctx, root, root, { recursive: true, matcher, fixedSkips: true })) {
      if (e.type !== 'file' || !grammarFor(e.name)) continue;
      const st = await ctx.host.fs.stat(e.abs);
      if (!st || st.size > MAX_READ_BYTES / 10) continue;
      const text = await ctx.host.fs.readText(e.abs).catch(() => '');
      if (!text.toLowerCase().includes(want)) continue;
      if (++parsed > MAX_PARSED_FILES) return out;
      for (const s of (await outlineOf(e.abs, text)) ?? []) if (s.name.toLowerCase().includes(want)) out.push(s);
    }
  }
  return out;
}

export const findSymbolTool = defineTool<Input>({
  name: 'find_symbol',
  description: 'Declarations of symbols named like name (kind: function, class…).',
  input,
  parameters: { type: 'object', properties: { name: { type: 'string' }, kind: { type: 'string' } }, required: ['name'] },
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'lookup', title: 'Find symbol', fold: 'run', headline: (i) => ({ verb: `symbol ${i.name}${i.kind ? ` (${i.kind})` : ''}` }) },
  async run(i, ctx) {
    let from = 'server';
    let symbols = (await ctx.host.codeIntel?.workspaceSymbols(i.name).catch(() => [])) ?? [];
    if (symbols.length === 0) {
      from = 'tree-sitter';
      symbols = await parsedSymbols(ctx, i.name);
    }
    if (i.kind) symbols = symbols.filter((s) => s.kind === i.kind!.toLowerCase());
    // Exact names first, then the server's (or the walk's) order.
    const exact = (s: CodeSymbol) => (s.name === i.name ? 0 : s.name.toLowerCase() === i.name.toLowerCase() ? 1 : 2);
    symbols = [...symbols].sort((a, b) => exact(a) - exact(b));
    const { lines, hidden } = await formatLocations(ctx, symbols, { keepOrder: true, label: (s) => (s as CodeSymbol).kind });
    if (lines.length === 0) {
      const why = ctx.host.codeIntel ? 'no language server knows it and no parsed file declares it' : 'no parsed file declares it (no editor here)';
      return { content: `No symbol matching "${i.name}"${i.kind ? ` of kind ${i.kind}` : ''}: ${why} — try search.${hiddenNote(hidden)}` };
    }
    const note = from === 'tree-sitter' ? '\n[from a syntax parse: declarations only]' : '';
    return { content: lines.join('\n') + hiddenNote(hidden) + note };
  },
});
