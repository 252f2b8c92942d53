import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../core/ports/ports';
import { PendingRequests } from './pendingRequests';

/**
 * Approvals answered in the chat: the core has already put the tool-call card in `pending` with
 * what is asked (command and folder, path to delete, real path outside the workspace); this waits
 * for the card's Approve / Reject, which the panel forwards as `approve` / `reject` messages.
 */
export class PanelApprover implements Approver, vscode.Disposable {
  private readonly pending = new PendingRequests<ApprovalDecision>();
  private readonly requested = new vscode.EventEmitter<ApprovalRequest>();
  /** Fires when something waits on the user, so the composition root can reveal the chat. */
  readonly onDidRequest = this.requested.event;
  private readonly requests = new Map<string, ApprovalRequest>();

  request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    this.requests.set(req.callId, req);
    const decided = this.pending.wait(req.callId, signal, () => ({ approved: false, reason: 'stopped by the user' }));
    this.requested.fire(req);
    return decided.finally(() => this.requests.delete(req.callId));
  }

  /** The chat card's Approve (an amendment's Allow once, or Add to the plan), with what the user typed with it. False when no such call waits (stale or forged message). */
  approve(callId: string, note?: string, addToPlan?: boolean): boolean {
    // "Add to the plan" means something only for an amendment; on an ordinary approval it is dropped.
    const add = addToPlan === true && this.requests.get(callId)?.info.amendment !== undefined;
    return this.pending.settle(callId, { approved: true, ...(note?.trim() ? { note: note.trim() } : {}), ...(add ? { addToPlan: true } : {}) });
  }

  /** The chat card's Reject, with the user's optional reason (goes back to the model). */
  reject(callId: string, reason?: string): boolean {
    return this.pending.settle(callId, reason ? { approved: false, reason } : { approved: false });
  }

  isPending(callId: string): boolean { return this.pending.has(callId); }
  pendingRequest(callId: string): ApprovalRequest | undefined { return this.requests.get(callId); }
  pendingIds(): string[] { return this.pending.ids(); }

  dispose(): void { this.requested.dispose(); }
}
