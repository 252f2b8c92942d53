/**
 * Turns the mentions of a user's message into attachments, read once at send time and capped.
 * Mentions never reach outside the workspace (after resolving symlinks) or into files the ignore
 * rules exclude — not even with an approval: a mention is the user's shorthand, not a tool call,
 * and a message should not ask anything. What cannot be attached becomes an attachment with a note
 * saying why, so the user sees it and the model is told; nothing is dropped silently.
 */
import * as path from 'node:path';
import type { Attachment } from '../../protocol';
import { IgnoreMatcher, skippedByWalk } from '../policy/ignorePolicy';
import type { HostPorts } from '../ports/ports';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import { looksLikePath, parseMentions, type Mention } from '../../protocol/mentions';

/** Per attachment and for all of a message's attachments together, in characters. */
export const MAX_ATTACHMENT_CHARS = 20_000;
export const MAX_MESSAGE_ATTACHMENT_CHARS = 80_000;
const MAX_FOLDER_ENTRIES = 200;
const MAX_PROBLEMS = 100;

export interface MentionEnv {
  host: HostPorts;
  paths: WorkspacePaths;
}

export interface ResolvedMentions {
  attachments: Attachment[];
  /** Whole files attached, as read (the agent counts them as read, so an edit of one is not refused as unseen). */
  reads: { real: string; text: string }[];
}

const numbered = (lines: string[], first: number) => {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}\t${l}`).join('\n');
};

function cap(a: Attachment, max: number): Attachment {
  if (a.content.length <= max) return a;
  const lines = a.content.split('\n').length;
  const kept = a.content.slice(0, max);
  const keptLines = kept.split('\n').length;
  return { ...a, content: kept, note: `cut: first ${keptLines} of ${lines} lines attached` };
}

const failed = (kind: Attachment['kind'], label: string, note: string): Attachment => ({ kind, label, content: '', note, error: true });

/** Drops the sections of a `git diff` whose file the ignore rules exclude (a tracked `.env` in `.tandemignore`). */
async function withoutIgnored(diff: string, root: string, matcher: IgnoreMatcher): Promise<string> {
  const parts = diff.split(/^(?=diff --git |# (?:Staged|Not staged)$)/m);
  const kept: string[] = [];
  for (const part of parts) {
    const m = /^diff --git a\/(.+?) b\/(.+)$/m.exec(part);
    if (m && ((await matcher.ignores(root, m[1]!, false)) || (await matcher.ignores(root, m[2]!, false)))) continue;
    kept.push(part);
  }
  return kept.join('');
}

async function folderListing(env: MentionEnv, root: string, abs: string, matcher: IgnoreMatcher): Promise<{ text: string; cut: boolean }> {
  const out: string[] = [];
  const visit = async (dir: string, depth: number): Promise<boolean> => {
    const entries = [...(await env.host.fs.readDir(dir))].sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (out.length >= MAX_FOLDER_ENTRIES) return false;
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p).split(path.sep).join('/');
      const isDir = e.type === 'directory';
      if (skippedByWalk(e.name, isDir) || (await matcher.ignores(root, rel, isDir))) continue;
      out.push(`${'  '.repeat(depth)}${e.name}${isDir ? '/' : ''}`);
      if (isDir && depth < 3 && !(await visit(p, depth + 1))) return false;
    }
    return true;
  };
  const complete = await visit(abs, 0);
  return { text: out.join('\n'), cut: !complete };
}

async function resolvePathMention(env: MentionEnv, m: Extract<Mention, { kind: 'path' }>, matcher: IgnoreMatcher, reads: Map<string, { real: string; text: string }>): Promise<Attachment | undefined> {
  const label = m.raw;
  const kind: Attachment['kind'] = m.lines ? 'range' : 'file';
  let r;
  try {
    r = await env.paths.resolve(m.path);
  } catch (e) {
    return failed(kind, label, `not attached: ${(e as Error).message}`);
  }
  const st = await env.host.fs.stat(r.real);
  if (!st) return looksLikePath(m.path) ? failed(kind, label, 'not attached: no such file or folder in the workspace') : undefined;
  if (!r.inside || !r.root || !r.rel) return failed(kind, label, 'not attached: it is outside the workspace');
  const isDir = st.type === 'directory';
  for (const name of r.spellings) {
    if (await matcher.ignores(r.root, name, isDir)) return failed(kind, label, 'not attached: the ignore rules (.gitignore / .tandemignore) exclude it');
  }
  if (isDir) {
    const { text, cut } = await folderListing(env, r.root, r.real, matcher);
    return { kind: 'folder', label, content: text || '(empty)', ...(cut ? { note: `cut: first ${MAX_FOLDER_ENTRIES} entries listed` } : {}) };
  }
  if (st.type !== 'file') return failed(kind, label, 'not attached: not a regular file');
  if (st.size > 10 * 1024 * 1024) return failed(kind, label, 'not attached: larger than 10 MB');
  const text = await env.host.fs.readText(r.real);
  if (text.slice(0, 8192).includes('\u0000')) return failed(kind, label, 'not attached: a binary file');
  const lines = text.split('\n');
  if (m.lines) {
    if (m.lines.start > lines.length) return failed('range', label, `not attached: ${r.rel} has ${lines.length} lines`);
    const end = Math.min(m.lines.end, lines.length);
    return { kind: 'range', label, content: numbered(lines.slice(m.lines.start - 1, end), m.lines.start) };
  }
  reads.set(label, { real: r.real, text });
  return { kind: 'file', label, content: numbered(lines, 1) };
}

async function resolveKeyword(env: MentionEnv, m: Extract<Mention, { kind: 'keyword' }>, matcher: IgnoreMatcher): Promise<Attachment> {
  const label = m.raw;
  const root = env.paths.roots[0];
  switch (m.keyword) {
    case 'problems': {
      if (!env.host.diagnostics) return failed('problems', label, 'not attached: no editor problems here (run the type checker or linter instead)');
      const all = await env.host.diagnostics.get();
      const shown: string[] = [];
      for (const d of all) {
        const r = await env.paths.resolve(d.path).catch(() => undefined);
        if (!r?.inside || !r.root || !r.rel || (await matcher.ignores(r.root, r.rel, false))) continue;
        shown.push(`${r.rel}:${d.line} ${d.severity}: ${d.message}${d.source ? ` [${d.source}]` : ''}`);
      }
      const more = shown.length > MAX_PROBLEMS ? `\n[${shown.length - MAX_PROBLEMS} more not shown]` : '';
      return { kind: 'problems', label, content: shown.length ? shown.slice(0, MAX_PROBLEMS).join('\n') + more : 'No problems reported.' };
    }
    case 'git': {
      if (!root || !env.host.context?.gitChanges) return failed('git', label, 'not attached: git changes are not available here');
      const diff = await env.host.context.gitChanges(root);
      if (diff === undefined) return failed('git', label, 'not attached: the workspace is not a git repository');
      const kept = await withoutIgnored(diff, root, matcher);
      return { kind: 'git', label, content: kept.trim() || 'No changes (working tree and index are clean).' };
    }
    case 'terminal': {
      const out = await env.host.context?.terminalOutput?.();
      if (out === undefined) return failed('terminal', label, 'not attached: no terminal output is known (run a command in a terminal with shell integration first)');
      // The end of a long output is what matters (the error, the summary).
      const tail = out.length > MAX_ATTACHMENT_CHARS ? out.slice(-MAX_ATTACHMENT_CHARS) : out;
      return { kind: 'terminal', label, content: tail, ...(tail !== out ? { note: `cut: last ${MAX_ATTACHMENT_CHARS} characters attached` } : {}) };
    }
    case 'selection':
      return failed('range', label, 'not attached: there is no editor selection here; mention the lines instead (@path:12-20)');
  }
}

/** `@selection`: the editor's selected lines, attached like `@path:start-end` of that file (same checks). */
async function resolveSelection(env: MentionEnv, label: string, matcher: IgnoreMatcher): Promise<Attachment | undefined> {
  const sel = await env.host.context?.activeSelection?.().catch(() => undefined);
  if (!sel) return undefined;
  const r = await env.paths.resolve(sel.path).catch(() => undefined);
  const where = `${r?.inside && r.rel ? r.rel : sel.path}:${sel.lines.start}-${sel.lines.end}`;
  const a = await resolvePathMention(env, { kind: 'path', raw: where, path: sel.path, lines: sel.lines }, matcher, new Map());
  return a && { ...a, label: `${label} (${where})` };
}

/** The editor's context as one line (active file, visible lines, selection), when the host gives one and the file may be read. */
async function editorContext(env: MentionEnv, matcher: IgnoreMatcher): Promise<Attachment | undefined> {
  const c = await env.host.context?.editorContext?.().catch(() => undefined);
  if (!c) return undefined;
  const r = await env.paths.resolve(c.path).catch(() => undefined);
  if (!r?.inside || !r.root || !r.rel || (await matcher.ignores(r.root, r.rel, false))) return undefined;
  const lines = (s: { start: number; end: number }) => (s.start === s.end ? `line ${s.start}` : `lines ${s.start}-${s.end}`);
  const parts = [r.rel];
  if (c.visible) parts.push(`${lines(c.visible)} visible`);
  if (c.selection) parts.push(`selection ${lines(c.selection)}`);
  return { kind: 'context', label: 'editor', content: `Active editor: ${parts.join(', ')}` };
}

/** `extraFiles`: files attached besides the text's mentions (the CLI's `--attach`). */
export async function resolveMentions(text: string, env: MentionEnv, opts: { extraFiles?: readonly string[]; withEditorContext?: boolean } = {}): Promise<ResolvedMentions> {
  const matcher = new IgnoreMatcher(env.host.fs);
  const reads = new Map<string, { real: string; text: string }>();
  const fullyRead: ResolvedMentions['reads'] = [];
  const out: Attachment[] = [];
  const mentions = parseMentions(text);
  for (const f of opts.extraFiles ?? []) if (!mentions.some((m) => m.raw === f)) mentions.push({ kind: 'path', raw: f, path: f });
  let budget = MAX_MESSAGE_ATTACHMENT_CHARS;
  for (const m of mentions) {
    let a: Attachment | undefined;
    try {
      a = m.kind === 'path'
        ? await resolvePathMention(env, m, matcher, reads)
        : (m.keyword === 'selection' && (await resolveSelection(env, m.raw, matcher))) || (await resolveKeyword(env, m, matcher));
    } catch (e) {
      // A mention that cannot be read never costs the message: it goes without it, saying why.
      a = failed(m.kind === 'path' ? 'file' : m.keyword === 'selection' ? 'range' : m.keyword, m.raw, `not attached: ${(e as Error).message}`);
    }
    if (!a) continue;
    if (a.error) { out.push(a); continue; }
    if (budget <= 0) { out.push(failed(a.kind, a.label, 'not attached: the message already carries as much as it may (attach fewer or smaller things)')); continue; }
    const capped = cap(a, Math.min(MAX_ATTACHMENT_CHARS, budget));
    budget -= capped.content.length;
    out.push(capped);
    // A file cut to fit is not "read" whole: the agent must read it before overwriting it.
    const read = reads.get(a.label);
    if (read && capped === a && a.kind === 'file') fullyRead.push(read);
  }
  if (opts.withEditorContext) {
    const ctx = await editorContext(env, matcher);
    if (ctx) out.push(ctx);
  }
  return { attachments: out, reads: fullyRead };
}
