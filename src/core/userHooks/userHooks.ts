/**
 * The user's own commands at fixed points of a task (PreToolUse, PostToolUse, UserPromptSubmit,
 * Stop, SubagentStop, SessionStart), run through the host's HookProcess port with one JSON object
 * on stdin, as Claude Code runs them. Not to be confused with the agent's internal observers
 * (core/turn/turnHooks.ts, core/runtime/combineHooks.ts): those are code; these are the user's
 * programs. What a result means is hookResult.ts; what it may change (never past a role's
 * permissions or the hard rules) is decided where the call is dispatched.
 */
import type { Logger } from '../ports/ports';
import { matcherRegex, type HookCommand, type HookEvent } from './hookConfig';
import type { HookProcess } from './hookProcess';
import { hookNamesFor, hookToolName } from './hookToolNames';
import { hookToolInput } from './hookInput';
import { readHookResult, type HookVerdict, type PermissionDecision } from './hookResult';

/** Each of a hook's stdout and stderr is cut to this (a hook that prints a build log cannot flood the model). */
export const HOOK_OUTPUT_CHARS = 64_000;

/** Where in the task a hook runs: what the stdin object says beside the event's own fields. */
export interface HookScope {
  sessionId: string;
  role: string;
  /** The plan step being executed (1-based), when one is. */
  planStep?: number;
  /** The folder the calls work in, when not the workspace (a plan step's worktree): the hooks run there. */
  cwd?: string;
  signal?: AbortSignal;
}

export interface HookToolCall {
  callId: string;
  tool: string;
  isMcp: boolean;
  args: unknown;
}

/** What the hooks of one event said together. */
export interface HooksOutcome {
  /** Some hook blocked (exit 2, decision block, deny): the reasons, one per hook. */
  block?: string;
  /** The strongest permission decision any hook gave (deny > ask > allow), with its reason. */
  permission?: { decision: PermissionDecision; reason?: string };
  /** Text for the model, from every hook that gave some. */
  context?: string;
  /** Hooks that failed (other exits, crashes, timeouts): shown as warnings, never blocking. */
  warnings: string[];
}

/**
 * Where a host gets the hooks in force as a turn starts. `waiting` says the turn waits on the user
 * meanwhile (the editor asks whether to trust a repository's hooks first), so the chat does not look idle.
 */
export type UserHooksSource = (ui: { waiting(detail: string): void }) => UserHooks | undefined | Promise<UserHooks | undefined>;

const NOTHING: HooksOutcome = { warnings: [] };
const RANK: Record<PermissionDecision, number> = { allow: 1, ask: 2, deny: 3 };

export interface UserHooksOptions {
  commands: readonly HookCommand[];
  process: HookProcess;
  /** The workspace folder: the hooks' folder, `cwd` on stdin and CLAUDE_PROJECT_DIR. */
  cwd: string;
  logger: Logger;
}

export class UserHooks {
  constructor(private readonly opts: UserHooksOptions) {}

  get commands(): readonly HookCommand[] {
    return this.opts.commands;
  }

  has(event: HookEvent): boolean {
    return this.opts.commands.some((c) => c.event === event);
  }

  preToolUse(call: HookToolCall, scope: HookScope): Promise<HooksOutcome> {
    return this.runTool('PreToolUse', call, scope, {});
  }

  postToolUse(call: HookToolCall, response: Record<string, unknown>, scope: HookScope): Promise<HooksOutcome> {
    return this.runTool('PostToolUse', call, scope, { tool_response: response });
  }

  userPromptSubmit(prompt: string, scope: HookScope): Promise<HooksOutcome> {
    return this.run('UserPromptSubmit', this.opts.commands.filter((c) => c.event === 'UserPromptSubmit'), scope, { prompt }, true);
  }

  sessionStart(source: 'startup' | 'resume', scope: HookScope): Promise<HooksOutcome> {
    return this.run('SessionStart', this.opts.commands.filter((c) => c.event === 'SessionStart'), scope, { source }, true);
  }

  /** `active`: the agent is already at work again because a Stop hook sent it back (Claude Code's stop_hook_active). */
  stop(event: 'Stop' | 'SubagentStop', active: boolean, scope: HookScope): Promise<HooksOutcome> {
    return this.run(event, this.opts.commands.filter((c) => c.event === event), scope, { stop_hook_active: active }, false);
  }

  private runTool(event: 'PreToolUse' | 'PostToolUse', call: HookToolCall, scope: HookScope, extra: Record<string, unknown>): Promise<HooksOutcome> {
    const names = hookNamesFor(call.tool, call.isMcp);
    const matching = this.opts.commands.filter((c) => {
      if (c.event !== event) return false;
      const re = matcherRegex(c.matcher);
      return re !== undefined && names.some((n) => re.test(n));
    });
    return this.run(event, matching, scope, {
      tool_name: hookToolName(call.tool, call.isMcp),
      tandem_tool_name: call.tool,
      tool_input: hookToolInput(call.tool, call.args, scope.cwd ?? this.opts.cwd),
      tool_use_id: call.callId,
      ...extra,
    }, false);
  }

  private async run(event: HookEvent, matching: HookCommand[], scope: HookScope, fields: Record<string, unknown>, plainStdoutIsContext: boolean): Promise<HooksOutcome> {
    // The same command listed twice (a user file and a repository's) runs once, as in Claude Code.
    const seen = new Set<string>();
    const hooks = matching.filter((c) => (seen.has(c.command) ? false : (seen.add(c.command), true)));
    if (!hooks.length) return NOTHING;
    const cwd = scope.cwd ?? this.opts.cwd;
    const stdin = JSON.stringify({
      session_id: scope.sessionId,
      transcript_path: null,
      cwd,
      hook_event_name: event,
      ...fields,
      tandem_role: scope.role,
      plan_step: scope.planStep ?? null,
    });
    // In parallel, as Claude Code runs an event's hooks; each has its own timeout.
    const verdicts = await Promise.all(hooks.map(async (h): Promise<HookVerdict> => {
      try {
        const r = await this.opts.process.run({
          command: h.command,
          cwd,
          stdin,
          timeoutMs: h.timeoutMs,
          maxOutputChars: HOOK_OUTPUT_CHARS,
          env: { CLAUDE_PROJECT_DIR: cwd, TANDEM_PROJECT_DIR: cwd },
          ...(scope.signal ? { signal: scope.signal } : {}),
        });
        return readHookResult(h, r, plainStdoutIsContext);
      } catch (err) {
        return { failure: `${event} hook "${h.command}" failed: ${err instanceof Error ? err.message : String(err)}` };
      }
    }));
    const out: HooksOutcome = { warnings: [] };
    const blocks: string[] = [];
    const contexts: string[] = [];
    for (const v of verdicts) {
      if (v.failure) {
        out.warnings.push(v.failure);
        this.opts.logger.warn(`hooks: ${v.failure}`);
      }
      if (v.block) blocks.push(v.block);
      if (v.context) contexts.push(v.context);
      if (v.permission && (!out.permission || RANK[v.permission.decision] > RANK[out.permission.decision])) out.permission = v.permission;
    }
    if (blocks.length) out.block = blocks.join('\n');
    if (contexts.length) out.context = contexts.join('\n');
    return out;
  }
}
