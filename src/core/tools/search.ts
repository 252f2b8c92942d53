/**
 * Regex search over file contents: ripgrep when the host knows one (VS Code's bundled rg, or rg on
 * PATH), else a pure-JS walk. Both apply the same rules — the ignore policy, the fixed skips
 * (.git, node_modules, dist, build, lock files, minified files), no symlink following, no binary
 * or huge files — and both results are sorted by path and line, so they print the same.
 * The JS walk matches in a worker thread under a time limit (regexWorker.ts): the JS engine has no
 * backtracking limit, and a model's regex must never be able to block the event loop.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as z from 'zod';
import { IgnoreMatcher, RG_SKIP_GLOBS } from '../policy/ignorePolicy';
import type { ResolvedPath } from '../workspace/workspacePaths';
import { ToolError, type ToolContext } from './tool';
import { assertNotIgnored, defineTool, displayPath, looksBinary, resolvePath } from './toolSupport';
import { globMatcher } from './glob';
import { walk } from './walk';
import { DEFAULT_MATCH_TIME_LIMIT_MS, RegexWorker, RegexWorkerError } from './regexWorker';

const DEFAULT_MAX = 100;
const HARD_MAX = 500;
/** Matches collected before sorting; past this the search stops early and says so. */
export const COLLECT_LIMIT = 5000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_LINE_SHOWN = 300;
/** Files read concurrently by the JS search. */
const JS_READERS = 16;

const input = z.object({
  pattern: z.string().min(1),
  path: z.string().optional().describe('File or folder'),
  include: z.string().optional().describe('File name glob'),
  ignore_case: z.boolean().optional(),
  max_results: z.number().int().min(1).max(HARD_MAX).optional(),
});
type Input = z.infer<typeof input>;

export interface SearchMatch {
  /** Workspace-relative when inside, else absolute. */
  file: string;
  line: number;
  text: string;
}

export interface SearchOutcome {
  matches: SearchMatch[];
  /** True when COLLECT_LIMIT was hit and the walk stopped early. */
  stoppedEarly: boolean;
  engine: 'ripgrep' | 'js';
  note?: string;
}

export interface SearchQuery {
  regex: string;
  ignoreCase: boolean;
  include?: string;
  /** The JS engine's time limit without progress (default DEFAULT_MATCH_TIME_LIMIT_MS); ripgrep has its own bounds. */
  matchTimeLimitMs?: number;
}

export const searchTool = defineTool<Input>({
  name: 'search',
  description: 'Regex (ripgrep) search in file contents, skipping ignored files, .git, node_modules, dist, build, lock and minified files.',
  input,
  permissions: ['read'],
  readOnly: true,
  display: {
    kind: 'find', title: 'Search file contents', fold: 'run',
    headline: (i) => ({
      verb: 'Search for', done: 'Searched for', detail: i.pattern, code: true, ...(i.path?.trim() ? { path: i.path } : {}),
      summary: `search /${i.pattern}/${i.path ? ` in ${i.path}` : ''}${i.include ? ` (${i.include})` : ''}`,
    }),
  },
  async run(i, ctx) {
    const r = await resolvePath(ctx, i.path ?? '.', 'read');
    const st = await ctx.host.fs.stat(r.real);
    if (!st) throw new ToolError(`No such file or folder: ${displayPath(ctx, r)}`);
    const matcher = new IgnoreMatcher(ctx.host.fs);
    await assertNotIgnored(ctx, r, st.type === 'directory', matcher);
    const q: SearchQuery = { regex: i.pattern, ignoreCase: i.ignore_case ?? false, include: i.include };
    const outcome = await runSearch(ctx, r, q, matcher);
    return { content: formatOutcome(outcome, i.max_results ?? DEFAULT_MAX, i.pattern) };
  },
});

export async function runSearch(ctx: ToolContext, r: ResolvedPath, q: SearchQuery, matcher: IgnoreMatcher): Promise<SearchOutcome> {
  const rg = ctx.host.ripgrepPath;
  if (rg) {
    const res = await searchWithRipgrep(ctx, rg, r, q, matcher);
    if (res !== 'regex-unsupported') return res;
    // rg's default engine has no look-around or back-references. Its PCRE2 engine has both and,
    // unlike the JS engine, a backtracking limit: a model's `^(a+)+\1$` then fails as an error
    // instead of blocking the event loop (and with it Stop, timeouts and the editor's extension host).
    const pcre = await searchWithRipgrep(ctx, rg, r, q, matcher, { pcre2: true });
    if (pcre !== 'regex-unsupported') return pcre;
    // rg's regex engine has no look-around or back-references; JS has both.
    const js = await searchWithJs(ctx, r, q, matcher);
    return { ...js, note: 'ripgrep could not parse this regex, so the built-in search was used.' };
  }
  return searchWithJs(ctx, r, q, matcher);
}

function compile(q: SearchQuery): RegExp {
  try {
    return new RegExp(q.regex, q.ignoreCase ? 'i' : '');
  } catch (e) {
    throw new ToolError(`Invalid regular expression: ${(e as Error).message}`);
  }
}

/** Matches are kept by the thousand; a match on a megabyte-long line must not keep the megabyte. */
const keepLine = (line: string) => (line.length > MAX_LINE_SHOWN * 2 ? line.slice(0, MAX_LINE_SHOWN * 2) : line);

const byPathLine = (a: SearchMatch, b: SearchMatch) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);

function fileLabel(r: ResolvedPath, abs: string): string {
  if (r.inside && r.root) return path.relative(r.root, abs).split(path.sep).join('/');
  return abs;
}

export async function searchWithJs(ctx: ToolContext, r: ResolvedPath, q: SearchQuery, matcher: IgnoreMatcher): Promise<SearchOutcome> {
  const re = compile(q); // syntax errors are reported here; matching runs in the worker
  const include = q.include ? globMatcher(q.include) : undefined;
  const matches: SearchMatch[] = [];
  let stoppedEarly = false;
  /** The first error a reader hit (a runaway pattern, a Stop): every reader and the walk stop on it. */
  let failure: { error: unknown } | undefined;
  const st = await ctx.host.fs.stat(r.real);
  const regexWorker = new RegexWorker(
    { source: re.source, flags: re.flags },
    { keepChars: MAX_LINE_SHOWN * 2, timeLimitMs: q.matchTimeLimitMs ?? DEFAULT_MATCH_TIME_LIMIT_MS },
    ctx.signal,
  );

  const scanFile = async (abs: string, relToBase: string): Promise<boolean> => {
    if (include && !include(relToBase)) return true;
    let text: string;
    try {
      const s = await ctx.host.fs.stat(abs);
      if (!s || s.type !== 'file' || s.size > MAX_FILE_BYTES) return true;
      text = await ctx.host.fs.readText(abs);
    } catch {
      return true; // unreadable (permissions, vanished): skipped, as rg does
    }
    if (looksBinary(text)) return true;
    if (stoppedEarly || failure) return false;
    const label = fileLabel(r, abs);
    const hits = await regexWorker.scan(text, COLLECT_LIMIT - matches.length, label);
    for (const h of hits) {
      if (stoppedEarly) return false;
      matches.push({ file: label, line: h.line, text: h.text });
      if (matches.length >= COLLECT_LIMIT) return false;
    }
    return true;
  };

  try {
    if (st?.type === 'file') {
      await scanFile(r.real, path.basename(r.real));
    } else {
      // The walk lists files while a pool of readers scans them: file I/O latency, not CPU, is what a
      // search over thousands of files waits on, so several reads are kept in flight.
      const root = r.inside && r.root ? r.root : r.real;
      const queue: { abs: string; relToBase: string }[] = [];
      let walking = true;
      const waiting: (() => void)[] = [];
      const wakeOne = () => waiting.shift()?.();
      const next = async (): Promise<{ abs: string; relToBase: string } | undefined> => {
        while (!queue.length && walking) await new Promise<void>((res) => waiting.push(res));
        return queue.shift();
      };
      const reader = async () => {
        try {
          for (let job = await next(); job && !stoppedEarly && !failure && !ctx.signal.aborted; job = await next()) {
            if (!(await scanFile(job.abs, job.relToBase))) stoppedEarly = true;
          }
        } catch (e) {
          failure ??= { error: e };
        }
      };
      const readers = Array.from({ length: JS_READERS }, reader);
      try {
        for await (const e of walk(ctx, root, r.real, { recursive: true, matcher, fixedSkips: true })) {
          if (stoppedEarly || failure) break;
          if (e.type !== 'file') continue;
          queue.push({ abs: e.abs, relToBase: path.relative(r.real, e.abs).split(path.sep).join('/') });
          wakeOne();
          // Keep the walk from running far ahead of the readers.
          while (queue.length > 256 && !stoppedEarly && !failure) await new Promise((res) => setImmediate(res));
        }
      } finally {
        walking = false;
        while (waiting.length) wakeOne();
        await Promise.all(readers);
      }
    }
  } catch (e) {
    failure ??= { error: e };
  } finally {
    regexWorker.close();
  }
  ctx.signal.throwIfAborted();
  if (failure) {
    if (failure.error instanceof RegexWorkerError) throw new ToolError(failure.error.message);
    throw failure.error;
  }
  matches.sort(byPathLine);
  if (matches.length > COLLECT_LIMIT) matches.length = COLLECT_LIMIT;
  return { matches, stoppedEarly, engine: 'js' };
}

export async function searchWithRipgrep(
  ctx: ToolContext,
  rgPath: string,
  r: ResolvedPath,
  q: SearchQuery,
  matcher: IgnoreMatcher,
  opts: { pcre2?: boolean } = {},
): Promise<SearchOutcome | 'regex-unsupported'> {
  const st = await ctx.host.fs.stat(r.real);
  const isFile = st?.type === 'file';
  // Run from the search folder so include globs with a `/` mean the same as in the JS walk.
  const cwd = isFile ? path.dirname(r.real) : r.real;
  const target = isFile ? path.basename(r.real) : '.';
  const args = [
    '--json', '--no-config', '--hidden', '--no-require-git', '--crlf',
    '--no-ignore-dot', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-exclude',
    '--max-filesize', String(MAX_FILE_BYTES),
    q.ignoreCase ? '-i' : '-s',
  ];
  if (opts.pcre2) args.push('--pcre2');
  // Later globs win in rg: the include first, so the skips (e.g. `!*.min.js`) override it.
  if (q.include) args.push('-g', q.include);
  for (const g of RG_SKIP_GLOBS) args.push('-g', g);
  if (r.inside && r.root && !isFile && r.real === r.root) {
    const tandemIgnore = path.join(r.root, '.tandemignore');
    if (await ctx.host.fs.stat(tandemIgnore)) args.push('--ignore-file', tandemIgnore);
  }
  args.push('-e', q.regex, '--', target);

  const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const onAbort = () => child.kill('SIGKILL');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const raw: SearchMatch[] = [];
  let stoppedEarly = false;
  let stderr = '';
  let pending = '';
  const handleLine = (line: string) => {
    if (!line.startsWith('{"type":"match"')) return;
    const msg = JSON.parse(line) as { data: { path: { text?: string }; lines: { text?: string }; line_number: number } };
    const p = msg.data.path.text;
    const t = msg.data.lines.text;
    if (p === undefined || t === undefined) return; // not valid UTF-8; the JS side cannot show it either
    const abs = path.resolve(cwd, p);
    raw.push({ file: fileLabel(r, abs), line: msg.data.line_number, text: keepLine(t.replace(/\r?\n$/, '')) });
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (stoppedEarly) return;
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      handleLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (raw.length >= COLLECT_LIMIT) {
        stoppedEarly = true;
        child.kill('SIGKILL');
        return;
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => {
    if (stderr.length < 4000) stderr += c;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).finally(() => ctx.signal.removeEventListener('abort', onAbort));
  ctx.signal.throwIfAborted();
  if (!stoppedEarly && pending) handleLine(pending);
  if (!stoppedEarly && code === 2 && raw.length === 0) {
    if (/regex parse error|look-around|backreferences/i.test(stderr)) return 'regex-unsupported';
    // A build without PCRE2, or a pattern only the JS engine reads: the built-in search takes it.
    if (opts.pcre2 && /PCRE2 is not available|error compiling pattern|PCRE2: .*compil/i.test(stderr)) return 'regex-unsupported';
    throw new ToolError(`ripgrep failed: ${stderr.trim().slice(0, 1000)}`);
  }

  // Second opinion from our own ignore rules: nested .tandemignore files and anything rg reads
  // differently must not leak matches the other tools would refuse to show.
  const matches: SearchMatch[] = [];
  const verdict = new Map<string, boolean>();
  for (const m of raw) {
    let hidden = verdict.get(m.file);
    if (hidden === undefined) {
      hidden = r.inside && r.root ? await matcher.ignores(r.root, m.file, false) : false;
      verdict.set(m.file, hidden);
    }
    if (!hidden) matches.push(m);
  }
  matches.sort(byPathLine);
  return { matches, stoppedEarly, engine: 'ripgrep' };
}

export function formatOutcome(o: SearchOutcome, max: number, pattern: string): string {
  if (o.matches.length === 0) return `No matches for /${pattern}/.${o.note ? ` (${o.note})` : ''}`;
  const shown = o.matches.slice(0, max);
  const out: string[] = [];
  let last = '';
  for (const m of shown) {
    if (m.file !== last) {
      out.push(m.file);
      last = m.file;
    }
    const t = m.text.trim();
    out.push(`  ${m.line}: ${t.length > MAX_LINE_SHOWN ? `${t.slice(0, MAX_LINE_SHOWN)}… [line cut]` : t}`);
  }
  const files = new Set(o.matches.map((m) => m.file)).size;
  const total = o.stoppedEarly ? `at least ${o.matches.length}` : String(o.matches.length);
  if (shown.length < o.matches.length || o.stoppedEarly) {
    out.push(`[Showing ${shown.length} of ${total} matches in ${o.stoppedEarly ? 'at least ' : ''}${files} files; narrow the search with path or include.]`);
  } else out.push(`[${o.matches.length} match${o.matches.length === 1 ? '' : 'es'} in ${files} file${files === 1 ? '' : 's'}]`);
  if (o.note) out.push(`[${o.note}]`);
  return out.join('\n');
}
