/**
 * Decides, per approval request, whether the user's blanket settings already cover it or the
 * Approver must ask. The rule that matters most: an action on a path **outside the workspace** is
 * never covered by blanket approval (`--approve all`, auto-approve settings, allow-listed
 * commands); only an interactive approval of that very request can allow it, and headless
 * (mode `never`) it is denied. The same holds for files that make code run by themselves
 * (`.vscode/tasks.json`, `.envrc`, git hooks, CI workflows…; the list and its reasons are in
 * executionSensitivePaths.ts): an auto-approved edit there would be code execution nobody approved.
 */
import * as path from 'node:path';
import type { ApprovalInfo } from '../../protocol';
import { allowListEntries, analyzeCommand } from './commandSafety';
import { protectedFileReason } from './writeRules';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../ports/ports';
import { isWithin } from '../workspace/workspacePaths';

/** Which approval classes are granted without asking. Never covers paths outside the workspace. */
export interface ApprovalSettings {
  /** 'ask': ask the Approver for anything not auto-approved; 'never': deny it (headless default). */
  mode: 'ask' | 'never';
  autoApprove: { edit: boolean; create: boolean; delete: boolean; command: boolean };
  /**
   * Plan-scope approval (`tandem.autoApprove.planScope`, `--approve plan`): Execute plan counts as
   * approving each step's in-scope edits, new files and commands; the policy's hard rules still hold
   * and out-of-scope actions are amendments a person decides (plans/amendmentGate.ts).
   */
  planScope?: boolean;
}

/**
 * `hard`: a rule blanket approval never covers (outside the workspace, files that run code or decide
 * what the agent may read, MCP tools not allowed by name) — a user's hook cannot allow past it either.
 * `hook`: what a hook's permission decision did to the verdict.
 */
export type ApprovalVerdict =
  | { kind: 'auto'; why: string; hook?: 'allowed' }
  | { kind: 'ask'; why: string; hard?: true; hook?: 'asked' | 'not_reached' }
  | { kind: 'deny'; why: string; hard?: true; hook?: 'asked' | 'not_reached' };

/** A user's PreToolUse hook's `permissionDecision` that reaches the policy (a deny never gets here: it blocks the call). */
export interface HookPermission {
  decision: 'allow' | 'ask';
  reason?: string;
}

export interface PolicyInput {
  approval: ApprovalSettings;
  commandAllowList: readonly string[];
  roots: readonly string[];
  /** MCP tools (`server__tool`) the user allowed to run without asking; nothing else covers them. */
  allowedTools?: readonly string[];
}

/**
 * What "Always allow" on a command's card would add to the allow-list, or why it is not offered:
 * the list only ever covers sandboxed commands inside the workspace that need no network.
 */
export function allowRuleFor(info: ApprovalInfo, roots: readonly string[]): NonNullable<ApprovalInfo['allow']> | undefined {
  if (info.kind !== 'command') return undefined;
  if (isOutsideWorkspace(info, roots)) return { refused: 'it runs outside the workspace, which always needs your approval' };
  if (info.sandboxed !== true) return { refused: 'commands run without a sandbox here, and the allow-list covers sandboxed commands only' };
  if (info.network) return { refused: 'it needs the network, which always needs your approval' };
  return allowListEntries(info.command ?? '');
}

/** True when the request touches something outside every workspace root. */
export function isOutsideWorkspace(info: ApprovalInfo, roots: readonly string[]): boolean {
  if (info.kind === 'outside_workspace') return true;
  const real = info.real_path;
  if (real && !roots.some((r) => isWithin(r, real))) return true;
  const cwd = info.cwd;
  if (info.kind === 'command' && cwd && cwd.startsWith('/') && !roots.some((r) => isWithin(r, cwd))) return true;
  return false;
}

/** Why changing this file could run code by itself (executionSensitivePaths.ts), judged on its workspace-relative path and its real path. */
function sensitiveFileReason(info: ApprovalInfo, roots: readonly string[]): { why: string; name: string; what: string } | undefined {
  // A change to several files (a rename) is as sensitive as its most sensitive file.
  const rels: string[] = [...(info.aliases ?? []), ...(info.files ?? []).map((f) => f.path)];
  if (info.path && !path.isAbsolute(info.path)) rels.push(info.path);
  const real = info.real_path ?? (info.path && path.isAbsolute(info.path) ? info.path : undefined);
  const root = real ? roots.find((r) => isWithin(r, real)) : undefined;
  if (real && root) rels.push(path.relative(root, real));
  for (const rel of rels) {
    const name = rel.split(path.sep).join('/');
    const reason = protectedFileReason(rel);
    if (reason) return { ...reason, name };
  }
  return undefined;
}

/**
 * The policy's verdict, then a hook's decision over it: `allow` approves what would be asked about
 * or refused for want of a person (the user's own policy, written as a program) but never a hard
 * rule; `ask` asks even what blanket approval covers, and is refused where nobody can be asked.
 */
export function decideApproval(info: ApprovalInfo, p: PolicyInput, hook?: HookPermission): ApprovalVerdict {
  const verdict = policyVerdict(info, p);
  if (!hook) return verdict;
  const said = hook.reason ? ` (${hook.reason})` : '';
  if (hook.decision === 'allow') {
    if (verdict.kind === 'auto') return { ...verdict, hook: 'allowed' };
    if (verdict.hard) return { ...verdict, hook: 'not_reached' };
    return { kind: 'auto', why: `allowed by your hook${said}`, hook: 'allowed' };
  }
  if (verdict.kind !== 'auto') return verdict;
  return p.approval.mode === 'ask'
    ? { kind: 'ask', why: `your hook asks for your approval${said}`, hook: 'asked' }
    : { kind: 'deny', why: `your hook asks for a person's approval${said}, and this run has nobody to ask (--approve never, or no terminal to ask in)`, hook: 'asked' };
}

function policyVerdict(info: ApprovalInfo, p: PolicyInput): ApprovalVerdict {
  const interactive = p.approval.mode === 'ask';
  // Mode 'never' is `--approve never` or a run with no terminal to ask in: say so, since nobody will be asked.
  const fallback = (why: string): Extract<ApprovalVerdict, { kind: 'ask' | 'deny' }> =>
    interactive ? { kind: 'ask', why } : { kind: 'deny', why: `${why}, and this run does not allow that without a person (--approve never, or no terminal to ask in)` };

  if (isOutsideWorkspace(info, p.roots)) {
    return interactive
      ? { kind: 'ask', why: 'outside the workspace: only an explicit approval of this path can allow it', hard: true }
      : { kind: 'deny', why: `${info.real_path ?? info.path ?? 'the path'} is outside the workspace; blanket approval never covers it and nobody can approve it here`, hard: true };
  }
  const sensitive = info.kind === 'edit' || info.kind === 'create' || info.kind === 'delete' ? sensitiveFileReason(info, p.roots) : undefined;
  if (sensitive) {
    const given = info.path ?? 'this file';
    const shown = given === sensitive.name ? given : `${given} (reached as ${sensitive.name} through a symlink)`;
    return interactive
      ? { kind: 'ask', why: `${shown} ${sensitive.what} (${sensitive.why}): only an explicit approval of this change can allow it`, hard: true }
      : {
          kind: 'deny',
          hard: true,
          why:
            `${shown} ${sensitive.what} (${sensitive.why}); blanket approval (--approve edits|all, auto-approve settings) ` +
            'never covers such files and nobody can approve this change here. Ask the user to make or approve it interactively',
        };
  }
  const auto = p.approval.autoApprove;
  switch (info.kind) {
    case 'edit':
      return auto.edit ? { kind: 'auto', why: 'edits are auto-approved' } : fallback('edits need approval');
    case 'create':
      return auto.create ? { kind: 'auto', why: 'new files are auto-approved' } : fallback('new files need approval');
    case 'delete':
      return auto.delete ? { kind: 'auto', why: 'deletions are auto-approved' } : fallback('deletions need approval');
    case 'command': {
      // Parsing a command cannot tell where it writes (`cd ..`, `$(…)`, here-docs): only the sandbox
      // bounds it, so blanket approval covers sandboxed commands only, and never a network request.
      if (info.sandboxed !== true) return fallback(`${info.reason ?? 'commands run without a sandbox here'}, so each command needs a person's approval`);
      if (info.network) return fallback('this command needs the network, which sandboxed commands do not get without an approval of this command');
      if (auto.command) return { kind: 'auto', why: 'commands are auto-approved (in the sandbox)' };
      const a = analyzeCommand(info.command ?? '', p.commandAllowList);
      if (a.allowListed) return { kind: 'auto', why: 'every part of the command is on the allow-list' };
      const why = a.risks.length ? `needs approval: ${a.risks.join(', ')}` : a.unmatched.length ? `not on the allow-list: ${a.unmatched.join('; ')}` : 'commands need approval';
      return fallback(why);
    }
    case 'mcp':
      // An MCP tool's effects are unknown: no blanket setting or flag covers it, only naming the tool.
      if (info.tool_name && p.allowedTools?.includes(info.tool_name)) return { kind: 'auto', why: `${info.tool_name} is allowed by you` };
      return { ...fallback(`MCP tools need approval unless you allow the tool by name${info.tool_name ? ` (${info.tool_name})` : ''}`), hard: true };
    default:
      return fallback('needs approval');
  }
}

/** Applies the verdict: auto-approves, denies, or asks the Approver (which may be a person). */
export async function resolveApproval(
  req: ApprovalRequest,
  p: PolicyInput,
  approver: Approver,
  signal: AbortSignal,
  hook?: HookPermission,
): Promise<{ decision: ApprovalDecision; verdict: ApprovalVerdict }> {
  const verdict = decideApproval(req.info, p, hook);
  if (verdict.kind === 'auto') return { decision: { approved: true }, verdict };
  // Denied by the policy alone: nobody was asked, and rejectionText.ts must say so rather than "the user rejected".
  if (verdict.kind === 'deny') return { decision: { approved: false, reason: verdict.why, by: 'policy' }, verdict };
  return { decision: await approver.request(req, signal), verdict };
}

/**
 * The CLI's `--approve` flag as settings. `undefined` = no flag: ask when there is a terminal, else never.
 * No flag answers an amendment (an action outside the executing plan step's scope): with a terminal
 * it is asked, without one it is refused and the run stops (exit 3).
 */
export function approvalFromFlag(flag: 'never' | 'edits' | 'plan' | 'all' | undefined, isTty: boolean): ApprovalSettings {
  const none = { edit: false, create: false, delete: false, command: false };
  switch (flag) {
    // Executing a plan approves each step's in-scope edits and commands; nothing else is allowed unasked.
    case 'plan':
      return { mode: isTty ? 'ask' : 'never', autoApprove: none, planScope: true };
    case 'never':
      return { mode: 'never', autoApprove: none };
    case 'edits':
      return { mode: isTty ? 'ask' : 'never', autoApprove: { ...none, edit: true, create: true } };
    case 'all':
      return { mode: isTty ? 'ask' : 'never', autoApprove: { edit: true, create: true, delete: true, command: true } };
    default:
      return { mode: isTty ? 'ask' : 'never', autoApprove: none };
  }
}
