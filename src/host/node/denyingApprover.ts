import type { ApprovalDecision, Approver } from '../../core/ports/ports';

/** Headless: nobody to ask, so anything the policy did not auto-approve is denied. */
export class DenyingApprover implements Approver {
  async request(): Promise<ApprovalDecision> {
    return { approved: false, by: 'policy', reason: 'nobody can approve actions here (headless; see --approve)' };
  }
}
