/**
 * Approvals while a plan step runs, decided at dispatch (never in a webview):
 * - an action inside the step's scope (stepScope.ts) is an ordinary approval, except that with
 *   plan-scope approval on (`tandem.autoApprove.planScope`, `--approve plan`) executing the plan
 *   counts as approving the step's in-scope edits, new files and commands. The approval policy
 *   still judges them: paths outside the workspace, files that run code by themselves, commands
 *   without the sandbox or with the network are asked (or refused headless) as before;
 * - an action outside the step's scope is an **amendment**: only a person decides it — Allow once,
 *   Add to the plan (a new version with the step's scope widened), or Reject. No blanket approval
 *   answers it: not `--approve all`, not the auto-approve settings, not plan-scope approval. Where
 *   nobody can be asked (headless), it is refused and the run stops waiting (CLI exit 3).
 * Why: the approved plan is the contract; an agent drifting from it must stop at the person who
 * approved it, whatever blanket permissions they gave for ordinary work.
 */
import type { Amendment, ApprovalInfo } from '../../protocol';
import type { PolicyInput } from '../policy/approvalPolicy';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../ports/ports';
import { commandEntryProblem, fileEntryProblem } from './scopeEntryRules';
import type { Planning } from './planning';
import { changedPaths, judgeScope, type ScopeAddition } from './stepScope';

/** The kinds plan-scope approval may cover: deletions are never blanket-approved by a plan. */
const PLAN_SCOPE_KINDS = { edit: 'edit', create: 'create', command: 'command' } as const;

/** The policy for an action the plan authorises: plan-scope approval counts as auto-approval of its kind. */
export function inScopePolicy(policy: PolicyInput, kind: ApprovalInfo['kind']): PolicyInput {
  const key = PLAN_SCOPE_KINDS[kind as keyof typeof PLAN_SCOPE_KINDS];
  if (!policy.approval.planScope || !key) return policy;
  return { ...policy, approval: { ...policy.approval, autoApprove: { ...policy.approval.autoApprove, [key]: true } } };
}

export type StepApproval =
  /** Not during a step, or not a question of scope: the ordinary policy (widened for in-scope actions). */
  | { kind: 'ordinary'; policy: PolicyInput }
  | { kind: 'amendment'; amendment: Amendment };

/** Classifies one approval request against the plan step being executed, if any. */
export function classifyStepApproval(planning: Planning | undefined, info: ApprovalInfo, policy: PolicyInput): StepApproval {
  const exec = planning?.execution;
  const step = exec && exec.step > 0 ? exec.record.plan.steps.find((s) => s.step_number === exec.step) : undefined;
  if (!exec || !step) return { kind: 'ordinary', policy };
  const judged = judgeScope(info, step, policy.roots);
  if (judged.inScope === true) return { kind: 'ordinary', policy: inScopePolicy(policy, info.kind) };
  if (judged.inScope === undefined) return { kind: 'ordinary', policy };
  return {
    kind: 'amendment',
    amendment: {
      plan_id: exec.record.cardId,
      plan_version: exec.record.version,
      step_number: step.step_number,
      text: judged.text,
      add: addable(judged.add),
      outcome: 'asked',
    },
  };
}

/** Only what a valid plan could hold can be added to it (else the card offers Allow once / Reject). */
function addable(add: ScopeAddition): ScopeAddition {
  const files = (add.files ?? []).filter((f) => f.length <= 500 && !fileEntryProblem(f));
  const commands = (add.commands ?? []).filter((c) => c.length <= 500 && !commandEntryProblem(c, 'command'));
  return { ...(files.length ? { files } : {}), ...(commands.length ? { commands } : {}) };
}

export interface AmendmentDeps {
  planning: Planning;
  approver: Approver;
  signal: AbortSignal;
  /** Shows the amendment on the call's card and in the event stream. */
  show(amendment: Amendment): void;
  /** The agent waits on a person (or stops waiting). */
  waiting(on: boolean): void;
}

export interface AmendmentResult {
  decision: ApprovalDecision;
  /** Nobody may decide it here: the turn must stop, waiting (CLI exit 3). */
  halt: boolean;
}

/** Decides an amendment: asks a person, or refuses it where nobody can be asked. */
export async function decideAmendment(req: ApprovalRequest, amendment: Amendment, policy: PolicyInput, deps: AmendmentDeps): Promise<AmendmentResult> {
  if (policy.approval.mode !== 'ask') {
    const refused: Amendment = { ...amendment, outcome: 'refused' };
    deps.show(refused);
    deps.planning.noteRefusedAmendment(refused);
    const reason =
      `${amendment.text}. Only a person can allow an action outside the step's scope (blanket approval — --approve plan|all, ` +
      'auto-approve settings — never does), and nobody can be asked here. The run stops here';
    return { decision: { approved: false, reason, by: 'policy' }, halt: true };
  }
  deps.show(amendment);
  deps.waiting(true);
  let decision: ApprovalDecision;
  try {
    decision = await deps.approver.request({ ...req, info: { ...req.info, amendment } }, deps.signal);
  } finally {
    deps.waiting(false);
  }
  if (!decision.approved) {
    deps.show({ ...amendment, outcome: 'rejected' });
    return { decision, halt: false };
  }
  if (decision.addToPlan && (amendment.add.files?.length || amendment.add.commands?.length)) {
    const added = deps.planning.amendStep(amendment.step_number, amendment.add, amendment.text);
    if (added) {
      deps.show({ ...amendment, outcome: 'added', added_version: added.version, change: added.change });
      return { decision, halt: false };
    }
  }
  deps.show({ ...amendment, outcome: 'allowed_once' });
  // A step in a worktree brings these back to the workspace with its own files (the person allowed them).
  deps.planning.noteAllowedOnce(changedPaths(req.info, policy.roots));
  return { decision, halt: false };
}
