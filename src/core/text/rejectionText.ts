/**
 * The one place that words a "no" to an approval request. Two different things end up as
 * `approved: false`, and the model and the user must be able to tell them apart:
 * - a person was asked and said no (`by: 'user'`, the default for any Approver);
 * - the approval policy denied it without asking anyone (`by: 'policy'`: headless `--approve never`,
 *   an outside-workspace or execution-sensitive path under blanket approval). Saying "the user
 *   rejected" there would be false: nobody saw the request, and the model might wrongly conclude
 *   the user does not want the change at all.
 */
import type { ApprovalDecision } from '../ports/ports';

type Rejection = Pick<Extract<ApprovalDecision, { approved: false }>, 'reason' | 'by'>;

/**
 * @param action what was asked, as an object of "rejected": "this change to a.ts", "running `ls`"
 * @param consequence the closing sentence, if known: "Nothing was changed." / "Nothing was run."
 */
export function rejectionText(decision: Rejection, action: string, consequence?: string): string {
  const tail = consequence ? ` ${consequence}` : '';
  if (decision.by === 'policy') {
    return `Not approved: ${decision.reason ?? 'the approval settings do not allow this'}; nobody was asked.${tail}`;
  }
  return `The user rejected ${action}${decision.reason ? `: ${decision.reason}` : ''}.${tail}`;
}
