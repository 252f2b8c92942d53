/**
 * A step patch as a file: what a killed run keeps, what `tandem run --step N --emit-patch` writes and
 * `tandem apply` reads. JSON, with each file's bytes in base64 and its mode in octal: every byte and
 * mode survives (a text diff would not, and a UTF-8 round trip corrupts binaries), a link is a link
 * by its kind (never a mode bit a tool might honour), and reading it needs no git. A file read from
 * anywhere is checked here (shape, sizes, canonical paths); what it may change is decided by the one
 * apply function (applyStepPatch.ts), never by `git apply`, which holds none of the write tools' rules.
 */
import * as z from 'zod';
import type { StepPatch, StepPatchEntry } from '../ports/stepWorkspaces';

export const STEP_PATCH_FORMAT = 'tandem-step-patch';

/** Bounds on a patch file read from anywhere: larger is refused before anything is applied. */
export const STEP_PATCH_LIMITS = { entries: 100_000, pathChars: 4096 } as const;

const before = z.union([z.null(), z.object({ kind: z.enum(['file', 'symlink']), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict()]);
const relPath = z.string().min(1).max(STEP_PATCH_LIMITS.pathChars);
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');

const entry = z.discriminatedUnion('kind', [
  z.object({ path: relPath, kind: z.literal('file'), mode: z.string().regex(/^[0-7]{3}$/, 'three octal digits'), base64, before }).strict(),
  z.object({ path: relPath, kind: z.literal('symlink'), target: z.string().min(1).max(STEP_PATCH_LIMITS.pathChars), before }).strict(),
  z.object({ path: relPath, kind: z.literal('deletion'), before }).strict(),
]);

const patchFile = z.object({
  format: z.literal(STEP_PATCH_FORMAT),
  version: z.literal(1),
  /** The plan step it came from, when known (shown, never trusted for anything). */
  step: z.number().int().positive().optional(),
  entries: z.array(entry).max(STEP_PATCH_LIMITS.entries),
  /** Paths the step changed that the patch cannot carry, and why: applying it refuses them by name. */
  not_carried: z.array(z.object({ path: relPath, rule: z.string().min(1).max(STEP_PATCH_LIMITS.pathChars) }).strict()).max(STEP_PATCH_LIMITS.entries).optional(),
}).strict();

/** A step patch as the text of a patch file. */
export function encodeStepPatch(patch: StepPatch, step?: number): string {
  const entries = patch.entries.map((e) => {
    if (e.kind === 'file') return { path: e.path, kind: e.kind, mode: (e.mode & 0o777).toString(8).padStart(3, '0'), base64: Buffer.from(e.bytes).toString('base64'), before: e.before };
    if (e.kind === 'symlink') return { path: e.path, kind: e.kind, target: e.target, before: e.before };
    return { path: e.path, kind: e.kind, before: e.before };
  });
  const notCarried = patch.notCarried?.length ? { not_carried: patch.notCarried.map((n) => ({ path: n.path, rule: n.rule })) } : {};
  return `${JSON.stringify({ format: STEP_PATCH_FORMAT, version: 1, ...(step !== undefined ? { step } : {}), entries, ...notCarried }, null, 1)}\n`;
}

/** A patch file's text as a step patch, or why it is not one (its first problem, with where). */
export function decodeStepPatch(text: string): { patch: StepPatch; step?: number } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { error: `not a step patch (not JSON: ${e instanceof Error ? e.message : String(e)})` };
  }
  const parsed = patchFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `not a step patch: ${issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'invalid'}` };
  }
  const entries: StepPatchEntry[] = parsed.data.entries.map((e) => {
    if (e.kind === 'file') return { path: e.path, kind: 'file', mode: parseInt(e.mode, 8), bytes: new Uint8Array(Buffer.from(e.base64, 'base64')), before: e.before };
    if (e.kind === 'symlink') return { path: e.path, kind: 'symlink', target: e.target, before: e.before };
    return { path: e.path, kind: 'deletion', before: e.before };
  });
  const notCarried = parsed.data.not_carried?.length ? { notCarried: parsed.data.not_carried.map((n) => ({ path: n.path, rule: n.rule })) } : {};
  return { patch: { entries, ...notCarried }, ...(parsed.data.step !== undefined ? { step: parsed.data.step } : {}) };
}
