/**
 * What the language-server tools share: finding a symbol's position from its name and file (the
 * model rarely knows columns), and showing locations as `path:line  excerpt` — only those inside
 * the workspace and outside the ignore rules (a definition in a library or in `.env` is counted,
 * never shown).
 */
import * as z from 'zod';
import type { CodeLocation, CodePosition, CodeSymbol } from '../ports/codeIntelligence';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { outlineOf } from '../syntax/symbolOutline';
import type { ResolvedPath } from '../workspace/workspacePaths';
import { ToolError, type ToolContext } from './tool';
import { assertNotIgnored, displayPath, resolvePath } from './toolSupport';

/** The arguments that name a symbol in a file (`line` only picks among several occurrences). */
export const symbolAt = {
  path: z.string(),
  symbol: z.string().min(1),
  line: z.number().int().min(1).optional(),
};

/**
 * The schema the model sees for `symbolAt` (plus `extra` strings): written out by hand because it is
 * sent with every request and the generated one (bounds, descriptions) costs twice the tokens.
 */
export function symbolAtSchema(...extra: string[]): Record<string, unknown> {
  const props: Record<string, unknown> = { path: { type: 'string' }, symbol: { type: 'string' }, line: { type: 'integer' } };
  for (const e of extra) props[e] = { type: 'string' };
  return { type: 'object', properties: props, required: ['path', 'symbol', ...extra] };
}

export const MAX_LOCATIONS = 50;
const MAX_EXCERPT = 120;

export const noServer = (what: string) => `No language server answered for ${what} — try search.`;
export const needsEditor = (tool: string) =>
  `${tool} needs the editor's language servers, which this host does not have. Use search for the name instead.`;

export interface LocatedSymbol {
  r: ResolvedPath;
  text: string;
  at: CodePosition;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A file's symbols: the language server's when it answers, else tree-sitter's; undefined when neither can. */
export async function fileSymbols(ctx: ToolContext, abs: string, text: string): Promise<{ symbols: CodeSymbol[]; from: 'server' | 'tree-sitter' } | undefined> {
  const fromServer = await ctx.host.codeIntel?.documentSymbols(abs).catch(() => undefined);
  if (fromServer?.length) return { symbols: fromServer, from: 'server' };
  const parsed = await outlineOf(abs, text);
  return parsed ? { symbols: parsed, from: 'tree-sitter' } : undefined;
}

/**
 * The position of `symbol` in the file: the occurrence nearest `line` when given; else where the
 * file declares it (from its outline); else its first occurrence. Refuses paths outside the
 * workspace (unless approved) and ignored files, like every read.
 */
export async function locateSymbol(ctx: ToolContext, input: { path: string; symbol: string; line?: number | undefined }): Promise<LocatedSymbol> {
  const r = await resolvePath(ctx, input.path, 'read');
  await assertNotIgnored(ctx, r, false);
  const text = await ctx.host.fs.readText(r.real);
  const parts = input.symbol.split(/\.|::|#/).filter(Boolean);
  const name = parts[parts.length - 1] ?? input.symbol;
  const container = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const lines = text.split('\n');
  const word = new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`, 'g');
  const hits: CodePosition[] = [];
  lines.forEach((l, i) => {
    for (const m of l.matchAll(word)) hits.push({ line: i + 1, column: m.index ?? 0 });
  });
  if (hits.length === 0) throw new ToolError(`"${name}" does not occur in ${displayPath(ctx, r)}. Use find_symbol to find the file that declares it.`);
  if (input.line !== undefined) {
    const want = input.line;
    const best = hits.reduce((a, b) => (Math.abs(b.line - want) < Math.abs(a.line - want) ? b : a));
    return { r, text, at: best };
  }
  const outline = await fileSymbols(ctx, r.real, text);
  const declared = outline?.symbols.filter((s) => s.name === name);
  const decl = declared?.find((s) => !container || s.container === container) ?? declared?.[0];
  // The outline's position is trusted only when the name is really there (a server may point at the declaration's start).
  if (decl && hits.some((h) => h.line === decl.line && h.column === decl.column)) return { r, text, at: { line: decl.line, column: decl.column } };
  const onDeclLine = decl && hits.find((h) => h.line === decl.line);
  return { r, text, at: onDeclLine ?? hits[0]! };
}

/**
 * `path:line  excerpt` for each location inside the workspace and not ignored, sorted and capped;
 * the rest are counted. Excerpts are read through the host (unsaved editor text included).
 */
export async function formatLocations(ctx: ToolContext, locations: readonly CodeLocation[], opts: { label?: (loc: CodeLocation) => string | undefined; keepOrder?: boolean } = {}): Promise<{ lines: string[]; hidden: number; shown: number }> {
  const matcher = new IgnoreMatcher(ctx.host.fs);
  const texts = new Map<string, string[] | null>();
  const seen = new Set<string>();
  const out: { rel: string; line: number; excerpt: string }[] = [];
  let hidden = 0;
  for (const loc of locations) {
    const key = `${loc.path}:${loc.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const r = await ctx.paths.resolve(loc.path).catch(() => undefined);
    if (!r?.inside || !r.root || !r.rel || (await matcher.ignores(r.root, r.rel, false))) {
      hidden++;
      continue;
    }
    let lines = texts.get(r.real);
    if (lines === undefined) {
      lines = await ctx.host.fs.readText(r.real).then((t) => t.split('\n'), () => null);
      texts.set(r.real, lines);
    }
    const excerpt = (lines?.[loc.line - 1] ?? '').trim();
    const label = opts.label?.(loc);
    const cut = excerpt.length > MAX_EXCERPT ? `${excerpt.slice(0, MAX_EXCERPT)}…` : excerpt;
    out.push({ rel: r.rel, line: loc.line, excerpt: label ? `[${label}] ${cut}` : cut });
  }
  if (!opts.keepOrder) out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : a.line - b.line));
  const lines = out.slice(0, MAX_LOCATIONS).map((o) => `${o.rel}:${o.line}  ${o.excerpt}`);
  if (out.length > MAX_LOCATIONS) lines.push(`[${out.length - MAX_LOCATIONS} more not shown]`);
  return { lines, hidden, shown: out.length };
}

/** The note for locations left out because they are outside the workspace or ignored. */
export function hiddenNote(hidden: number): string {
  return hidden ? `\n[${hidden} outside the workspace or in ignored files, not shown]` : '';
}
