/**
 * Runs a plan step's `check` command after the step's turn. It is a command like any other: it
 * gets a tool card, goes through the same approval policy (a check in a plan is still something the
 * user may refuse to run) and the host's command runner, with the step's cancel signal.
 */
import { relative } from 'node:path';
import type { ApprovalInfo, CheckResult } from '../../protocol';
import type { HostPorts } from '../ports/ports';
import { resolveApproval, type PolicyInput } from '../policy/approvalPolicy';
import { rejectionText } from '../text/rejectionText';
import { capHeadTail } from '../text/truncate';
import type { CardSink } from '../events/cardSink';
import type { CheckRun } from '../plans/stepVerdict';
import { displayFor } from '../tools/tool';
import { runCommandTool } from '../tools/runCommand';
import { changedBetween, snapshotWorkspace } from '../workspace/workspaceSnapshot';
import { workspaceRelative } from '../plans/stepScope';
import { approvalShown } from '../policy/approvalShown';

export interface StepCheckEnv {
  /** The workspace roots (the sandbox keeps the check's writes inside them). */
  roots: readonly string[];
  ui: CardSink;
  host: Pick<HostPorts, 'commands' | 'approver' | 'fs'>;
  policy: PolicyInput;
  cwd: string;
  timeoutMs: number;
  /** Output kept on the card and the step's evidence (head and tail). */
  maxOutputChars: number;
  signal: AbortSignal;
  /**
   * What the step has changed so far, a signature by absolute path: a step in a workspace of its own
   * answers from its patch. Compared before and after the check instead of the whole folder, which a
   * copy-on-write step sees change under it when another step's changes are applied meanwhile.
   */
  changes?(): Promise<ReadonlyMap<string, string>>;
}

export async function runStepCheck(command: string, stepNumber: number, env: StepCheckEnv): Promise<CheckRun> {
  const cardId = env.ui.newId('tool');
  const callId = `check-${cardId}`;
  // Like run_command: in the sandbox when there is one (writable workspace, no network), so the
  // approval policy judges the check exactly as it would judge the same command from the Actor.
  const sandbox = (await env.host.commands.sandboxStatus?.()) ?? { available: false as const, why: 'this host has no command sandbox' };
  // The folder as the user knows it: a step run beside others checks in a copy of the workspace elsewhere.
  const where = env.roots.includes(env.cwd) ? '.' : relative(env.roots[0] ?? env.cwd, env.cwd) || '.';
  const info: ApprovalInfo = sandbox.available
    ? { kind: 'command', command, cwd: env.cwd, where, sandboxed: true }
    : { kind: 'command', command, cwd: env.cwd, where, sandboxed: false, reason: `no sandbox: ${sandbox.why}` };
  env.ui.addCard({
    kind: 'tool_call', id: cardId, call_id: callId, tool: 'run_command', check_step: stepNumber,
    summary: `check of step ${stepNumber}: $ ${command.length > 120 ? `${command.slice(0, 120)}…` : command}`,
    display: displayFor(runCommandTool, { command }), args: { command }, status: 'pending', approval: approvalShown(info), ts: Date.now(),
  });
  const { decision } = await resolveApproval({ callId, tool: 'run_command', info }, env.policy, env.host.approver as HostPorts['approver'], env.signal);
  if (!decision.approved) {
    const why = rejectionText(decision, `running \`${command}\``, 'Nothing was run.');
    env.ui.patchCard(cardId, { status: 'rejected', error: why });
    return { ran: false, why: decision.by === 'policy' ? 'the approval policy does not allow it' : 'it was not approved', result: { command, exit_code: null, output: '' } };
  }
  env.ui.patchCard(cardId, { status: 'running' });
  const isolation = sandbox.available ? { roots: env.roots, workspace: 'writable' as const, network: sandbox.networkByDefault } : undefined;
  // A check verifies; one that changes files (a formatter, a snapshot update) is reported: the step's
  // result is then partly the check's doing, and the person should see which files.
  const snapshot = env.changes ?? (async () => (await snapshotWorkspace(env.host.fs, env.roots)).files);
  const before = await snapshot();
  const res = await env.host.commands.run(command, { cwd: env.cwd, timeoutMs: env.timeoutMs, signal: env.signal, ...(isolation ? { isolation } : {}) });
  const changed = changedBetween(before, await snapshot()).map((abs) => workspaceRelative(abs, env.roots) ?? abs);
  const output = capHeadTail(res.output, env.maxOutputChars);
  const exit = res.timedOut || res.cancelled ? null : res.exitCode;
  const result: CheckResult = { command, exit_code: exit ?? null, output };
  const status = res.timedOut ? 'Timed out.' : res.cancelled ? 'Stopped by the user.' : `Exit code: ${res.exitCode ?? 'none (killed by a signal)'}`;
  env.ui.patchCard(cardId, exit === 0
    ? { status: 'done', result: `${status}\n${output}` }
    : { status: res.cancelled ? 'stopped' : 'error', error: `${status}\n${output}` });
  return { ran: true, result, ...(changed.length ? { changed } : {}) };
}
