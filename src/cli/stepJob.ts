/**
 * `tandem run --plan FILE --step N [--apply PATCH]… --emit-patch OUT`: one step of a plan as a job
 * anywhere (a CI matrix job, another machine). The patches of the steps it depends on are applied to
 * the workspace first (tandem apply's function and rules); the step then runs in a step workspace of
 * its own made from that (as a step beside another does), every other step counted as run elsewhere;
 * what it changed there — inside its files — is written to OUT as a step patch, never to the
 * workspace. `tandem apply` puts the jobs' patches together.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stepWorkspaceName, type StepWorkspace, type StepWorkspaces } from '../core/ports/stepWorkspaces';
import type { PlanRecord } from '../core/plans/planRecord';
import { fileInScope } from '../core/plans/stepScope';
import { encodeStepPatch } from '../core/planRuns/stepPatchFile';
import { writeFileAtomic } from '../core/storage/atomicWrite';
import { applyPatchFiles, type ApplyIo } from './applyCommand';
import { EXIT } from './commands';

export interface StepJob {
  steps: StepWorkspaces;
  made: StepWorkspace;
  step: number;
}

/** The dependencies' patches applied, and the step's workspace made; or the exit code when it cannot run. */
export async function prepareStepJob(ws: string, step: number, patches: readonly string[], steps: StepWorkspaces, io: ApplyIo): Promise<StepJob | { code: number }> {
  const why = await steps.unavailable(ws);
  if (why) {
    io.stderr(`tandem: --step runs the step in a workspace of its own (a copy-on-write view or a git worktree), but ${why}\n`);
    return { code: EXIT.usage };
  }
  if (patches.length) {
    const applied = await applyPatchFiles(ws, patches, io);
    if (applied.code !== EXIT.done) return { code: applied.code };
    io.stderr(`tandem: applied ${patches.length} patch${patches.length === 1 ? '' : 'es'} first: ${applied.applied.join(', ') || 'no change'}\n`);
  }
  const made = await steps.create(ws, `step${step}`);
  try {
    await made.ready;
  } catch (e) {
    await steps.remove(made);
    io.stderr(`tandem: step ${step}'s ${stepWorkspaceName(made.kind)} could not be made: ${(e as Error).message}\n`);
    return { code: EXIT.error };
  }
  return { steps, made, step };
}

/**
 * After the run: the step's patch (its files only) written to `out` when the step ended done or
 * unverified (what a run beside other steps would apply), never for a failed one; the step's
 * workspace removed. Returns an exit code only when it must change the run's.
 */
export async function finishStepJob(job: StepJob, record: PlanRecord | undefined, out: string, io: ApplyIo): Promise<number | undefined> {
  try {
    const state = record?.stepStates[String(job.step)];
    const files = record?.plan?.steps.find((s) => s.step_number === job.step)?.files ?? [];
    if (state !== 'done' && state !== 'unverified') {
      io.stderr(`tandem: step ${job.step} ended ${state ?? 'without running'}; no patch was written\n`);
      return undefined;
    }
    let patch;
    try {
      patch = await job.steps.readPatch(job.made);
    } catch (e) {
      io.stderr(`tandem: step ${job.step}'s changes cannot be a patch: ${(e as Error).message}; no patch was written\n`);
      return EXIT.error;
    }
    const inside = patch.entries.filter((e) => fileInScope(files, e.path));
    const leftOut = patch.entries.filter((e) => !fileInScope(files, e.path)).map((e) => e.path);
    const abs = path.resolve(io.cwd, out);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const notCarried = patch.notCarried ?? [];
    writeFileAtomic(abs, encodeStepPatch({ entries: inside, ...(notCarried.length ? { notCarried } : {}) }, job.step));
    // What the patch cannot carry is named now, and again by `tandem apply`, which refuses it.
    const refused = notCarried.length ? `; not carried, so applying it is refused: ${notCarried.map((n) => `${n.path} (${n.rule})`).join(', ')}` : '';
    io.stderr(`tandem: step ${job.step}'s patch written to ${abs}: ${inside.map((e) => e.path).join(', ') || 'no change'}${leftOut.length ? ` (left out, outside the step's files: ${leftOut.join(', ')})` : ''}${refused}\n`);
    return undefined;
  } finally {
    await job.steps.remove(job.made);
  }
}
