import * as z from 'zod';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { capLine } from '../text/truncate';
import { ToolError } from './tool';
import { assertNotIgnored, defineTool, displayPath, looksBinary, MAX_READ_BYTES, resolvePath } from './toolSupport';
import { listDirectory } from './listFiles';

export const READ_MAX_LINES = 2000;
export const READ_MAX_LINE_CHARS = 2000;

const input = z.object({
  path: z.string().min(1).describe('Relative to the workspace root'),
  offset: z.number().int().min(1).optional().describe('First line (1-based)'),
  limit: z.number().int().min(1).optional(),
});
type Input = z.infer<typeof input>;

export const readFileTool = defineTool<Input>({
  name: 'read_file',
  description: `Read a text file with numbered lines, at most ${READ_MAX_LINES} per call (offset/limit for more). A folder lists its entries.`,
  input,
  permissions: ['read'],
  readOnly: true,
  display: {
    kind: 'read', title: 'Read file', fold: 'run',
    headline: (i) => ({
      verb: 'Read', path: i.path,
      ...(i.offset !== undefined ? { detail: `lines ${i.offset}${i.limit ? `–${i.offset + i.limit - 1}` : '+'}` } : {}),
      summary: `read ${i.path}${i.offset || i.limit ? `:${i.offset ?? 1}-${i.limit ? (i.offset ?? 1) + i.limit - 1 : ''}` : ''}`,
    }),
  },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path, 'read');
    const st = await ctx.host.fs.stat(r.real);
    if (!st) throw new ToolError(`No such file: ${displayPath(ctx, r)}`);
    const matcher = new IgnoreMatcher(ctx.host.fs);
    if (st.type === 'directory') {
      await assertNotIgnored(ctx, r, true, matcher);
      const listing = await listDirectory(ctx, r, { recursive: false, maxEntries: 500 }, matcher);
      return { content: `${displayPath(ctx, r)} is a folder. Its entries:\n${listing}` };
    }
    await assertNotIgnored(ctx, r, false, matcher);
    if (st.type !== 'file') throw new ToolError(`${displayPath(ctx, r)} is not a regular file.`);
    if (st.size > MAX_READ_BYTES) {
      throw new ToolError(`${displayPath(ctx, r)} is ${(st.size / 1048576).toFixed(1)} MB, too large to read; use search to find the part you need.`);
    }
    const text = await ctx.host.fs.readText(r.real);
    if (looksBinary(text)) return { content: `${displayPath(ctx, r)} looks like a binary file (${st.size} bytes); not shown.` };
    ctx.reads.record(r.real, text);
    return { content: formatLines(text, i.offset ?? 1, i.limit, displayPath(ctx, r)) };
  },
});

/** Numbered lines `N<tab>text`, with the caps applied and a closing note whenever anything was left out. */
export function formatLines(text: string, offset: number, limit: number | undefined, shown: string): string {
  if (text === '') return `${shown} is empty.`;
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  if (offset > total) return `${shown} has ${total} lines; offset ${offset} is past the end.`;
  const want = Math.min(limit ?? READ_MAX_LINES, READ_MAX_LINES);
  const start = offset - 1;
  const end = Math.min(total, start + want);
  const width = String(end).length;
  let cutLines = 0;
  const out: string[] = [];
  for (let n = start; n < end; n++) {
    const { text: t, cut } = capLine(lines[n]!, READ_MAX_LINE_CHARS);
    if (cut) cutLines++;
    out.push(`${String(n + 1).padStart(width)}\t${t}`);
  }
  const notes: string[] = [];
  if (end < total || start > 0) {
    const more = end < total ? ` Use offset=${end + 1} to read on.` : '';
    const capped = limit === undefined || limit > READ_MAX_LINES ? end - start === READ_MAX_LINES && end < total : false;
    notes.push(`[Showing lines ${start + 1}-${end} of ${total}${capped ? ` (capped at ${READ_MAX_LINES} lines per read)` : ''}.${more}]`);
  }
  if (cutLines) notes.push(`[${cutLines} line${cutLines === 1 ? ' was' : 's were'} longer than ${READ_MAX_LINE_CHARS} characters and cut.]`);
  return out.join('\n') + (notes.length ? `\n${notes.join('\n')}` : '');
}
