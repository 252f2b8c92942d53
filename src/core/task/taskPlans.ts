/**
 * A task's plan actions: Execute plan (step by step, each step a turn of the executing role, with
 * its check, its review and its budget), Review, Replan and Revise. They are handlers of the
 * user-action table (userActions.ts): the table's dispatch has already refused them while a turn
 * runs or when no role here can do them, so what is checked here is the plan itself.
 */
import type { AgentState, PlanStep, ReviewResult, RoleId, RoleRegistry, TurnOutcome } from '../../protocol';
import type { StepVerdict } from '../plans/stepVerdict';
import type { EventStream } from '../events';
import type { HostPorts } from '../ports/ports';
import type { RoleDef } from '../roles/roles';
import type { AgentSettings } from '../settings/settings';
import type { PolicyInput } from '../policy/approvalPolicy';
import type { Conversation } from '../context/conversation';
import type { Planning } from '../plans/planning';
import type { ReplanCarry } from '../plans/planTurn';
import type { PlanRecord } from '../plans/planRecord';
import type { PlanShapeEdit, StepEdit } from '../plans/editPlanSteps';
import { executePlanSteps } from '../planRuns/executePlanSteps';
import { runStepCheck } from '../planRuns/runStepCheck';
import { inScopePolicy } from '../plans/amendmentGate';
import { replanOf } from '../plans/replanBrief';
import { stepDiff } from '../planRuns/stepDiff';
import type { Reviewer } from '../review/reviewer';
import { formatUsd } from '../cost/priceTable';
import { runPlanGraph, type GraphRunDeps, type StepBranch } from '../planRuns/planGraphRun';
import { parallelPairs } from '../plans/graph/stepScheduler';
import { whyOneAtATime } from '../planRuns/whyOneAtATime';
import type { UsageMeter } from '../cost/usageMeter';
import { proposePlanTool } from '../tools/proposePlan';
import { editedPlanNote } from '../plans/editedPlanNote';

/** How much of a check's output is kept as the step's evidence (head and tail). */
const CHECK_OUTPUT_CHARS = 4000;

/** A message to the Planner that must end with a plan (Revise, Replan). */
export interface PlannerMessage {
  text: string;
  role: RoleId;
  feedback: string;
  replan?: ReplanCarry;
}

/** What the plan actions use of their task's agent. */
export interface TaskPlansDeps {
  events: EventStream;
  planning: Planning;
  reviewer: Reviewer;
  roles: RoleRegistry<RoleDef>;
  host: HostPorts;
  usage: UsageMeter;
  conversation: Conversation;
  settings(): AgentSettings;
  policy(): PolicyInput;
  setRole(role: RoleId, reason: string): void;
  setState(state: AgentState, detail?: string): void;
  errorCard(message: string): void;
  /** Runs `body` as the one turn in flight (always ends with `turn_ended`). */
  exclusive(body: (signal: AbortSignal) => Promise<TurnOutcome>): Promise<TurnOutcome>;
  /** One turn of the role in force on the conversation as it stands. */
  turn(signal: AbortSignal): Promise<TurnOutcome>;
  /** One turn of a plan step that runs beside others (its own conversation, folder and events). */
  branchTurn(b: StepBranch, signal: AbortSignal): Promise<TurnOutcome>;
  /** The task's checkpoints, for a step's changes applied back to the workspace. */
  checkpoints: GraphRunDeps['checkpoints'];
  /** The user's card for `m`, then a turn of the Planner that ends with a plan (remembered for Retry). */
  plannerTurn(m: PlannerMessage): Promise<TurnOutcome>;
  /** A plan run is not a turn Retry can repeat. */
  planRunStarted(): void;
}

export class TaskPlans {
  /** The step whose budget this request counts against, if any: over the cap, the step is stopped (its checkpoint stays). */
  private stepStop: AbortController | undefined;

  constructor(private readonly d: TaskPlansDeps) {}

  /** Every request's usage is also counted on the plan card (per role, per step) and against a step's budget. */
  countUsage(u: { role: RoleId; tokensIn: number; tokensOut: number; costUsd?: number }): void {
    const step = this.d.planning.noteUsage(u.role, { tokensIn: u.tokensIn, tokensOut: u.tokensOut, ...(u.costUsd !== undefined ? { costUsd: u.costUsd } : {}) });
    const cap = this.d.settings().stepBudgetUsd ?? 0;
    if (!step || cap <= 0 || step.costUsd === undefined || step.costUsd < cap) return;
    this.d.planning.stopForBudget(`step ${step.step} reached its budget of ${formatUsd(cap)} (${formatUsd(step.costUsd)} spent); its changes so far are kept and can be reverted`);
    this.stepStop?.abort();
  }

  /** "Execute plan": the executing role carries out the validated plan as its brief; `fromStep`: continue from that step. */
  async execute(planCardId: string, fromStep?: number): Promise<TurnOutcome> {
    const d = this.d;
    const executor = d.roles.executor!;
    const record = d.planning.book.get(planCardId);
    // With review required before Execute, an unreviewed version is reviewed first; a verdict other than ok stops
    // here and the card shows it — Execute again is then the user's deliberate override.
    if (record?.plan && d.settings().reviewPlans && !record.review && d.reviewer.role) {
      const outcome = await this.review(planCardId);
      const verdict = d.planning.book.get(planCardId)?.review?.verdict?.verdict;
      if (outcome !== 'done' || verdict !== 'ok') return outcome;
    }
    const begun = d.planning.beginExecution(planCardId, fromStep);
    if (!begun.ok) {
      d.errorCard(begun.error);
      return 'error';
    }
    d.setRole(executor.id, 'Execute plan');
    d.planRunStarted();
    // A version the user edited on the card is carried out from its brief only: the Planner's
    // earlier propose_plan arguments would brief the Actor with steps the user changed.
    if (begun.execution.record.provenance.path === 'user_edit') {
      d.conversation.supersedeCalls(proposePlanTool.name, editedPlanNote(begun.execution.record.version));
    }
    // The executing role's first message says which plan it executes (the hand-off is visible in the chat).
    d.events.addCard({ kind: 'text', id: d.events.newId('text'), author: 'assistant', text: begun.announcement, role: executor.id, ts: Date.now() });
    const plan = begun.execution.record.plan;
    const root = d.host.fs.roots[0] ?? '.';
    const limit = Math.max(1, Math.floor(d.settings().parallelSteps ?? 2));
    // Steps that could run side by side (from where the run starts): a plan without any runs as it always did.
    const pairs = parallelPairs(plan.steps.filter((s) => !begun.execution.carried.has(s.step_number)));
    const together = limit > 1 ? pairs : [];
    // Set to one at a time since the card was shown: the card says so rather than "can run side by side".
    if (pairs.length && limit <= 1) d.planning.book.setOneAtATime(begun.execution.record.cardId, await whyOneAtATime(d.host, limit));
    // The Reviewer's look at a step that ended (when the step-review setting asks for one), one at a time or side by side alike.
    const judgeStep = async (step: PlanStep, ended: StepVerdict, diff: string, signal: AbortSignal): Promise<ReviewResult | undefined> => {
      const mode = d.settings().reviewSteps ?? 'off';
      if (mode === 'off' || !d.reviewer.role || signal.aborted) return undefined;
      if (mode === 'on_failure' && ended.state === 'done') return undefined;
      const result = await d.reviewer.reviewStep(plan, step, ended, diff, signal);
      d.planning.book.setStepReview(d.planning.execution?.record.cardId ?? planCardId, step.step_number, result);
      return result;
    };
    if (together.length) {
      const why = await whyOneAtATime(d.host, limit);
      if (!why) {
        // A reason shown when the plan came (no git then) no longer holds.
        d.planning.book.setOneAtATime(begun.execution.record.cardId, undefined);
        return d.exclusive(async (signal) => runPlanGraph({
          planning: d.planning, events: d.events, host: d.host, settings: d.settings, policy: d.policy, setState: d.setState,
          branchTurn: d.branchTurn, checkpoints: d.checkpoints, limit,
          reviewStep: (step, ended, diff, sig) => judgeStep(step, ended, diff, sig),
        }, signal));
      }
      d.planning.book.setOneAtATime(begun.execution.record.cardId, why);
      d.events.addCard({ kind: 'text', id: d.events.newId('note'), author: 'system', note: 'context', text: `Steps ${together.map(([a, b]) => `${a} and ${b}`).join(', ')} could run at the same time, but run one at a time: ${why}.`, ts: Date.now() });
    }
    return d.exclusive(async (signal) =>
      executePlanSteps(d.planning, begun.brief, {
        runTurn: async (message) => {
          if (signal.aborted) return 'stopped';
          d.conversation.appendUser(message);
          // Each step runs under its own stop, so its budget can end it without stopping the task.
          const step = new AbortController();
          const onAbort = () => step.abort();
          signal.addEventListener('abort', onAbort, { once: true });
          this.stepStop = step;
          try {
            return await d.turn(step.signal);
          } finally {
            this.stepStop = undefined;
            signal.removeEventListener('abort', onAbort);
          }
        },
        reviewStep: async (step, ended) => {
          const mode = d.settings().reviewSteps ?? 'off';
          if (mode === 'off' || !d.reviewer.role || signal.aborted) return undefined;
          if (mode === 'on_failure' && ended.state === 'done') return undefined;
          const exec = d.planning.execution;
          const diff = exec ? await stepDiff(d.host.fs, root, exec.before, exec.changed) : '';
          d.setState('thinking', `The ${d.reviewer.role.label} is looking at step ${step.step_number}`);
          return judgeStep(step, ended, diff, signal);
        },
        runCheck: (command, stepNumber) => runStepCheck(command, stepNumber, {
          ui: d.events,
          host: d.host,
          // The check is in its step's scope by definition: plan-scope approval covers it like the step's commands.
          policy: inScopePolicy(d.policy(), 'command'),
          cwd: root,
          roots: d.host.fs.roots,
          timeoutMs: d.settings().limits.commandTimeoutMs,
          maxOutputChars: CHECK_OUTPUT_CHARS,
          signal,
        }),
        root,
        aborted: () => signal.aborted,
        newErrors: () => d.planning.execution?.problems.newErrorLines(root) ?? Promise.resolve([]),
      }),
    );
  }

  /** The plan card's Review: the Reviewer judges the version; the verdict goes on the card. */
  async review(planCardId: string): Promise<TurnOutcome> {
    const d = this.d;
    const record = d.planning.book.get(planCardId);
    if (!record?.plan) {
      d.errorCard(record ? `Plan v${record.version} could not be validated, so there is nothing to review. Revise it first.` : `No plan with id ${planCardId} in this task.`);
      return 'error';
    }
    const reviewer = d.reviewer.role!;
    const plan = record.plan;
    return d.exclusive(async (signal) => {
      d.usage.startTurn();
      d.setState('thinking', `The ${reviewer.label} is reviewing plan v${record.version}`);
      d.planning.beginReview(planCardId);
      try {
        const result = await d.reviewer.reviewPlan(plan, record.version, signal);
        d.planning.book.setReview(planCardId, result);
        return 'done';
      } finally {
        d.planning.endReview();
      }
    });
  }

  /**
   * "Implement with changes": the user's edit of the steps becomes the next version, validated as
   * any plan; no model is asked. A refused edit is said on an error card that the plan card shows
   * next to its Save button (nothing is published then).
   */
  async edit(planCardId: string, steps: readonly StepEdit[], shape: PlanShapeEdit = {}): Promise<TurnOutcome> {
    const r = await this.d.planning.editByUser(planCardId, steps, shape);
    if ('record' in r) return 'done';
    this.d.events.addCard({
      kind: 'error', id: this.d.events.newId('error'),
      message: `Your edit of the plan was not applied: ${r.errors.join('; ')}.`,
      retryable: false, refused: { action: 'edit_plan', target: planCardId }, ts: Date.now(),
    });
    return 'error';
  }

  /** The plan version behind a card, or an error card saying there is none in this task. */
  private planOrError(planCardId: string): PlanRecord | undefined {
    const record = this.d.planning.book.get(planCardId);
    if (!record) this.d.errorCard(`No plan with id ${planCardId} in this task.`);
    return record;
  }

  /**
   * After a failed step or a `replan` verdict: the Planner proposes the next version from the goal,
   * the steps that ran (with their outputs), the ones that remain, why it stopped and the earlier
   * replans; the steps that ran are kept in the new version as they ended.
   */
  async replan(planCardId: string): Promise<TurnOutcome> {
    const d = this.d;
    const record = this.planOrError(planCardId);
    if (!record) return 'error';
    const planner = d.roles.planner!;
    const r = replanOf(record, d.planning.book.all());
    if ('error' in r) {
      d.errorCard(r.error);
      return 'error';
    }
    d.setRole(planner.id, 'Replan');
    return d.plannerTurn({ text: r.message, role: planner.id, feedback: r.why, replan: r.carry });
  }

  /** "Revise": feedback (and comments on single steps) to the Planner, which answers with a new plan version. */
  async revise(planCardId: string, feedback: string, stepComments: readonly { step: number; text: string }[] = []): Promise<TurnOutcome> {
    const d = this.d;
    const record = this.planOrError(planCardId);
    if (!record) return 'error';
    const planner = d.roles.planner!;
    d.setRole(planner.id, 'Revise plan');
    // Comments on single steps travel with the feedback, each naming its step (and the step's action, so the Planner need not look it up).
    const comments = stepComments.map((c) => `- step ${c.step}${record.plan?.steps[c.step - 1] ? ` ("${record.plan.steps[c.step - 1]!.action.slice(0, 80)}")` : ''}: ${c.text.trim()}`);
    const all = [feedback.trim(), comments.length ? `Comments on steps:\n${comments.join('\n')}` : ''].filter(Boolean).join('\n');
    return d.plannerTurn({ text: `Revise plan v${record.version}: ${all}`, role: planner.id, feedback: all });
  }
}
