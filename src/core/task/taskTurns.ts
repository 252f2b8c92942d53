/**
 * The turns of one task: a message's turn (the user's hooks on the prompt, the role's turn, then
 * — when a plan is required or the plan turn asks for one — the plan request), the Planner's turn
 * that must end with a plan (Revise, Replan), Retry of the last one, and the turn of a plan step
 * that runs beside others (its own conversation, folder and events). Each runs as the task's one
 * turn in flight, and the last one is remembered so Retry can run it again.
 */
import type { AgentState, RoleId, TurnOutcome } from '../../protocol';
import type { EventStream } from '../events';
import type { HostPorts } from '../ports/ports';
import type { RoleDef } from '../roles/roles';
import { modelFor } from '../settings/settings';
import type { ToolCatalog } from '../tools/tool';
import type { ToolRegistry } from '../tools/toolRegistry';
import { ReadTracker } from '../tools/readTracker';
import type { Explorers } from '../turn/explorers';
import { WorkspacePaths } from '../workspace/workspacePaths';
import type { UsageMeter } from '../cost/usageMeter';
import type { Planning } from '../plans/planning';
import { requestPlan, type PlanCompleter, type PlanMessage } from '../plans/requestPlan';
import type { ReplanCarry } from '../plans/planTurn';
import { llmPlanCompleter } from '../plans/llmPlanCompleter';
import { promptVersion } from '../roles/promptVersion';
import type { AgentHooks, CountedUsage } from '../turn/turnHooks';
import { emitUsage, runTurn, systemPromptFor } from '../turn/turnLoop';
import { chatToolDef } from '../tools/chatToolDef';
import type { LimitQuestion } from '../turn/limitQuestion';
import { isTurnHalt } from '../context/turnHalt';
import type { Conversation, ConversationMessage } from '../context/conversation';
import type { ChatMessage } from '../context/chatMessage';
import { answerTokensFor } from '../context/modelWindows';
import type { ProjectKnowledge } from '../knowledge/projectKnowledge';
import type { StepBranch } from '../planRuns/planGraphRun';
import type { AgentStatus } from './agentStatus';
import type { SettingsInForce } from './settingsInForce';
import type { TurnInFlight } from './turnInFlight';
import type { UserHookSession } from './userHookSession';
import type { PlannerMessage } from './taskPlans';

/** A message to the role in force: what Retry runs again. */
export interface TurnMessage {
  text: string;
  role: RoleId;
  /** Why a plan is asked again (Revise): the plan turn carries it. */
  feedback?: string;
  /** The turn must end with a plan (a final plan request if the model did not propose one). */
  requirePlan?: boolean;
  replan?: ReplanCarry;
}

export interface TaskTurnsDeps {
  /** The role in force, as it is when each request goes out. */
  role(): RoleDef;
  setRole(role: RoleId, reason: string): void;
  settings: SettingsInForce;
  events: EventStream;
  conversation: Conversation;
  host: HostPorts;
  paths: WorkspacePaths;
  reads: ReadTracker;
  planning: Planning;
  /** The task's hooks (checkpoints, budget, context fitting; usage counted on the plan card). */
  hooks: AgentHooks;
  /** The host's own usage observer: a step's usage counts on its step, then is told here. */
  hostUsage?(u: CountedUsage): void;
  tools: ToolRegistry;
  catalog(): ToolCatalog;
  knowledge: ProjectKnowledge;
  usage: UsageMeter;
  explorers: Explorers;
  limit: LimitQuestion;
  userHooks: UserHookSession;
  status: AgentStatus;
  inFlight: TurnInFlight;
}

/** Where one turn works: the task's own conversation and workspace, or a plan step's (see `branchTurn`). */
interface TurnScope extends Pick<TaskTurnsDeps, 'events' | 'conversation' | 'host' | 'paths' | 'reads' | 'planning' | 'hooks'> {
  /** The task's checkpoints see its changes (not those in a step's worktree: its apply-back is the checkpointed change). */
  checkpoints: boolean;
  setState(state: AgentState, detail?: string): void;
  /** A step's own agent beside others: its end runs the user's SubagentStop hooks, not Stop. */
  subagent?: boolean;
}

export class TaskTurns {
  /** What the last turn was, so `retry` can run it again without re-adding the user message. */
  private lastTurn: ({ kind: 'message' } & TurnMessage) | { kind: 'plan' } | undefined;

  constructor(private readonly d: TaskTurnsDeps) {}

  /** A message (its card already in the chat) as the turn in flight. */
  message(m: TurnMessage): Promise<TurnOutcome> {
    this.lastTurn = { kind: 'message', ...m };
    return this.d.inFlight.run(async (signal) => {
      const text = await this.d.userHooks.prompt(m.text, signal);
      if (text === undefined) {
        // Nothing reached the model: a retry has nothing to resend.
        this.lastTurn = undefined;
        return 'error';
      }
      this.d.conversation.appendUser(text);
      return this.withPlanning(signal, m);
    });
  }

  /** Revise and Replan: the user's card to the Planner, then its turn, which must end with a plan. */
  plannerTurn(m: PlannerMessage): Promise<TurnOutcome> {
    const { events } = this.d;
    events.addCard({ kind: 'text', id: events.newId('user'), author: 'user', text: m.text, role: m.role, ts: Date.now() });
    return this.message({ ...m, requirePlan: true });
  }

  /** A plan run is not a turn Retry can repeat. */
  planRunStarted(): void {
    this.lastTurn = { kind: 'plan' };
  }

  /** The task went back to before its last turns (Edit & resend): there is nothing to retry. */
  forget(): void {
    this.lastTurn = undefined;
    this.d.inFlight.lastOutcome = undefined;
  }

  /** The last turn again, when it failed or was stopped; its user message is already in the conversation. */
  retry(): Promise<TurnOutcome> {
    const last = this.lastTurn;
    const outcome = this.d.inFlight.lastOutcome;
    if (!last || (outcome !== 'error' && outcome !== 'stopped')) return this.refuse('Nothing to retry: the last turn did not fail or stop.');
    // A plan run is a sequence of steps whose state ended with the run; re-running one turn would skip that bookkeeping.
    if (last.kind === 'plan') return this.refuse('Nothing to retry here: a plan run ended. Execute the plan again to re-run it.');
    // A revision belongs to the Planner; a plain message runs under the role it was sent to.
    if (last.role !== this.d.role().id) this.d.setRole(last.role, 'Retry');
    // The user message is already in the conversation (and on screen): the turn resumes from it as it stands.
    return this.d.inFlight.run((signal) => this.withPlanning(signal, { ...last, alreadySent: true }));
  }

  private async refuse(message: string): Promise<TurnOutcome> {
    this.d.events.addCard({ kind: 'error', id: this.d.events.newId('error'), message, retryable: false, ts: Date.now() });
    return 'error';
  }

  /** The role's turn on the conversation as it stands, then the plan request when a plan is wanted and none came. */
  private async withPlanning(signal: AbortSignal, opts: { feedback?: string; requirePlan?: boolean; alreadySent?: boolean; replan?: ReplanCarry }): Promise<TurnOutcome> {
    const { planning, conversation, settings } = this.d;
    const role = this.d.role();
    if (!role.mayPlan) return this.turn(signal);
    const planTurn = planning.beginPlanTurn(modelFor(settings.now, role.id), opts.feedback, {
      promptVersion: promptVersion(role.id, role.systemPrompt(this.d.catalog())),
      ...(opts.replan ? { replan: opts.replan } : {}),
      fallbacks: settings.now.fallbackModels?.[role.id] ?? [],
    });
    try {
      // A retry after the turn itself had answered (only the plan request after it failed): the model
      // already spoke, so go straight to the plan request rather than send a conversation ending in its answer.
      const last = conversation.last();
      const answered = opts.alreadySent && opts.requirePlan && last?.role === 'assistant' && !last.tool_calls?.length;
      if (answered) this.d.usage.startTurn();
      const outcome: TurnOutcome = answered ? 'done' : await this.turn(signal);
      // Revise needs a new plan version: a model that answered without propose_plan is asked for the plan as JSON.
      // Also after a failed propose_plan the model left unrepaired: the same plan turn goes on, so repairs stay bounded.
      // And when the model's repairs ran out and a fallback model is next: it is asked here.
      if (outcome === 'done' && (opts.requirePlan || planTurn.wantsFallbackAnswer) && !planTurn.done) return await this.planRequest(planTurn, role, signal);
      return outcome;
    } finally {
      planning.endPlanTurn();
    }
  }

  /** The plan asked for as JSON after an answer without one, by the model the plan turn names now. */
  private async planRequest(planTurn: Parameters<typeof requestPlan>[2], role: RoleDef, signal: AbortSignal): Promise<TurnOutcome> {
    const { events, usage, hooks, settings } = this.d;
    this.d.status.set('thinking');
    const complete: PlanCompleter = (messages, responseFormat, sig, onText) => llmPlanCompleter(settings.llm, planTurn.model, answerTokensFor(planTurn.model, settings.now), (r) =>
      emitUsage(events, usage, { model: r.model, role: role.id, tokensIn: r.usage.tokensIn, tokensOut: r.usage.tokensOut, latencyMs: r.latencyMs, outcome: 'plan' }, hooks.onUsage),
      (notice) => events.addCard({ kind: 'text', id: events.newId('note'), author: 'system', note: 'retry', text: notice.message, ts: Date.now() }),
    )(messages, responseFormat, sig, onText);
    let added: PlanMessage[];
    try {
      added = await requestPlan(
        {
          // Fitted like every loop request: this one carries the whole conversation plus the answer that had no plan.
          complete: async (messages, responseFormat, sig, onText) => complete(await this.fitPlanRequest(planTurn.model, role.id, messages, responseFormat, sig), responseFormat, sig, onText),
          structured: this.d.planning.structured,
          logger: this.d.host.logger,
          signal,
        },
        // The plan request is the role's own request: its system prompt (with the project's instructions) comes first,
        // as in every loop request, or the model would answer it as nobody in particular.
        [{ role: 'system', content: await this.systemPrompt(role) }, ...this.d.conversation.messages.map((m) => m as unknown as PlanMessage)],
        planTurn,
      );
    } catch (err) {
      // The fitting hook ended the turn on purpose (cannot fit, budget) and said why in the chat.
      if (isTurnHalt(err)) return err.outcome;
      throw err;
    }
    this.d.conversation.append(...(added as ChatMessage[]));
    return 'done';
  }

  /** The system prompt the turn loop sends for `role` (role prompt, then project instructions). */
  private async systemPrompt(role: RoleDef): Promise<string> {
    const instructions = await this.d.knowledge.systemText(role);
    return systemPromptFor(role, this.d.catalog(), instructions);
  }

  /**
   * The role in force's next request as the turn loop would start it, before fitting: its system
   * prompt, the conversation and its tools. The project's instructions and facts are left out:
   * reading them shows them in the chat, which only a turn should do. For a resumed task's context
   * meter (the request itself is never sent from here).
   */
  nextRequest(): { model: string; messages: readonly ConversationMessage[]; tools: unknown[] } {
    const role = this.d.role();
    const catalog = this.d.catalog();
    return {
      model: modelFor(this.d.settings.now, role.id),
      messages: [{ role: 'system', content: systemPromptFor(role, catalog) }, ...this.d.conversation.messages],
      tools: this.d.tools.offeredTo(role, this.d.planning).map((tool) => chatToolDef(tool, catalog)),
    };
  }

  /** The plan request through the same context fitting as the loop's requests (its schema takes room, like tools do). */
  private async fitPlanRequest(model: string, role: RoleId, messages: PlanMessage[], responseFormat: unknown, signal: AbortSignal): Promise<PlanMessage[]> {
    const { hooks, events, usage } = this.d;
    if (!hooks.fitContext) return messages;
    const fitted = await hooks.fitContext(messages, model, {
      ...(responseFormat ? { tools: [responseFormat] } : {}),
      maxTokens: answerTokensFor(model, this.d.settings.now),
      signal,
      onUsage: (u) => emitUsage(events, usage, { ...u, role }, hooks.onUsage),
    });
    return fitted as PlanMessage[];
  }

  /** One turn of the role in force on the task's conversation as it stands. */
  turn(signal: AbortSignal): Promise<TurnOutcome> {
    const d = this.d;
    return this.turnIn({
      events: d.events, conversation: d.conversation, host: d.host, paths: d.paths, reads: d.reads,
      planning: d.planning, hooks: d.hooks, checkpoints: true, setState: (s, detail) => d.status.set(s, detail),
    }, signal);
  }

  /**
   * One turn of the executing role in a plan step that runs beside others: its own conversation,
   * events (stamped with its step), plan state, and folder (its worktree, or the workspace when it
   * runs alone there, then with checkpoints as every turn). Its usage counts on its step.
   */
  branchTurn(b: StepBranch, signal: AbortSignal): Promise<TurnOutcome> {
    const { hooks, hostUsage } = this.d;
    return this.turnIn({
      events: b.events, conversation: b.conversation, host: b.host, paths: new WorkspacePaths(b.host.fs), reads: new ReadTracker(),
      planning: b.planning, checkpoints: b.inWorkspace, setState: b.setState, subagent: true,
      hooks: { ...(hooks.fitContext ? { fitContext: hooks.fitContext } : {}), onUsage: (u) => { b.onUsage(u); hostUsage?.(u); } },
    }, signal);
  }

  private turnIn(scope: TurnScope, signal: AbortSignal): Promise<TurnOutcome> {
    const { planning, host } = scope;
    const d = this.d;
    // Asked once, as the turn starts: a step run beside others tells the hooks its own step, and they
    // run in its folder (its worktree): a formatter a PostToolUse hook runs must change the step's copy, not the workspace's.
    const userHooks = d.userHooks.forCalls(() => ({ ...d.userHooks.scope(), ...(planning.execution?.step ? { planStep: planning.execution.step } : {}), ...(host.fs.roots[0] ? { cwd: host.fs.roots[0] } : {}) }));
    return runTurn({
      role: () => d.role(),
      settings: () => d.settings.now,
      llm: () => d.settings.llm,
      events: scope.events,
      conversation: scope.conversation,
      tools: d.tools,
      catalog: () => d.catalog(),
      knowledge: d.knowledge,
      usage: d.usage,
      hooks: scope.hooks,
      signal,
      setState: scope.setState,
      ...(scope.subagent ? { stopEvent: 'SubagentStop' as const } : {}),
      dispatchEnv: {
        host,
        paths: scope.paths,
        reads: scope.reads,
        limits: d.settings.now.limits,
        planning,
        explorers: d.explorers,
        // A step in a worktree is judged (scope, outside-the-workspace) against its own folder.
        policy: () => ({ ...d.settings.policy(), roots: host.fs.roots }),
        secret: () => d.settings.now.apiKey,
        ...(userHooks ? { userHooks } : {}),
        beforeChange: async (abs, callId) => {
          // While a step runs, the file's text before its first change is kept for the step's diff (the Reviewer's view).
          const before = planning.wantsBefore(abs) ? await host.fs.readText(abs).catch(() => null) : undefined;
          await planning.noteChange(abs, before);
          if (scope.checkpoints) await d.hooks.beforeChange?.(abs, callId);
        },
        onSettled: (call) => {
          const card = scope.events.card(call.cardId);
          planning.noteAction({ tool: call.tool, status: call.status, summary: card?.kind === 'tool_call' ? card.summary : call.tool });
          if (scope.checkpoints) d.hooks.onToolCallSettled?.(call);
        },
        askToContinue: (count) => d.limit.ask(count, signal),
      },
    });
  }
}
