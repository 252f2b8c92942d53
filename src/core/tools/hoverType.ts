import * as z from 'zod';
import { locateSymbol, needsEditor, noServer, symbolAt, symbolAtSchema } from './codeNavigation';
import { defineTool } from './toolSupport';

const MAX_CHARS = 2000;
const input = z.object(symbolAt);
type Input = z.infer<typeof input>;

export const hoverTypeTool = defineTool<Input>({
  name: 'hover_type',
  description: "A symbol's type or signature (the editor's hover).",
  input,
  parameters: symbolAtSchema(),
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'lookup', title: 'Type of a symbol', fold: 'run', headline: (i) => ({ verb: `type of ${i.symbol} in ${i.path}` }) },
  async run(i, ctx) {
    const intel = ctx.host.codeIntel;
    if (!intel) return { content: needsEditor('hover_type') };
    const { r, at } = await locateSymbol(ctx, i);
    const texts = (await intel.hover(r.real, at)).map((t) => t.trim()).filter(Boolean);
    if (texts.length === 0) return { content: noServer(`${i.symbol} in ${i.path}`) };
    const all = texts.join('\n\n');
    return { content: all.length > MAX_CHARS ? `${all.slice(0, MAX_CHARS)}\n[… cut at ${MAX_CHARS} characters]` : all };
  },
});
