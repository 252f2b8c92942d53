/**
 * apply_patch: a unified diff applied with the `diff` package, with bounded fuzz (context lines may
 * differ by up to PATCH_FUZZ lines; hunks may sit elsewhere than their line numbers say). A patch may
 * touch several files; it is applied to all of them or to none.
 */
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import * as z from 'zod';
import { ToolError, type ToolContext } from './tool';
import { applyEditBlocks, closestWindow, type EditBlock } from './edit/editMatching';
import type { ResolvedPath } from '../workspace/workspacePaths';
import { editOverUserChange } from './edit/editOverUserChange';
import {
  approveChange, assertFresh, guardSyntax, assertNotIgnored, textToWrite, defineTool, displayPath, lineEnding, looksBinary,
  MAX_READ_BYTES, problemsNote, resolvePath, userEditNote, writeApproved, type AppliedChange, type DiffSummary, type ProposedChange,
} from './toolSupport';

/** Context lines that may mismatch per hunk before the hunk is refused. */
export const PATCH_FUZZ = 2;

const input = z.object({
  patch: z.string().min(1).describe('--- a/path, +++ b/path, @@ hunks'),
  path: z.string().optional().describe('Target file if the patch names none'),
});
type Input = z.infer<typeof input>;

/**
 * Models often get hunk line counts wrong or write `@@ @@` without numbers; the counts are
 * recomputed from the hunk body (the body is what matters) and missing start lines become 1
 * (the applier searches the file for the right place anyway).
 */
export function normalizeHunkHeaders(patch: string): string {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = /^@@ ?(?:-(\d+)(?:,\d+)? \+(\d+)(?:,\d+)?)? ?@@(.*)$/.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    let j = i + 1;
    let oldCount = 0;
    let newCount = 0;
    const body: string[] = [];
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.startsWith('@@') || l.startsWith('diff ') || l.startsWith('Index: ')) break;
      // `--- x` is a removed line `-- x` unless a `+++ ` header follows: then a new file section starts.
      if (l.startsWith('--- ') && lines[j + 1]?.startsWith('+++ ')) break;
      if (l.startsWith('\\')) {
        body.push(l);
        continue;
      }
      const c = l === '' ? ' ' : l[0];
      // A blank context line whose single space an editor trimmed away.
      const fixed = l === '' ? ' ' : l;
      if (c === ' ') {
        oldCount++;
        newCount++;
      } else if (c === '-') oldCount++;
      else if (c === '+') newCount++;
      else break; // trailing prose after the diff
      body.push(fixed);
    }
    const oldStart = m[1] !== undefined ? Number(m[1]) : 1;
    const newStart = m[2] !== undefined ? Number(m[2]) : 1;
    out.push(`@@ -${oldCount === 0 ? Math.max(0, oldStart) : oldStart},${oldCount} +${newStart},${newCount} @@${m[3] ?? ''}`);
    out.push(...body);
    i = j - 1;
  }
  return out.join('\n') + '\n';
}

function stripPrefix(name: string | undefined): string | undefined {
  if (!name) return undefined;
  if (name === '/dev/null') return name;
  return name.replace(/^[ab]\//, '');
}

/** Why a patch did not apply: the first hunk that fits nowhere, with the closest lines in the file. */
function explainFailure(source: string, fp: StructuredPatch, shown: string): string {
  const fileLines = source.split('\n');
  for (let h = 0; h < fp.hunks.length; h++) {
    const hunk = fp.hunks[h]!;
    const alone: StructuredPatch = { ...fp, hunks: [{ ...hunk }] };
    if (applyPatch(source, alone, { fuzzFactor: PATCH_FUZZ }) !== false) continue;
    const expected = hunk.lines.filter((l) => l[0] === ' ' || l[0] === '-').map((l) => l.slice(1));
    const best = closestWindow(fileLines, expected);
    let where = '';
    if (best && best.score > 0.2) {
      const end = Math.min(fileLines.length, best.start + expected.length);
      const shownLines = fileLines.slice(best.start, end).map((l, k) => `${best.start + k + 1}\t${l}`).join('\n');
      where = `\nThe closest text in the file is at lines ${best.start + 1}-${end} (${Math.round(best.score * 100)}% similar):\n${shownLines}`;
    }
    return (
      `Hunk ${h + 1} of ${fp.hunks.length} (@@ -${hunk.oldStart},${hunk.oldLines} @@) does not fit ${shown}: its context and removed lines ` +
      `are not in the file (even allowing ${PATCH_FUZZ} differing context lines).${where}`
    );
  }
  return `The hunks of the patch fit ${shown} one by one but not together (they overlap or are out of order).`;
}

interface Planned {
  change: ProposedChange;
  shown: string;
  notes: string[];
}

/** A section's hunks as edit_file blocks (context and removed lines → context and added lines), for the tolerant matcher. */
function hunksAsBlocks(fp: StructuredPatch): EditBlock[] {
  return fp.hunks.map((h) => {
    const old: string[] = [];
    const neu: string[] = [];
    for (const l of h.lines) {
      if (l[0] === ' ' || l[0] === '-') old.push(l.slice(1));
      if (l[0] === ' ' || l[0] === '+') neu.push(l.slice(1));
    }
    return { old_text: old.join('\n'), new_text: neu.join('\n') };
  });
}

/** One section applied to the text so far: the diff package first (line numbers, bounded fuzz), then the edit matcher (indentation, elision markers). */
function applySection(source: string, fp: StructuredPatch, shown: string, creating: boolean): { text: string; note?: string } {
  const result = applyPatch(source, fp, { fuzzFactor: PATCH_FUZZ, autoConvertLineEndings: true });
  if (result !== false) return { text: result };
  if (!creating && fp.hunks.every((h) => h.lines.some((l) => l[0] === ' ' || l[0] === '-'))) {
    const outcome = applyEditBlocks(source, hunksAsBlocks(fp), lineEnding(source));
    if (outcome.ok) {
      const endsNl = source.endsWith('\n');
      const text = endsNl || !outcome.text.endsWith('\n') ? outcome.text : outcome.text.slice(0, -1);
      return { text, note: `The patch for ${shown} did not apply as a diff; its hunks were applied as search/replace blocks. ${outcome.notes.join(' ')}`.trim() };
    }
  }
  throw new ToolError(`${explainFailure(source, fp, shown)}\nNothing was changed. Read the file again and make a patch against its current text.`);
}

interface Section {
  fp: StructuredPatch;
  target: string;
  creating: boolean;
}

function sectionOf(fp: StructuredPatch, explicitPath: string | undefined, multi: boolean): Section {
  const oldName = stripPrefix(fp.oldFileName);
  const newName = stripPrefix(fp.newFileName);
  if (newName === '/dev/null') throw new ToolError(`The patch deletes ${oldName}; use delete_file for deletions.`);
  const creating = oldName === '/dev/null';
  if (!creating && oldName && newName && normalizeName(oldName) !== normalizeName(newName) && !explicitPath) {
    throw new ToolError(`The patch renames ${oldName} to ${newName}; renames are not supported. Create the new file and delete the old one.`);
  }
  const target = (!multi && explicitPath) || newName || oldName;
  if (!target || target === '/dev/null') throw new ToolError('The patch names no file; pass path.');
  return { fp, target, creating };
}

/** `./a.txt`, `a//a.txt` and `a.txt` are one file. */
function normalizeName(name: string): string {
  return name.replace(/\\/g, '/').split('/').filter((seg, i) => seg !== '.' && !(seg === '' && i > 0)).join('/');
}

/** All sections naming one file, applied in order to its text: one proposed change per file. */
async function planFile(ctx: ToolContext, r: ResolvedPath, sections: Section[]): Promise<Planned> {
  const shown = displayPath(ctx, r);
  const st = await ctx.host.fs.stat(r.real);
  const creating = sections[0]!.creating;
  if (sections.slice(1).some((x) => x.creating)) throw new ToolError(`The patch creates ${shown} after changing it; send one section per file.`);
  let source = '';
  if (creating) {
    if (st) throw new ToolError(`The patch creates ${shown}, but it already exists.`);
  } else {
    if (!st) throw new ToolError(`No such file: ${shown}.`);
    if (st.type !== 'file') throw new ToolError(`${shown} is not a regular file.`);
    await assertNotIgnored(ctx, r, false);
    if (st.size > MAX_READ_BYTES) throw new ToolError(`${shown} is too large to patch here.`);
    source = await ctx.host.fs.readText(r.real);
    if (looksBinary(source)) throw new ToolError(`${shown} looks like a binary file.`);
  }
  const notes: string[] = [];
  const applySections = (from: string) => {
    let text = from;
    for (const [k, sec] of sections.entries()) {
      const label = sections.length > 1 ? `${shown} (section ${k + 1} of ${sections.length} for this file)` : shown;
      const applied = applySection(text, sec.fp, label, k === 0 && creating);
      text = applied.text;
      if (applied.note) notes.push(applied.note);
    }
    return text;
  };
  let text: string;
  let touched: ReadonlyMap<number, number> | undefined;
  if (!creating && ctx.reads.isFresh(r.real, source) === false) {
    // Changed since the agent's read (the user typed meanwhile). The patch was made against the text
    // the agent read: its hunks, as search/replace blocks, must mean there what the patch means, and
    // go through on the current text only where they are apart from the user's change.
    const base = ctx.reads.seenText(r.real);
    let intended: string | undefined;
    if (base !== undefined) {
      try {
        intended = applySections(base);
        if (lineEnding(base) === '\r\n') intended = intended.replace(/\r?\n/g, '\r\n');
      } catch {
        throw new ToolError(`Refused: ${shown} changed since you read it, and the patch does not fit the text you read either. Read the file again and make a patch against its current text. Nothing was changed.`);
      }
      notes.length = 0;
    }
    const rematched = editOverUserChange(shown, base, source, sections.flatMap((sec) => hunksAsBlocks(sec.fp)), lineEnding(source), intended);
    text = rematched.text;
    touched = rematched.trace.touched;
    notes.push(...rematched.notes);
  } else {
    assertFresh(ctx, r, source, false);
    text = applySections(source);
    // The lines the hunks rely on, for a change of the file while this waits for approval: known
    // when the hunks, as blocks, mean what the patch means.
    if (!creating) {
      const asBlocks = applyEditBlocks(source, sections.flatMap((sec) => hunksAsBlocks(sec.fp)), lineEnding(source));
      if (asBlocks.ok && asBlocks.text === text) touched = asBlocks.trace.touched;
    }
  }
  if (sections.length > 1) notes.push(`${sections.length} sections of the patch name ${shown}; they were applied one after another to it.`);
  if (!creating && text === source) throw new ToolError(`The patch leaves ${shown} unchanged. Nothing was changed.`);
  if (!creating && lineEnding(source) === '\r\n' && lineEnding(text) !== '\r\n') {
    // Keep a CRLF file CRLF even where added lines came in with LF.
    return { change: { r, kind: 'edit', original: source, proposed: text.replace(/\r?\n/g, '\r\n'), touched }, shown, notes };
  }
  return { change: { r, kind: creating ? 'create' : 'edit', original: creating ? undefined : source, proposed: text, touched }, shown, notes };
}

export const applyPatchTool = defineTool<Input>({
  name: 'apply_patch',
  description: 'Apply a unified diff to one or more files, all or none. Context may be slightly off; a hunk that fits nowhere fails the patch.',
  input,
  permissions: ['read', 'write'],
  readOnly: false,
  display: {
    kind: 'edit', title: 'Apply patch',
    headline: (i) => {
      const names = [...i.patch.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)].map((m) => m[1]!).filter((n) => n !== '/dev/null');
      // The card links the file: the one given, else the first the patch names.
      const path = i.path?.trim() ? i.path : names[0];
      return { verb: 'Patch', done: 'Patched', ...(path ? { path } : {}), summary: `patch ${names.length ? names.join(', ') : (i.path ?? '')}`.trim() };
    },
  },
  async run(i, ctx) {
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(normalizeHunkHeaders(i.patch));
    } catch (e) {
      throw new ToolError(`Could not parse the patch as a unified diff: ${(e as Error).message}`);
    }
    patches = patches.filter((p) => p.hunks.length > 0);
    if (patches.length === 0) throw new ToolError('The patch has no hunks (@@ … @@ sections).');
    const multi = patches.length > 1;
    const sections = patches.map((fp) => sectionOf(fp, i.path, multi));

    // Sections are grouped by the file they resolve to (a.txt, ./a.txt and a link to it are one
    // file), so each file gets one change built from all its sections. Everything is computed before
    // anything is asked or written: one bad file fails the lot.
    const byFile = new Map<string, { r: ResolvedPath; sections: Section[] }>();
    for (const sec of sections) {
      const r = await resolvePath(ctx, sec.target, 'write');
      const group = byFile.get(r.real);
      if (group) group.sections.push(sec);
      else byFile.set(r.real, { r, sections: [sec] });
    }
    const planned: Planned[] = [];
    for (const g of byFile.values()) planned.push(await planFile(ctx, g.r, g.sections));
    for (const p of planned) await guardSyntax(p.change);
    const approved: { p: Planned; text: string; summary: DiffSummary }[] = [];
    for (const p of planned) approved.push({ p, ...(await approveChange(ctx, p.change)) });
    // Every file is checked again before the first is written, so a file changed while waiting for
    // approval (where the change cannot go over the user's) fails the patch with nothing written;
    // the result says exactly which files changed.
    for (const a of approved) await textToWrite(ctx, a.p.change, a.text);
    const results: { p: Planned; applied: AppliedChange }[] = [];
    for (const a of approved) {
      try {
        results.push({ p: a.p, applied: await writeApproved(ctx, a.p.change, a.text, a.summary) });
      } catch (e) {
        if (results.length === 0) throw e;
        const done = results.map((x) => x.p.shown).join(', ');
        const notDone = approved.slice(results.length).map((x) => x.p.shown).join(', ');
        throw new ToolError(`${(e as Error).message}\nThe patch was applied only in part: ${done} ${results.length === 1 ? 'was' : 'were'} changed; ${notDone} ${approved.length - results.length === 1 ? 'was' : 'were'} not.`);
      }
    }

    const lines = results.map(
      ({ p, applied }) => `${p.change.kind === 'create' ? 'Created' : 'Patched'} ${p.shown} (+${applied.summary.added} -${applied.summary.removed}).`,
    );
    for (const { p } of results) lines.push(...p.notes);
    for (const { p, applied } of results) if (applied.userEdited) lines.push(userEditNote(p.change.r.rel ?? p.change.r.real, p.change.proposed, applied.written));
    for (const notes of await Promise.all(results.map(({ p, applied }) => problemsNote(p.shown, applied)))) lines.push(...notes);
    return { content: lines.join('\n') };
  },
});
