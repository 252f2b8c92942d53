import * as z from 'zod';
import { defineTool, displayPath, resolvePath } from './toolSupport';

const MAX_SHOWN = 200;
const input = z.object({ path: z.string().optional() });
type Input = z.infer<typeof input>;

export const diagnosticsTool = defineTool<Input>({
  name: 'diagnostics',
  description: "The editor's errors and warnings for path, or the whole workspace.",
  input,
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'lookup', title: 'Problems', fold: 'run', headline: (i) => ({ verb: `diagnostics${i.path ? ` for ${i.path}` : ''}` }) },
  async run(i, ctx) {
    const provider = ctx.host.diagnostics;
    if (!provider) {
      return { content: 'Diagnostics are unavailable here (no editor language services in this host). Run the project\'s type checker or linter instead, if you can.' };
    }
    const r = i.path ? await resolvePath(ctx, i.path, 'read') : undefined;
    const all = await provider.get(r?.real);
    if (all.length === 0) return { content: `No problems reported${r ? ` for ${displayPath(ctx, r)}` : ''}.` };
    const rank = { error: 0, warning: 1, info: 2, hint: 3 } as const;
    const sorted = [...all].sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
    const root = ctx.paths.roots[0] ?? '';
    const rel = (p: string) => (root && p.startsWith(root + '/') ? p.slice(root.length + 1) : p);
    const lines = sorted.slice(0, MAX_SHOWN).map((d) => `${rel(d.path)}:${d.line} ${d.severity}: ${d.message}${d.source ? ` [${d.source}]` : ''}`);
    if (sorted.length > MAX_SHOWN) lines.push(`[${sorted.length - MAX_SHOWN} more not shown]`);
    return { content: lines.join('\n') };
  },
});
