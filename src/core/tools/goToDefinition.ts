import * as z from 'zod';
import { formatLocations, hiddenNote, locateSymbol, needsEditor, noServer, symbolAt, symbolAtSchema } from './codeNavigation';
import { defineTool } from './toolSupport';

const input = z.object(symbolAt);
type Input = z.infer<typeof input>;

export const goToDefinitionTool = defineTool<Input>({
  name: 'go_to_definition',
  description: 'Where a symbol used in a file is defined.',
  input,
  parameters: symbolAtSchema(),
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'lookup', title: 'Go to definition', fold: 'run', headline: (i) => ({ verb: `definition of ${i.symbol} in ${i.path}` }) },
  async run(i, ctx) {
    const intel = ctx.host.codeIntel;
    if (!intel) return { content: needsEditor('go_to_definition') };
    const { r, at } = await locateSymbol(ctx, i);
    const found = await intel.definitions(r.real, at);
    if (found.length === 0) return { content: noServer(`${i.symbol} in ${i.path}`) };
    const { lines, hidden } = await formatLocations(ctx, found);
    if (lines.length === 0) return { content: `${i.symbol} is defined outside the workspace (a library) or in ignored files; not shown.` };
    return { content: lines.join('\n') + hiddenNote(hidden) };
  },
});
