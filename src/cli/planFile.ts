/**
 * The plan file `tandem plan --out FILE.json` writes and `tandem run --role actor --plan FILE.json`
 * reads: the validated plan's own fields (so a person can read and edit it), plus its provenance
 * under `provenance` (ignored when the file is read back; the plan is re-validated anyway).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlanRecord } from '../core/plans/planRecord';

export function planFileContents(record: PlanRecord): string {
  if (!record.plan) throw new Error('refusing to write an unvalidated plan');
  const p = record.provenance;
  return JSON.stringify({
    ...record.plan,
    provenance: {
      model: p.model, via: p.path, repairs: p.repairs, created_at: new Date(p.createdAt).toISOString(),
      attempts: p.attempts.map((a) => ({ via: a.path, errors: a.errors, raw: a.raw })),
      ...(p.feedback ? { feedback: p.feedback } : {}),
    },
  }, null, 2) + '\n';
}

/** Atomic: a reader never sees half a plan (temp file + rename in the same folder). */
export function writePlanFile(file: string, record: PlanRecord): void {
  const abs = path.resolve(file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  const tmp = `${abs}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, planFileContents(record));
  fs.renameSync(tmp, abs);
}

/** The plan file's text, read from `file` under `cwd`; undefined once it has said on stderr why it cannot be read. */
export function readPlanFile(file: string, io: { cwd: string; stderr: (s: string) => void }): { abs: string; raw: string } | undefined {
  const abs = path.resolve(io.cwd, file);
  try {
    return { abs, raw: fs.readFileSync(abs, 'utf8') };
  } catch (e) {
    io.stderr(`tandem: cannot read the plan file ${abs}: ${(e as Error).message}\n`);
    return undefined;
  }
}
