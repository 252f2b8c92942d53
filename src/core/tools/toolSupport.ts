/**
 * What the tools share: path resolution with the outside-the-workspace approval, the ignore check,
 * the freshness rule, and the propose → approve → write sequence every write tool goes through.
 */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import type { ApprovalInfo } from '../../protocol';
import { gitControlledPaths } from '../policy/gitControlledPaths';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { isUnderGit } from '../policy/writeRules';
import { describeNewProblems, newProblems } from './newProblems';
import { isWithin } from '../workspace/pathWithin';
import type { Diagnostic } from '../ports/ports';
import { rejectionText } from '../text/rejectionText';
import { checkSyntax, type SyntaxVerdict } from '../syntax/syntaxGuard';
import type { ResolvedPath } from '../workspace/workspacePaths';
import { ToolError, type Tool, type ToolContext, type ToolResult } from './tool';
import { describeUserLines, mergeOverUserChange, traceOfChange } from './edit/userChangeMerge';

/** Wraps `run` so expected failures (ToolError, fs errors) come back to the model as error results, never as throws. */
export function defineTool<I>(tool: Tool<I>): Tool<I> {
  const run = tool.run.bind(tool);
  return {
    ...tool,
    async run(input: I, ctx: ToolContext): Promise<ToolResult> {
      try {
        return await run(input, ctx);
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        if (e instanceof ToolError) return { content: e.message, isError: true };
        const code = (e as NodeJS.ErrnoException)?.code;
        if (code) return { content: describeFsError(e as NodeJS.ErrnoException), isError: true };
        throw e;
      }
    },
  };
}

function describeFsError(e: NodeJS.ErrnoException): string {
  const where = e.path ? ` (${e.path})` : '';
  switch (e.code) {
    case 'ENOENT': return `No such file or folder${where}.`;
    case 'EACCES':
    case 'EPERM': return `Permission denied${where}.`;
    case 'EISDIR': return `That is a folder, not a file${where}.`;
    case 'ENOTDIR': return `A part of that path is not a folder${where}.`;
    case 'ELOOP': return `Too many levels of symbolic links${where}.`;
    default: return `${e.code}: ${e.message}`;
  }
}

export type Access = 'read' | 'write';

/** The other names a file goes by (symlinks), for an approval, so the policy judges every one of them. */
export function aliasesOf(r: ResolvedPath): { aliases?: string[] } {
  const others = r.spellings.filter((s) => s !== r.rel);
  return others.length ? { aliases: others } : {};
}

/**
 * Resolves a path the model gave. A path whose real location is outside every workspace folder is
 * only used after an approval naming that real path (the approval policy never grants these
 * blanket); on denial the tool refuses and touches nothing.
 */
export async function resolvePath(ctx: ToolContext, input: string, access: Access): Promise<ResolvedPath> {
  let r: ResolvedPath;
  try {
    r = await ctx.paths.resolve(input);
  } catch (e) {
    throw new ToolError(`Cannot use the path "${input}": ${(e as Error).message}`);
  }
  // Files under .git run as code (hooks) or redirect git (config); no approval mode should let an
  // "edit" reach them, so the tools never write there. Reads are kept out by the ignore policy.
  // Compared the way case-insensitive file systems (macOS, Windows) see it: `.GIT` and `.git.` are `.git` there.
  // Every name the file goes by counts: with `.git -> gitstore`, `gitstore/hooks/pre-commit` is a hook too.
  const gitName = access === 'write' ? r.spellings.find(isUnderGit) : undefined;
  if (gitName) {
    const also = gitName === r.rel ? '' : ` (${r.rel} is also reached as ${gitName} through a symlink)`;
    throw new ToolError(`Refused: ${gitName} is inside .git${also}; the agent does not change git's own files (use git commands instead).`);
  }
  // Whatever git dir the workspace's `.git` names (`gitdir: .repo`), the configs it includes and the
  // hooks folders they name are git's own files too, wherever they are.
  if (access === 'write') {
    const fs = ctx.host.fs;
    for (const root of fs.roots) {
      for (const g of await gitControlledPaths(root, (p) => fs.readText(p).catch(() => undefined))) {
        if (!isWithin(await fs.realpath(g.path), r.real)) continue;
        const shown = r.rel ?? r.real;
        if (g.kind === 'hooks') throw new ToolError(`Refused: ${shown} is in the folder git runs hooks from (core.hooksPath); the agent does not change git hooks.`);
        throw new ToolError(`Refused: ${shown} is git's own file (${g.why}); the agent does not change git's own files (use git commands instead).`);
      }
    }
  }
  if (!r.inside) {
    const decision = await ctx.approve({
      info: {
        kind: 'outside_workspace',
        path: input,
        real_path: r.real,
        reason: `${access === 'read' ? 'read' : 'change'} a path outside the workspace`,
      },
    });
    if (!decision.approved) {
      throw new ToolError(
        `Refused: "${input}" resolves to ${r.real}, which is outside the workspace, and the user did not allow it` +
          `${decision.reason ? ` (${decision.reason})` : ''}. Use paths inside the workspace.`,
      );
    }
  }
  return r;
}

/** Refuses a path the ignore policy hides (`.env` in `.gitignore`, anything under `.git`). */
export async function assertNotIgnored(ctx: ToolContext, r: ResolvedPath, isDir: boolean, matcher = new IgnoreMatcher(ctx.host.fs)): Promise<void> {
  if (!r.inside || !r.root || !r.rel) return;
  // Under any of its names: `.git/config` read through `.git -> gitstore` is still git's config.
  for (const name of [...r.spellings.filter((n) => n !== r.rel), r.rel]) {
    if (await matcher.ignores(r.root, name, isDir)) {
      const also = name === r.rel ? '' : ` (${r.rel} is also reached as ${name} through a symlink)`;
      throw new ToolError(`Refused: ${name} is excluded by the workspace's ignore rules (.gitignore / .tandemignore)${also}, so the agent may not read it.`);
    }
  }
}

export function displayPath(ctx: ToolContext, r: ResolvedPath): string {
  return ctx.paths.display(r);
}

/** Files above this size are not read whole into memory or sent anywhere. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

export function looksBinary(text: string): boolean {
  return text.slice(0, 8192).includes('\u0000');
}

/**
 * The freshness rule: a file the agent read and that changed on disk since is never overwritten
 * blindly. `requireRead` (write_file over an existing file) also refuses a file never read at all.
 */
export function assertFresh(ctx: ToolContext, r: ResolvedPath, current: string, requireRead: boolean): void {
  const fresh = ctx.reads.isFresh(r.real, current);
  const shown = displayPath(ctx, r);
  if (fresh === false) throw new ToolError(`Refused: ${shown} changed since you read it; read it again before changing it.`);
  if (fresh === undefined && requireRead) {
    throw new ToolError(`Refused: ${shown} already exists and you have not read it; read it first (or use edit_file for a targeted change).`);
  }
}

export interface DiffSummary {
  diff: string;
  added: number;
  removed: number;
}

export function summarizeDiff(label: string, before: string | undefined, after: string | undefined): DiffSummary {
  const oldName = before === undefined ? '/dev/null' : `a/${label}`;
  const newName = after === undefined ? '/dev/null' : `b/${label}`;
  // One diff computation serves both the text shown and the counts (context lines start with ' ').
  const patch = structuredPatch(oldName, newName, before ?? '', after ?? '', undefined, undefined, { context: 3 });
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l[0] === '+') added++;
      else if (l[0] === '-') removed++;
    }
  }
  return { diff: formatPatch(patch, FILE_HEADERS_ONLY), added, removed };
}

export interface ProposedChange {
  r: ResolvedPath;
  kind: 'edit' | 'create';
  original: string | undefined;
  proposed: string;
  /** The syntax guard's verdict, when already judged (apply_patch judges every file before asking about any). */
  syntax?: SyntaxVerdict;
  /** Set on approval when the text the user edited in the proposal has a syntax error the proposal did not: written as they approved it, and the model is told. */
  userSyntax?: string;
  /**
   * For an edit (edit_file, apply_patch) rather than a rewrite: the lines of `original` its blocks
   * matched or replaced (EditTrace.touched). When the user changes the file while the change waits
   * for approval, the approved change is merged over theirs only where neither these lines nor the
   * ones it changes were changed by them.
   */
  touched?: ReadonlyMap<number, number>;
}

/** The syntax guard: a change that leaves a new syntax error is refused before anyone is asked. */
export async function guardSyntax(change: ProposedChange): Promise<SyntaxVerdict> {
  change.syntax ??= await checkSyntax(change.r.rel ?? change.r.real, change.original, change.proposed);
  if (change.syntax.checked && !change.syntax.ok) throw new ToolError(change.syntax.message);
  return change.syntax;
}

export interface AppliedChange {
  written: string;
  /** True when the user changed the proposal before approving it. */
  userEdited: boolean;
  summary: DiffSummary;
  /** Errors the editor reports in the file after the write that it did not before (hosts with language services). */
  problems?: Promise<{ found: Diagnostic[]; checkedBefore: boolean } | undefined>;
  /** A syntax error in the text the user approved (ProposedChange.userSyntax). */
  userSyntax?: string;
  /** Set when the user changed the file while the change waited and it was merged over theirs. */
  mergeNote?: string;
}

/** Thrown (and turned into a result) when the user says no. */
export class Rejected extends ToolError {}

/** Asks for approval of one change; returns the text to write (the user's edit when they changed it). Throws `Rejected` on no. */
export async function approveChange(ctx: ToolContext, change: ProposedChange): Promise<{ text: string; summary: DiffSummary }> {
  const label = change.r.rel ?? change.r.real;
  const syntax = await guardSyntax(change);
  const summary = summarizeDiff(label, change.original, change.proposed);
  const info: ApprovalInfo = { kind: change.kind, path: label, ...aliasesOf(change.r), diff: summary.diff, added: summary.added, removed: summary.removed };
  if (syntax.checked) info.syntax_checked = syntax.language;
  if (!change.r.inside) info.real_path = change.r.real;
  const decision = await ctx.approve({ info, proposedText: change.proposed, originalText: change.original });
  if (!decision.approved) {
    throw new Rejected(rejectionText(decision, `this change to ${label}`, 'Nothing was changed.'));
  }
  if (decision.editedText !== undefined && decision.editedText !== change.proposed) {
    // The user's own text is theirs to write; a syntax error in it is only reported, so the model
    // does not build on a file it believes parses.
    const theirs = await checkSyntax(label, change.original, decision.editedText);
    if (theirs.checked && !theirs.ok) {
      change.userSyntax = `Note: the text the user approved has a syntax error (it was written as they approved it): ${theirs.message.replace(/^Refused: the (change|new file)/, 'the $1').replace(/\nThe change was not written; fix it and send it again\.$/, '')}`;
    }
  }
  return { text: decision.editedText ?? change.proposed, summary };
}

/**
 * Re-checks a path right before it is changed. An approval can wait minutes for a person; in that
 * time a folder on the path may have been swapped for a symlink (the write would then land where
 * the link points, outside the workspace) or the file changed on disk (the write would silently
 * drop that change). Either way the change is refused; nothing is written.
 */
export async function assertStillAsApproved(ctx: ToolContext, r: ResolvedPath, original: string | undefined, checkContent = true): Promise<void> {
  const shown = displayPath(ctx, r);
  const again = await ctx.paths.resolve(r.real);
  if (again.real !== r.real || again.inside !== r.inside) {
    throw new ToolError(`Refused: ${shown} now resolves to ${again.real} (a folder or file on the path was replaced while waiting for approval). Nothing was changed.`);
  }
  if (!checkContent) return;
  const st = await ctx.host.fs.stat(r.real);
  const current = st?.type === 'file' ? await ctx.host.fs.readText(r.real) : st ? null : undefined;
  if (current !== original) {
    const what = original === undefined ? 'was created' : current === undefined ? 'was deleted' : 'changed on disk';
    throw new ToolError(`Refused: ${shown} ${what} while waiting for approval; read it again before changing it. Nothing was changed.`);
  }
}

/**
 * What to write once a change is approved: the approved text when the file is as it was, or, for an
 * edit of a file the user changed while it waited, the approved change over theirs when no line
 * the change touches (or sits between) was changed by them. Otherwise refused, nothing written.
 */
export async function textToWrite(ctx: ToolContext, change: ProposedChange, approved: string): Promise<{ text: string; note?: string }> {
  await assertStillAsApproved(ctx, change.r, change.original, false);
  const st = await ctx.host.fs.stat(change.r.real);
  const current = st?.type === 'file' ? await ctx.host.fs.readText(change.r.real) : undefined;
  if (current === change.original) return { text: approved };
  if (!change.touched || change.original === undefined || current === undefined) {
    await assertStillAsApproved(ctx, change.r, change.original);
    return { text: approved };
  }
  const shown = displayPath(ctx, change.r);
  const trace = traceOfChange(change.original, approved);
  for (const [line, block] of change.touched) if (!trace.touched.has(line)) trace.touched.set(line, block);
  const merged = mergeOverUserChange(change.original, approved, trace, current);
  const where = describeUserLines(merged.user);
  if (!merged.ok) {
    throw new ToolError(`Refused: ${shown} changed on disk while waiting for approval (the user changed ${where}), and the change covers lines they changed. Their change is kept; read it again before changing it. Nothing was changed.`);
  }
  const { diff } = summarizeDiff(shown, change.original, current);
  const body = diff.split('\n').slice(2).join('\n');
  return {
    text: merged.text,
    note: `${shown} changed while the change waited for approval (the user changed ${where}). The approved change does not touch those lines, so it was written over the current text and the user's change was kept. The user's change:\n${body.length > 4000 ? `${body.slice(0, 4000)}\n[… diff cut …]` : body}`,
  };
}

/** Writes approved text, keeping a checkpoint first, and records it as what the agent has seen. */
export async function writeApproved(ctx: ToolContext, change: ProposedChange, approved: string, summary: DiffSummary): Promise<AppliedChange> {
  ctx.signal.throwIfAborted();
  let decided = await textToWrite(ctx, change, approved);
  // The editor's verdict on the file before the change, so only what the change broke is reported.
  const watch = await ctx.host.diagnostics?.watch?.(change.r.real, ctx.signal).catch(() => undefined);
  // Watching can wait for the language services (and the user may type meanwhile): what is written
  // is decided again right before writing.
  if (watch) decided = await textToWrite(ctx, change, approved);
  const { text, note: mergeNote } = decided;
  await ctx.beforeChange?.(change.r.real);
  await ctx.host.fs.writeText(change.r.real, text);
  ctx.reads.record(change.r.real, text);
  const userEdited = approved !== change.proposed;
  const problems = watch?.after().then((after) => ({ found: newProblems(watch.before ?? [], after), checkedBefore: watch.before !== undefined }), () => undefined);
  return {
    written: text,
    userEdited,
    summary: text !== change.proposed ? summarizeDiff(change.r.rel ?? change.r.real, change.original, text) : summary,
    problems,
    userSyntax: change.userSyntax,
    mergeNote,
  };
}

/**
 * The result lines after a write: a syntax error in the text the user approved, and the new
 * problems once the editor has looked (empty when none, or no editor).
 */
export async function problemsNote(shown: string, applied: AppliedChange): Promise<string[]> {
  const problems = await applied.problems;
  return [
    ...(applied.mergeNote ? [applied.mergeNote] : []),
    ...(applied.userSyntax ? [applied.userSyntax] : []),
    ...(problems?.found.length ? [describeNewProblems(shown, problems.found, problems.checkedBefore)] : []),
  ];
}

/**
 * Shows the change for approval, then writes exactly what was approved (the user's edited text
 * when they changed it), and records it as read so the agent's next edit is not refused as stale.
 */
export async function proposeAndWrite(ctx: ToolContext, change: ProposedChange): Promise<AppliedChange> {
  const { text, summary } = await approveChange(ctx, change);
  return writeApproved(ctx, change, text, summary);
}

/** The note a result carries when the user changed the proposal: what they changed, so the model's picture is right. */
export function userEditNote(label: string, proposed: string, written: string): string {
  const { diff } = summarizeDiff(label, proposed, written);
  const body = diff.split('\n').slice(2).join('\n');
  const capped = body.length > 4000 ? `${body.slice(0, 4000)}\n[… diff cut …]` : body;
  return `\nThe user edited your proposal before applying it. Their changes relative to your proposal:\n${capped}`;
}

export function lineEnding(text: string): '\r\n' | '\n' {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return crlf > lf ? '\r\n' : '\n';
}
