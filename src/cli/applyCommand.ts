/**
 * `tandem apply PATCH… [--workspace DIR]`: step patches (a CI job's `--emit-patch`, a killed run's
 * kept patch) applied to the workspace as one, whole or nothing, by the same function and under the
 * same rules as a parallel step's apply-back (applyStepPatch.ts). Exit 0 applied, 2 refused (each
 * refused path named with its rule; nothing written), 1 when the files could not be written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StepPatch } from '../core/ports/stepWorkspaces';
import { decodeStepPatch } from '../core/planRuns/stepPatchFile';
import { composeStepPatches } from '../core/planRuns/composeStepPatches';
import { applyStepPatch, type PatchRefusal } from '../core/planRuns/applyStepPatch';
import { NodeWorkspaceFs } from '../host/node/nodeWorkspaceFs';
import { EXIT } from './commands';

export interface ApplyIo {
  cwd: string;
  stdout(s: string): void;
  stderr(s: string): void;
}

/** The patch files, read and checked; or what is wrong with the first bad one. */
export function readPatchFiles(files: readonly string[], cwd: string): { patches: { name: string; patch: StepPatch }[] } | { error: string } {
  const patches: { name: string; patch: StepPatch }[] = [];
  for (const f of files) {
    const abs = path.resolve(cwd, f);
    let text: string;
    try {
      text = fs.readFileSync(abs, 'utf8');
    } catch (e) {
      return { error: `cannot read the patch file ${abs}: ${(e as Error).message}` };
    }
    const decoded = decodeStepPatch(text);
    if ('error' in decoded) return { error: `${abs}: ${decoded.error}` };
    patches.push({ name: f, patch: decoded.patch });
  }
  return { patches };
}

const refusalLines = (refusals: readonly PatchRefusal[]) => refusals.map((r) => `  ${r.path}: ${r.rule}`).join('\n');

/**
 * The patches onto the workspace at `ws` (absolute, real), as one: exit code and what was said.
 * Shared by `tandem apply` and `tandem run --step N --apply`.
 */
export async function applyPatchFiles(ws: string, files: readonly string[], io: ApplyIo): Promise<{ code: number; applied: string[] }> {
  const read = readPatchFiles(files, io.cwd);
  if ('error' in read) {
    io.stderr(`tandem: ${read.error}\n`);
    return { code: EXIT.usage, applied: [] };
  }
  const one = composeStepPatches(read.patches);
  if ('refusals' in one) {
    io.stderr(`tandem: the patches were not applied, none of them:\n${refusalLines(one.refusals)}\n`);
    return { code: EXIT.usage, applied: [] };
  }
  let result;
  try {
    result = await applyStepPatch(one.patch, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });
  } catch (e) {
    io.stderr(`tandem: the patches could not be applied: ${(e as Error).message}\n`);
    return { code: EXIT.error, applied: [] };
  }
  if (!result.ok) {
    io.stderr(`tandem: the patches were not applied, none of them:\n${refusalLines(result.refusals)}\n`);
    return { code: EXIT.usage, applied: [] };
  }
  return { code: EXIT.done, applied: result.applied };
}

export async function runApplyCommand(args: { patches: string[]; workspace?: string }, io: ApplyIo): Promise<number> {
  const given = path.resolve(io.cwd, args.workspace ?? '.');
  let ws: string;
  try {
    ws = fs.realpathSync(given);
    if (!fs.statSync(ws).isDirectory()) throw new Error('not a folder');
  } catch {
    io.stderr(`tandem: --workspace ${args.workspace ?? '.'} is not a folder\n`);
    return EXIT.usage;
  }
  const { code, applied } = await applyPatchFiles(ws, args.patches, io);
  if (code === EXIT.done) io.stdout(applied.length ? `Applied to ${ws} (not committed): ${applied.join(', ')}\n` : 'Nothing to apply: the patches change nothing.\n');
  return code;
}
