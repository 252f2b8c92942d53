import type { StepEvidence } from '../../../src/protocol';

export interface StepCheckVerdict {
  command: string;
  /** "passed", "failed", "did not finish", "was not run: it was not approved". */
  result: string;
  passed: boolean;
  output: string;
  /** The step's other reasons, without the one that only restated the check's verdict. */
  why: string[];
}

/**
 * A plan step's check as the plan card says it: once, on the step's "check:" line — the command,
 * then how it ended — with the output behind it. The step's reasons (`evidence.why`) restate that
 * verdict ("the check `npm test` exited 1"); that reason is taken into the line instead of being
 * said again under it (the exit code and the failure line are the run summary's to quote).
 * Undefined when the step has no check result yet.
 */
export function stepCheckVerdict(evidence: StepEvidence | undefined): StepCheckVerdict | undefined {
  const check = evidence?.check;
  if (!check) return undefined;
  const lead = `the check \`${check.command}\` `;
  let told: string | undefined;
  const why = evidence.why.filter((w) => {
    if (told === undefined && w.startsWith(lead) && /^(exited -?\d+|did not finish|was not run\b)/.test(w.slice(lead.length))) {
      told = w.slice(lead.length);
      return false;
    }
    return true;
  });
  const result = check.exit_code === 0 ? 'passed'
    : check.exit_code !== null ? 'failed'
    : told !== undefined && !told.startsWith('exited') ? told
    : 'did not finish';
  return { command: check.command, result, passed: check.exit_code === 0, output: check.output, why };
}
