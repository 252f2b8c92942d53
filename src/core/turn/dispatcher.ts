/**
 * Runs the tool calls of one assistant message. Every call is checked here, at dispatch, against
 * the role in force — whatever the model was offered — then its arguments are parsed and
 * zod-validated, then it runs. Nothing a model sends can throw out of here: every call ends
 * with a result for the model and a final card status.
 *
 * Read-only calls next to each other run concurrently; any other call runs alone, in order.
 */
import { missingPermissions, type Permission, type ToolCallStatus } from '../../protocol';
import type { ApprovalInfo, CommandExit } from '../../protocol';
import { QuestionUnanswerable, type ApprovalDecision, type ApprovalRequest, type HostPorts } from '../ports/ports';
import type { RoleDef } from '../roles/roles';
import type { ReadTracker } from '../tools/readTracker';
import type { LimitSettings } from '../settings/settings';
import type { Tool, ToolContext, ToolResult } from '../tools/tool';
import { presentCall, ToolError } from '../tools/tool';
import { capHeadTail } from '../text/truncate';
import { rejectionText } from '../text/rejectionText';
import { maskSecret } from '../secrets/secretMask';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import type { EventStream } from '../events';
import { mapProviderStrings, type AccumulatedToolCall } from '../llm';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { Planning } from '../plans/planning';
import { allowRuleFor, decideApproval, resolveApproval, type HookPermission, type PolicyInput } from '../policy/approvalPolicy';
import type { HookScope, HooksOutcome, HookToolCall, UserHooks } from '../userHooks/userHooks';
import type { HookNote } from '../../protocol';
import { classifyStepApproval, decideAmendment } from '../plans/amendmentGate';
import type { SettledToolCall } from './turnHooks';
import type { ExplorerPort } from '../tools/explorerPort';
import { approvalShown } from '../policy/approvalShown';

export interface DispatchEnv {
  /** The role in force right now (checked per call, at dispatch). */
  role(): RoleDef;
  tools: ToolRegistry;
  events: EventStream;
  host: HostPorts;
  paths: WorkspacePaths;
  reads: ReadTracker;
  signal: AbortSignal;
  limits: LimitSettings;
  policy(): PolicyInput;
  /** The API key in force (optional): masked in tool output before the model, the chat or history see it. */
  secret?(): string | undefined;
  /** Handed to tools that show cards of their own or work with plans (see ToolContext). */
  planning?: Planning;
  /** The `explore` tool's child agents (absent: explorers are off, or this is an explorer). */
  explorers?: ExplorerPort;
  beforeChange?(absPath: string, callId: string): Promise<void>;
  /** Told once per call, when its card has its final status. */
  onSettled?(call: SettledToolCall): void;
  /** The user's own PreToolUse/PostToolUse commands, and where in the task a call is (their stdin). */
  userHooks?: { hooks: UserHooks; scope(): Omit<HookScope, 'signal'> };
  setState(state: 'thinking' | 'calling_tool' | 'waiting_on_user' | 'idle'): void;
  /** At the tool-call limit: true = go on, false = end the turn, 'unanswerable' = nobody can say. */
  askToContinue(count: number): Promise<boolean | 'unanswerable'>;
}

/** Counters that live for a whole turn (several messages). */
export interface TurnCounters {
  toolCalls: number;
  /** The limit in force; raised by `limit` each time the user says go on. */
  allowedCalls: number;
  consecutiveErrors: number;
  lastError?: string;
}

export interface CallOutcome {
  callId: string;
  /** What goes back to the model (capped). */
  content: string;
  status: ToolCallStatus;
  endTurn?: boolean;
}

export type DispatchEnd = 'continue' | 'end_turn' | 'stopped' | 'errors' | 'limit' | 'waiting';

export interface DispatchResult {
  outcomes: CallOutcome[];
  end: DispatchEnd;
}

interface Prepared {
  call: AccumulatedToolCall;
  cardId: string;
  tool?: Tool;
  input?: unknown;
  /** Set when the call must not run: refusal or bad arguments. */
  early?: { status: 'refused' | 'error'; message: string };
}

function parseArgs(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const text = raw.trim() === '' ? '{}' : raw;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `the arguments are not valid JSON (${(e as Error).message}); send one JSON object` };
  }
}

/** A short, model-readable account of zod issues: `path: message` per issue. */
function zodMessage(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(arguments)'}: ${i.message}`)
    .join('; ');
}

export class Dispatcher {
  constructor(private readonly env: DispatchEnv) {}

  async dispatch(calls: AccumulatedToolCall[], counters: TurnCounters): Promise<DispatchResult> {
    const env = this.env;
    const prepared = calls.map((call) => this.prepare(call));
    const outcomes = new Map<string, CallOutcome>();
    let end: DispatchEnd = 'continue';

    const skipRest = (from: number, why: string) => {
      for (const p of prepared.slice(from)) {
        if (outcomes.has(p.call.id)) continue;
        env.events.patchCard(p.cardId, { status: 'error', error: why });
        this.settled(p, 'error');
        outcomes.set(p.call.id, { callId: p.call.id, content: why, status: 'error' });
      }
    };

    let i = 0;
    while (i < prepared.length) {
      if (env.signal.aborted) {
        skipRest(i, 'Not run: the user stopped the agent.');
        end = 'stopped';
        break;
      }
      // The tool-call limit: ask before going past it.
      if (counters.toolCalls >= counters.allowedCalls) {
        const go = await env.askToContinue(counters.toolCalls);
        if (go === true) {
          counters.allowedCalls = counters.toolCalls + env.limits.maxToolCallsPerTurn;
        } else {
          skipRest(i, `Not run: the limit of ${counters.allowedCalls} tool calls per turn was reached${go === 'unanswerable' ? ' and nobody could allow more' : ' and the user chose to stop'}.`);
          end = env.signal.aborted ? 'stopped' : go === 'unanswerable' ? 'waiting' : 'limit';
          break;
        }
      }
      // A group: consecutive read-only calls (concurrent), else one call.
      const room = counters.allowedCalls - counters.toolCalls;
      let j = i + 1;
      if (this.isConcurrent(prepared[i]!)) {
        while (j < prepared.length && j - i < room && this.isConcurrent(prepared[j]!)) j++;
      }
      const group = prepared.slice(i, j);
      counters.toolCalls += group.length;
      env.setState('calling_tool');
      const results = await Promise.all(group.map((p) => this.execute(p)));
      let stop: DispatchEnd | undefined;
      for (const { outcome, unanswerable, halted } of results) {
        outcomes.set(outcome.callId, outcome);
        if (unanswerable || halted) stop = 'waiting';
        if (outcome.endTurn && !stop) stop = 'end_turn';
        if (outcome.status === 'error' || outcome.status === 'refused') {
          counters.consecutiveErrors++;
          counters.lastError = outcome.content;
        } else if (outcome.status === 'done') {
          counters.consecutiveErrors = 0;
        }
      }
      i = j;
      if (env.signal.aborted) {
        skipRest(i, 'Not run: the user stopped the agent.');
        end = 'stopped';
        break;
      }
      if (stop) {
        skipRest(i, stop === 'waiting' ? 'Not run: the turn is waiting for an answer.' : 'Not run: the turn ended.');
        end = stop;
        break;
      }
      if (counters.consecutiveErrors >= env.limits.maxConsecutiveToolErrors) {
        skipRest(i, `Not run: ${counters.consecutiveErrors} tool calls in a row failed, so the agent stopped to let the user decide.`);
        end = 'errors';
        break;
      }
    }
    return { outcomes: calls.map((c) => outcomes.get(c.id)!), end };
  }

  private isConcurrent(p: Prepared): boolean {
    return !p.early && !!p.tool?.readOnly;
  }

  /** Creates the card and does every check that needs no I/O. */
  private prepare(call: AccumulatedToolCall): Prepared {
    const env = this.env;
    const role = env.role();
    const cardId = env.events.newId('tool');
    const tool = env.tools.find(call.name);
    const parsed = parseArgs(call.arguments);
    let input: unknown;
    let early: Prepared['early'];
    if (!tool) {
      const names = env.tools.offeredTo(role, env.planning).map((t) => t.name);
      early = { status: 'refused', message: `unknown tool "${call.name}". Available tools: ${names.join(', ')}.` };
    } else {
      const refusal = env.tools.refusalFor(tool, role, env.planning);
      if (refusal) early = { status: 'refused', message: refusal };
      else if (!parsed.ok) early = { status: 'error', message: `Invalid arguments for ${tool.name}: ${parsed.error}.` };
      else {
        const r = tool.input.safeParse(parsed.value);
        if (r.success) input = r.data;
        else early = { status: 'error', message: `Invalid arguments for ${tool.name}: ${zodMessage(r.error)}.` };
      }
    }
    env.events.addCard({
      kind: 'tool_call',
      id: cardId,
      call_id: call.id,
      tool: call.name,
      ...presentCall(tool, call, input, parsed.ok ? parsed.value : undefined),
      args: parsed.ok ? parsed.value : call.arguments,
      status: 'pending',
      ...(call.providerFields ? { provider_fields: mapProviderStrings(call.providerFields, (s) => this.clean(s)) } : {}),
      ...(call.messageFields ? { message_fields: call.messageFields } : {}),
      ts: Date.now(),
    });
    return { call, cardId, tool, input, early };
  }

  /**
   * A command that printed the environment (or a slice of the key), or a file that holds the key,
   * must not carry it into the next request, the chat or history. Short placeholder keys ("none",
   * "ollama") are left alone: masking those would garble ordinary text (secretMask.ts).
   */
  private clean(text: string): string {
    return maskSecret(text, this.env.secret?.());
  }

  private finish(p: Prepared, status: ToolCallStatus, content: string, display?: string, endTurn?: boolean, exit?: CommandExit): CallOutcome {
    const max = this.env.limits.maxToolResultChars;
    const capped = capHeadTail(this.clean(content), max);
    const shown = capHeadTail(this.clean(display ?? content), max);
    const patch: Record<string, unknown> = { status };
    if (status === 'done') patch.result = shown;
    else patch.error = shown;
    if (exit) patch.exit = exit;
    this.env.events.patchCard(p.cardId, patch);
    if (status === 'done' || status === 'error' || status === 'refused' || status === 'rejected' || status === 'stopped') this.settled(p, status);
    return { callId: p.call.id, content: capped, status, ...(endTurn ? { endTurn } : {}) };
  }

  private settled(p: Prepared, status: SettledToolCall['status']): void {
    this.env.onSettled?.({ callId: p.call.id, cardId: p.cardId, tool: p.call.name, status });
  }

  private async execute(p: Prepared): Promise<{ outcome: CallOutcome; unanswerable?: QuestionUnanswerable; halted?: boolean }> {
    const env = this.env;
    if (p.early) return { outcome: this.finish(p, p.early.status, p.early.message) };
    const tool = p.tool!;
    const role = env.role();
    let decided: 'approved' | 'rejected' | undefined;
    let rejection: Extract<ApprovalDecision, { approved: false }> | undefined;
    let approvalNote: string | undefined;
    /** Set when an amendment nobody may decide was refused: the turn stops here, waiting (CLI exit 3). */
    let halt = false;
    /** A PreToolUse hook's allow or ask, applied when the call asks for approval (a deny blocked it before it ran). */
    let hookPermission: HookPermission | undefined;
    const note: HookNote = {};

    const ctx = {
      host: env.host,
      paths: env.paths,
      reads: env.reads,
      role,
      callId: p.call.id,
      signal: env.signal,
      settings: { commandTimeoutMs: env.limits.commandTimeoutMs, maxOutputChars: env.limits.maxToolResultChars },
      ui: env.events,
      planning: env.planning,
      explorers: env.explorers,
      beforeChange: env.beforeChange ? (abs: string) => env.beforeChange!(abs, p.call.id) : undefined,
      approve: async (req: Omit<ApprovalRequest, 'callId' | 'tool'>): Promise<ApprovalDecision> => {
        const full: ApprovalRequest = { ...req, callId: p.call.id, tool: tool.name };
        const allow = allowRuleFor(req.info, env.policy().roots);
        env.events.patchCard(p.cardId, { approval: approvalShown((allow ? { ...req.info, allow } : req.info) as ApprovalInfo) });
        // While a plan step runs, the step's scope decides first: in scope, the plan may count as the
        // approval; outside it, an amendment only a person decides (plans/amendmentGate.ts).
        const step = classifyStepApproval(env.planning, req.info, env.policy());
        let decision: ApprovalDecision;
        if (step.kind === 'amendment') {
          const res = await decideAmendment(full, step.amendment, env.policy(), {
            planning: env.planning!,
            approver: env.host.approver,
            signal: env.signal,
            show: (amendment) => {
              env.events.patchCard(p.cardId, { approval: approvalShown({ ...(req.info as ApprovalInfo), amendment }) });
              env.events.emit({ type: 'amendment', call_id: p.call.id, amendment });
            },
            waiting: (on) => env.setState(on ? 'waiting_on_user' : 'calling_tool'),
          });
          decision = res.decision;
          if (res.halt) halt = true;
        } else {
          const policy = step.policy;
          // Only a request that will reach a person puts the agent in `waiting_on_user`.
          const verdict = decideApproval(req.info, policy, hookPermission);
          if (verdict.hook) this.noteHook(p, note, { outcome: verdict.hook, reason: verdict.hook === 'not_reached' ? verdict.why : hookPermission?.reason });
          const needsAsk = verdict.kind === 'ask';
          if (needsAsk) env.setState('waiting_on_user');
          try {
            decision = (await resolveApproval(full, policy, env.host.approver, env.signal, hookPermission)).decision;
          } finally {
            if (needsAsk) env.setState('calling_tool');
          }
        }
        if (decision.approved) {
          decided = 'approved';
          approvalNote = decision.note?.trim() || undefined;
          env.events.patchCard(p.cardId, { status: 'approved', ...(approvalNote ? { note: approvalNote.slice(0, 10_000) } : {}) });
          env.events.patchCard(p.cardId, { status: 'running' });
        } else {
          decided = 'rejected';
          rejection = decision;
          const reason = decision.by !== 'policy' ? decision.reason?.trim() : undefined;
          env.events.patchCard(p.cardId, { status: 'rejected', ...(reason ? { note: reason.slice(0, 10_000) } : {}) });
        }
        return decision;
      },
    } as ToolContext;

    try {
      // Per-call permissions (write_file on an existing file needs `write`, on a new one `create`).
      if (tool.permissionsFor) {
        const needs: readonly Permission[] = await tool.permissionsFor(p.input, ctx);
        const missing = missingPermissions(role, needs);
        if (missing.length) {
          return { outcome: this.finish(p, 'refused', `${tool.name} is not permitted for the ${role.label} role (this call needs ${missing.join(', ')} permission). Nothing was changed.`) };
        }
      }
      // The user's PreToolUse hooks: after the role's check (no hook gives a role what it may not do), before anything runs.
      const hookCall = this.hookCall(p, tool);
      if (hookCall) {
        const pre = await env.userHooks!.hooks.preToolUse(hookCall, this.hookScope());
        if (pre.warnings.length) this.noteHook(p, note, { warnings: pre.warnings });
        if (pre.block !== undefined) {
          this.noteHook(p, note, { outcome: 'blocked', reason: pre.block });
          return { outcome: this.finish(p, 'refused', `Blocked by hook: ${pre.block}`) };
        }
        if (pre.permission && pre.permission.decision !== 'deny') {
          hookPermission = { decision: pre.permission.decision, ...(pre.permission.reason ? { reason: pre.permission.reason } : {}) };
        }
      }
      if (tool.readOnly) env.events.patchCard(p.cardId, { status: 'running' });
      const ran: ToolResult & { endTurn?: boolean } = await tool.run(p.input, ctx);
      // PostToolUse: the call ran; what a hook says goes to the model with the result.
      const result = hookCall && decided !== 'rejected' ? await this.afterHooks(p, hookCall, ran, note) : ran;
      if (decided === 'rejected') {
        const content = this.clean(result.content || rejectionText(rejection ?? {}, `this ${tool.name} call`));
        this.finishRejected(p, content);
        return { outcome: { callId: p.call.id, content: capHeadTail(content, env.limits.maxToolResultChars), status: 'rejected', ...(result.endTurn ? { endTurn: true } : {}) }, ...(halt ? { halted: true } : {}) };
      }
      if (env.signal.aborted && !result.content) {
        return { outcome: this.finish(p, 'stopped', 'Stopped by the user.') };
      }
      // What the user typed with Approve reaches the model with the result (the card shows the result alone).
      const content = approvalNote ? `${result.content}\n\nThe user approved this with a note: ${approvalNote}` : result.content;
      return { outcome: this.finish(p, result.isError ? 'error' : 'done', content, result.display ?? result.content, result.endTurn, result.exit) };
    } catch (err) {
      if (err instanceof QuestionUnanswerable) {
        return {
          outcome: this.finish(p, 'error', 'The question could not be answered here (nobody can answer it in this session).'),
          unanswerable: err,
        };
      }
      if (env.signal.aborted) return { outcome: this.finish(p, 'stopped', 'Stopped by the user.') };
      if (decided === 'rejected') {
        // Write tools throw on a rejection; the card still says rejected, not failed.
        const content = this.clean(err instanceof Error && err.message ? err.message : rejectionText(rejection ?? {}, `this ${tool.name} call`));
        this.finishRejected(p, content);
        return { outcome: { callId: p.call.id, content: capHeadTail(content, env.limits.maxToolResultChars), status: 'rejected' }, ...(halt ? { halted: true } : {}) };
      }
      const message = err instanceof ToolError ? err.message : `${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`;
      env.host.logger.warn(`tool ${tool.name} threw: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      return { outcome: this.finish(p, 'error', message) };
    }
  }

  /** The call as the user's hooks see it, or undefined when no hook listens at this point. */
  private hookCall(p: Prepared, tool: Tool): HookToolCall | undefined {
    const u = this.env.userHooks;
    if (!u || (!u.hooks.has('PreToolUse') && !u.hooks.has('PostToolUse'))) return undefined;
    return { callId: p.call.id, tool: tool.name, isMcp: tool.display.kind === 'mcp', args: p.input };
  }

  private hookScope(): HookScope {
    return { ...this.env.userHooks!.scope(), signal: this.env.signal };
  }

  /** Adds to what the card says of the hooks (warnings accumulate; the last outcome stands). */
  private noteHook(p: Prepared, note: HookNote, add: HookNote): void {
    if (add.outcome) {
      note.outcome = add.outcome;
      if (add.reason) note.reason = capHeadTail(this.clean(add.reason), 4000);
      else delete note.reason;
    }
    if (add.warnings?.length) note.warnings = [...(note.warnings ?? []), ...add.warnings.map((w) => capHeadTail(this.clean(w), 4000))].slice(0, 20);
    this.env.events.patchCard(p.cardId, { hook: { ...note } });
  }

  private async afterHooks(p: Prepared, call: HookToolCall, result: ToolResult & { endTurn?: boolean }, note: HookNote): Promise<ToolResult & { endTurn?: boolean }> {
    const response = {
      output: this.clean(result.content),
      success: !result.isError,
      ...(result.exit ? { exit_code: result.exit.code } : {}),
      ...(typeof (call.args as { path?: unknown })?.path === 'string' ? { filePath: (call.args as { path: string }).path } : {}),
    };
    const post: HooksOutcome = await this.env.userHooks!.hooks.postToolUse(call, response, this.hookScope());
    if (post.warnings.length) this.noteHook(p, note, { warnings: post.warnings });
    const said = [post.block, post.context].filter((x): x is string => !!x).join('\n');
    if (!said) return result;
    if (post.block !== undefined) this.noteHook(p, note, { outcome: 'feedback', reason: said });
    return { ...result, content: `${result.content}\n\nPostToolUse hook: ${said}` };
  }

  private finishRejected(p: Prepared, content: string): void {
    this.env.events.patchCard(p.cardId, { status: 'rejected', error: capHeadTail(content, this.env.limits.maxToolResultChars) });
    this.settled(p, 'rejected');
  }
}
