/**
 * What one hook's run means, read the way Claude Code reads it: exit 0 goes on (its stdout may be
 * JSON with a decision, or plain text that is context for the model where the event takes
 * context); exit 2 blocks, with stderr as the reason; any other exit, a crash or a timeout is a
 * failure that is reported and blocks nothing.
 */
import type { HookCommand } from './hookConfig';
import type { HookProcessResult } from './hookProcess';

export type PermissionDecision = 'allow' | 'deny' | 'ask';

export interface HookVerdict {
  /** Exit 2, `"decision": "block"`, or `permissionDecision: "deny"`. */
  block?: string;
  permission?: { decision: PermissionDecision; reason?: string };
  /** Text for the model: plain stdout (UserPromptSubmit, SessionStart) or `additionalContext`. */
  context?: string;
  /** The hook failed (other exit, crash, timeout, unreadable JSON): said on the card and in the log. */
  failure?: string;
}

/** A reason as the model and the card get it: trimmed and not endless. */
const MAX_REASON = 4000;
export const reasonText = (s: string): string => (s.length > MAX_REASON ? `${s.slice(0, MAX_REASON)}…` : s).trim();

function shortCommand(c: string): string {
  const one = c.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 77)}…` : one;
}

export function describeHook(h: HookCommand): string {
  return `${h.event} hook "${shortCommand(h.command)}"`;
}

export function readHookResult(h: HookCommand, r: HookProcessResult, plainStdoutIsContext: boolean): HookVerdict {
  const who = describeHook(h);
  if (r.spawnError) return { failure: `${who} could not start: ${r.spawnError}` };
  if (r.timedOut) return { failure: `${who} was killed after its timeout of ${Math.round(h.timeoutMs / 1000)} s` };
  if (r.exitCode === 2) return { block: reasonText(r.stderr) || `${who} exited with 2 and gave no reason` };
  if (r.exitCode !== 0) {
    const err = reasonText(r.stderr).split('\n').slice(-3).join(' ');
    return { failure: `${who} ${r.exitCode === null ? 'was killed' : `exited with ${r.exitCode}`}${err ? `: ${err}` : ''}` };
  }
  const out = r.stdout.trim();
  if (!out.startsWith('{')) return plainStdoutIsContext && out ? { context: reasonText(out) } : {};
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(out) as Record<string, unknown>;
  } catch {
    return plainStdoutIsContext ? { context: reasonText(out) } : {};
  }
  const v: HookVerdict = {};
  const specific = (typeof json.hookSpecificOutput === 'object' && json.hookSpecificOutput !== null ? json.hookSpecificOutput : {}) as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
  const decision = str(specific.permissionDecision);
  const reason = str(specific.permissionDecisionReason) ?? str(json.reason);
  if (decision === 'allow' || decision === 'deny' || decision === 'ask') v.permission = { decision, ...(reason ? { reason: reasonText(reason) } : {}) };
  else if (decision !== undefined) v.failure = `${who} said permissionDecision "${decision}", which is none of allow, deny, ask; ignored`;
  // Claude Code's older top-level form: "decision": "approve" | "block".
  if (json.decision === 'block') v.block = reasonText(reason ?? '') || `${who} blocked this and gave no reason`;
  else if (json.decision === 'approve' && !v.permission) v.permission = { decision: 'allow', ...(reason ? { reason: reasonText(reason) } : {}) };
  if (v.permission?.decision === 'deny') v.block = v.permission.reason ?? `${who} denied this and gave no reason`;
  // "continue": false stops the agent in Claude Code; here it blocks what the hook was asked about
  // (at Stop the agent stops anyway: there it changes nothing).
  if (json.continue === false && h.event !== 'Stop' && h.event !== 'SubagentStop') v.block = reasonText(str(json.stopReason) ?? reason ?? '') || `${who} said not to continue`;
  const context = str(specific.additionalContext);
  if (context) v.context = reasonText(context);
  return v;
}
