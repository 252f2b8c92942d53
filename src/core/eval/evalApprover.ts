/**
 * The person behind an eval run, who approves as a user in a hurry would in a throwaway copy:
 * edits, new files and deletions inside the workspace, sandboxed commands without the network, and
 * an amendment once (the action outside the step's scope is allowed, not added to the plan). Never
 * what would need a real person's judgement: paths outside the workspace, commands outside the
 * sandbox or with the network, MCP tools. Each refusal says why, so the model can go on.
 */
import type { ApprovalDecision, ApprovalRequest, Approver } from '../ports/ports';

export class EvalApprover implements Approver {
  async request(req: ApprovalRequest): Promise<ApprovalDecision> {
    const info = req.info;
    switch (info.kind) {
      case 'edit':
      case 'create':
      case 'delete':
        return { approved: true };
      case 'command':
        if (info.sandboxed === false) return refuse('the eval runs commands only in the sandbox');
        if (info.network) return refuse('the eval gives commands no network');
        return { approved: true };
      case 'outside_workspace':
        return refuse('the eval allows nothing outside the task\'s copy of the repository');
      default:
        return refuse('the eval does not run MCP tools');
    }
  }
}

function refuse(reason: string): ApprovalDecision {
  return { approved: false, by: 'policy', reason };
}
