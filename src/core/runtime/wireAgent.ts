/**
 * One task's agent, built from its options: the parts it acts through, each given what it needs of
 * the others. The settings in force are read at each use, so a settings change reaches every part
 * from its next request; a resumed task's cards, conversation and plans come back here.
 */
import type { RoleId } from '../../protocol';
import { EventStream } from '../events';
import { ReadTracker } from '../tools/readTracker';
import { PRODUCT_ROLES } from '../roles/roles';
import type { ToolCatalog } from '../tools/tool';
import { EXPLORER_TOOLS, productToolRegistry } from '../tools';
import { Explorers } from '../turn/explorers';
import { WorkspacePaths } from '../workspace/workspacePaths';
import { UsageMeter } from '../cost/usageMeter';
import { Planning } from '../plans/planning';
import { insideWorkspace } from '../plans/validatePlan';
import { Reviewer } from '../review/reviewer';
import { recordsFromCards } from '../plans/recordsFromCards';
import type { AgentHooks } from '../turn/turnHooks';
import { emitUsage } from '../turn/turnLoop';
import { LimitQuestion } from '../turn/limitQuestion';
import { Conversation } from '../context/conversation';
import { contentText } from '../context/chatMessage';
import { ProjectKnowledge } from '../knowledge/projectKnowledge';
import { TaskFactSection } from '../facts/taskFactSection';
import { learnFromVerdict } from '../facts/learnFromVerdict';
import type { RevertResult } from '../checkpoints/checkpointStore';
import { whyOneAtATime } from '../planRuns/whyOneAtATime';
import { Agent } from '../task/taskAgent';
import type { AgentOptions } from '../task/agentApi';
import { AgentStatus } from '../task/agentStatus';
import { SettingsInForce } from '../task/settingsInForce';
import { TaskPlans } from '../task/taskPlans';
import { TaskTurns } from '../task/taskTurns';
import { TurnInFlight } from '../task/turnInFlight';
import { UserHookSession } from '../task/userHookSession';
import type { TaskFiles } from '../task/userActions';

/** A task that keeps no checkpoints (history is off): nothing can be reverted, and nothing changed is known. */
const NO_CHECKPOINTS: RevertResult = { ok: false, message: 'This task keeps no checkpoints (history is off), so nothing can be reverted.', conflicts: [] };
const NO_TASK_FILES: TaskFiles = {
  revertCall: async () => NO_CHECKPOINTS,
  revertTask: async () => NO_CHECKPOINTS,
  revertFile: async () => NO_CHECKPOINTS,
  revertCalls: async () => NO_CHECKPOINTS,
  filesChangedBy: () => [],
  settled: async () => {},
};

export function wireAgent(opts: AgentOptions): Agent {
  const { host } = opts;
  const roles = opts.roles ?? PRODUCT_ROLES;
  // A role that is not (or no longer) in the registry — e.g. from an old history file — starts where a new task does.
  const role: RoleId = opts.role && roles.has(opts.role) ? opts.role : roles.initial.id;
  // The parts call back into the agent (its role, a role switch) only once it exists, never while being built.
  let agent: Agent | undefined;
  const agentNow = (): Agent => {
    if (!agent) throw new Error('the agent was used before it was built');
    return agent;
  };
  const roleDef = () => roles.get(agentNow().role);
  const settings = new SettingsInForce(opts.settings, { logger: host.logger, roots: () => host.fs.roots });
  // Every request's usage is also counted on the plan card (per role, per step) and against a step's budget.
  const hooks: AgentHooks = { ...opts.hooks, onUsage: (u) => { plans.countUsage(u); opts.hooks?.onUsage?.(u); } };
  const onEvent = opts.hooks?.onEvent;
  // Recorded before it is shown: a step the user (or a script reading --json) saw end done is saved
  // done, even when the process is killed right after (resume must not run it again).
  const events = new EventStream(onEvent ? (e) => { onEvent(e); opts.emit(e); } : opts.emit, opts.resume?.idPrefix ?? 'c');
  const status = new AgentStatus(events);
  const limit = new LimitQuestion({ events, asker: host.asker, setState: (state) => status.set(state) });
  const tools = opts.tools ?? productToolRegistry();
  const paths = new WorkspacePaths(host.fs);
  const reads = new ReadTracker();
  const usage = new UsageMeter(opts.settings.prices, opts.resume?.usage);
  const conversation = new Conversation();
  if (opts.resume) {
    // A resumed task: its cards are already on screen/in history (not re-emitted); the model gets the earlier turns.
    events.store.apply({ type: 'snapshot', seq: 0, cards: opts.resume.cards, role });
    conversation.restore(opts.resume.messages);
  }
  /** What prompts and schemas take from the tool registry, as it stands now. */
  const catalog = (): ToolCatalog => ({ stepTools: tools.stepTools(roles) });
  // Facts first rank those citing files the task's first message names.
  const facts = opts.facts && new TaskFactSection(opts.facts, events, () => contentText(conversation.messages.find((m) => m.role === 'user')?.content));
  // AGENTS.md and the other instruction files, and skills: read once per task, shown once in the chat.
  const knowledge = new ProjectKnowledge({ fs: host.fs, settings: () => settings.now.knowledge, ui: events, logger: host.logger, ...(facts ? { facts } : {}) });
  // load_skill is offered once the task's skills are found (none: nothing is added to the prompt).
  tools.add(knowledge.skills);
  const planning = new Planning(events, {
    logger: host.logger,
    structuredOutputs: opts.settings.structuredOutputs,
    planRepairTries: opts.settings.limits.planRepairTries,
    isInside: insideWorkspace(paths),
    stepTools: () => catalog().stepTools,
    diagnostics: host.diagnostics,
    whyOneAtATime: () => whyOneAtATime(host, settings.now.parallelSteps),
  });
  // The cards a plan step's run adds carry its step (the chat's lanes, approvals by step, --json).
  events.stepOf = () => planning.runningStep();
  // A resumed task's plans stay executable and revisable (their cards came back with the snapshot).
  if (opts.resume) {
    const lastPlan = [...opts.resume.cards].reverse().find((c) => c.kind === 'plan' && c.reliability);
    planning.book.restore(recordsFromCards(opts.resume.cards, opts.resume.planProvenance), lastPlan?.kind === 'plan' ? lastPlan.reliability : undefined);
    // Its card's "one at a time" reason was true when the task was saved: asked again for here and now.
    void planning.book.recheckOneAtATime();
  }
  const userHooks = new UserHookSession({
    ...(opts.userHooks ? { source: opts.userHooks } : {}),
    events,
    ...(opts.taskId ? { taskId: opts.taskId } : {}),
    resumed: opts.resume !== undefined,
    role: () => agentNow().role,
    step: () => planning.execution?.step,
    apiKey: () => settings.now.apiKey,
  });
  const explorers = new Explorers({
    parent: roleDef,
    settings: () => settings.now,
    llm: () => settings.llm,
    host,
    paths,
    tools,
    policy: () => settings.policy(),
    events,
    usage,
    hooks,
    userHooks: () => userHooks.forCalls(),
  });
  const inFlight = new TurnInFlight({ events, status, limit, userHooks, hooks, logger: host.logger });
  const turns = new TaskTurns({
    role: roleDef,
    setRole: (r, reason) => agentNow().setRole(r, reason),
    settings, events, conversation, host, paths, reads, planning, hooks,
    ...(opts.hooks?.onUsage ? { hostUsage: opts.hooks.onUsage } : {}),
    tools, catalog, knowledge, usage, explorers, limit, userHooks, status, inFlight,
  });
  const reviewer = new Reviewer({
    roles,
    settings: () => settings.now,
    llm: () => settings.llm,
    structured: planning.structured,
    logger: host.logger,
    promptContext: catalog,
    onUsage: (u) => emitUsage(events, usage, { ...u, outcome: 'review' }, hooks.onUsage),
    onRetry: (notice) => events.addCard({ kind: 'text', id: events.newId('note'), author: 'system', note: 'retry', text: notice.message, ts: Date.now() }),
    ...(opts.facts ? { learn: learnFromVerdict(opts.facts, events, opts.taskId) } : {}),
  });
  const plans: TaskPlans = new TaskPlans({
    events, planning, reviewer, roles, host, usage, conversation,
    settings: () => settings.now,
    policy: () => settings.policy(),
    setRole: (r, reason) => agentNow().setRole(r, reason),
    setState: (state, detail) => status.set(state, detail),
    errorCard: (message) => events.addCard({ kind: 'error', id: events.newId('error'), message, retryable: false, ts: Date.now() }),
    exclusive: (body) => inFlight.run(body),
    turn: (signal) => turns.turn(signal),
    branchTurn: (b, signal) => turns.branchTurn(b, signal),
    checkpoints: {
      beforeChange: (abs, callId) => hooks.beforeChange?.(abs, callId) ?? Promise.resolve(),
      settled: (call) => hooks.onToolCallSettled?.(call),
    },
    plannerTurn: (m) => turns.plannerTurn(m),
    planRunStarted: () => turns.planRunStarted(),
  });
  // `explore` is in the registry exactly while the setting has explorers on (default: on).
  let dropExplore: (() => void) | undefined;
  const offerExplore = (on: boolean) => {
    if (on && !dropExplore) dropExplore = tools.add(EXPLORER_TOOLS);
    else if (!on && dropExplore) {
      dropExplore();
      dropExplore = undefined;
    }
  };
  offerExplore(opts.settings.explorers?.enabled !== false);
  settings.onChange((s) => {
    usage.setPrices(s.prices);
    planning.update({ structuredOutputs: s.structuredOutputs, planRepairTries: s.limits.planRepairTries });
    offerExplore(s.explorers?.enabled !== false);
  });
  agent = new Agent({
    role, roles, host, settings, events, conversation, paths, reads, planning, plans, tools, limit, inFlight, turns,
    ...(opts.taskId ? { taskId: opts.taskId } : {}),
    files: opts.files ?? NO_TASK_FILES,
  });
  return agent;
}
