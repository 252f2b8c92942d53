import * as z from 'zod';
import { formatLocations, hiddenNote, locateSymbol, needsEditor, noServer, symbolAt, symbolAtSchema } from './codeNavigation';
import { defineTool } from './toolSupport';

const input = z.object(symbolAt);
type Input = z.infer<typeof input>;

export const findReferencesTool = defineTool<Input>({
  name: 'find_references',
  description: 'Every use of a symbol in the workspace.',
  input,
  parameters: symbolAtSchema(),
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'lookup', title: 'Find references', fold: 'run', headline: (i) => ({ verb: `references to ${i.symbol} (${i.path})` }) },
  async run(i, ctx) {
    const intel = ctx.host.codeIntel;
    if (!intel) return { content: needsEditor('find_references') };
    const { r, at } = await locateSymbol(ctx, i);
    const found = await intel.references(r.real, at);
    if (found.length === 0) return { content: noServer(`${i.symbol} in ${i.path}`) };
    const { lines, hidden, shown } = await formatLocations(ctx, found);
    const head = `${shown} reference${shown === 1 ? '' : 's'} to ${i.symbol}:`;
    return { content: [head, ...lines].join('\n') + hiddenNote(hidden) };
  },
});
