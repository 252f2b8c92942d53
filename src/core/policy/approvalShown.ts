import type { ApprovalInfo } from '../../protocol';

/**
 * An approval as its card keeps it. A command's absolute folder stays with the policy (it judges
 * whether the command runs inside the workspace) and goes on the card only when the workspace does
 * not name the folder (`where`): a step run beside others works in a copy elsewhere (/dev/shm/…),
 * a folder the user never chose, which no card, saved task or export should show.
 */
export function approvalShown<T extends ApprovalInfo>(info: T): T {
  if (info.where === undefined || info.cwd === undefined) return info;
  const { cwd: _policyOnly, ...shown } = info;
  return shown as T;
}
