/**
 * The agent's plan state for one task: the plan book (versions, provenance, step states), whether
 * the endpoint takes structured outputs, the Planner's plan attempt in progress, and the plan the
 * Actor is executing. The loop owns one and hands it to tools through `ToolContext.planning`.
 */
import type { Logger } from '../ports/ports';
import type { Amendment, Plan, StepEvidence, StepState } from '../../protocol';
import type { StepAction } from './stepVerdict';
import { PlanBook } from './planBook';
import type { CardSink } from '../events/cardSink';
import { PlanTurn, type ReplanCarry } from './planTurn';
import type { UsageAmount } from './planBook';
import type { PlanRecord } from './planRecord';
import { StructuredOutputs, type StructuredOutputsSetting } from './structuredOutputs';
import { actorBrief, executionAnnouncement } from './actorBrief';
import { extractJson } from './extractJson';
import { widenStepScope } from './widenStepScope';
import { editPlanSteps, type PlanShapeEdit, type StepEdit } from './editPlanSteps';
import { validatePlan } from './validatePlan';
import type { ScopeAddition } from './stepScope';
import { StepProblems } from './stepProblems';
import { PlanDraft } from './planDraft';
import type { DiagnosticsProvider } from '../ports/ports';

export interface PlanningOptions {
  logger: Logger;
  structuredOutputs: StructuredOutputsSetting;
  /** Repairs allowed after a failed plan (setting `planRepairTries`). */
  planRepairTries: number;
  /** The tool names a plan step may use, as the tool registry has them now. */
  stepTools: () => readonly string[];
  /** Whether a file named in a plan is inside the workspace (see `insideWorkspace`). */
  isInside?: (file: string) => Promise<boolean>;
  now?: () => number;
  /** The editor's problems, where there is an editor: new errors in a step's files keep it from done. */
  diagnostics?: DiagnosticsProvider;
  /** Why steps that could run side by side run one at a time here (the plan card says it when shown). */
  whyOneAtATime?: () => Promise<string | undefined>;
  /** The shortest time between two updates of the plan's draft card (tests set 0). */
  draftThrottleMs?: number;
}

/** The plan being executed and what happened to its current step. */
export interface PlanExecution {
  record: PlanRecord & { plan: Plan };
  /** The step being worked on (1-based), 0 before the first. */
  step: number;
  /** Set by `fail_step` during the current step. */
  failure?: string;
  /** The current step's tool calls as they settled (what the Actor did, and what was refused). */
  actions: StepAction[];
  /** Absolute paths the current step changed (told before each change). */
  changed: Set<string>;
  /** Workspace-relative files outside the current step's scope that a person allowed once. */
  allowedOnce?: Set<string>;
  /** Each changed file's text before the step first changed it (null: it did not exist), for the step's diff. */
  before: Map<string, string | null>;
  /** The step to start from (earlier steps keep how they ended). */
  from: number;
  /**
   * Steps that keep how they ended and are not run (continuing: every step that ended done or
   * unverified, whatever its number, but `from`); empty for a run from the start.
   */
  carried: ReadonlySet<number>;
  /** Set when the current step went over its budget (the step is stopped and fails with this). */
  overBudget?: string;
  /** The editor's problems of those files before the step changed them (see stepProblems.ts). */
  problems: StepProblems;
}

/** What a plan's usage is counted against: the version being executed (with its step), or one reviewed. */
interface UsageTarget {
  cardId: string;
  step?: number;
}

export class Planning {
  readonly book: PlanBook;
  readonly structured: StructuredOutputs;
  private turn: PlanTurn | undefined;
  private exec: PlanExecution | undefined;
  /** A plan version the Reviewer is judging right now (its requests count against it). */
  private reviewing: string | undefined;
  /** The Planner turn's usage, counted against the version it produces once it is published. */
  private turnUsage = new Map<string, UsageAmount>();
  /** The last execution's amendment that nobody could decide (headless): the run stopped on it. */
  refusedAmendment: Amendment | undefined;
  /** The card of the version the last execution ended on (an amendment may have made a newer one). */
  lastExecutedCardId: string | undefined;

  /** Set on a step's branch (see `branchFor`): the task's planning, which also hears of a refused amendment. */
  private readonly parent: Planning | undefined;
  /** The branches of the execution in progress (steps run beside others): a new version moves them all to it. */
  private readonly branches = new Set<Planning>();

  constructor(readonly ui: CardSink, private opts: PlanningOptions, shared?: { book: PlanBook; parent: Planning }) {
    this.book = shared?.book ?? new PlanBook(ui, opts.now, opts.whyOneAtATime);
    this.parent = shared?.parent;
    this.structured = new StructuredOutputs(opts.structuredOutputs, opts.logger);
  }

  /**
   * The execution state of one step run beside others (steps of a graph): its own scope, actions,
   * changes, failure and usage, over the same plan book, so its state, evidence and cost land on the
   * same card. "Add to the plan" from it publishes the new version through the task's planning,
   * which moves every branch to it (the other steps go on, their scopes unchanged). An amendment
   * nobody could decide (headless) is the task's too: the run ends waiting (CLI exit 3) once the others stop.
   * `diagnostics: false`: the step works in a worktree the editor's language services do not see.
   */
  branchFor(opts: { diagnostics: boolean }): Planning | undefined {
    const exec = this.exec;
    if (!exec) return undefined;
    const child = new Planning(this.ui, { ...this.opts, ...(opts.diagnostics ? {} : { diagnostics: undefined }) }, { book: this.book, parent: this });
    child.exec = { record: exec.record, step: 0, actions: [], changed: new Set(), before: new Map(), from: exec.from, carried: exec.carried, problems: new StepProblems(child.opts.diagnostics) };
    this.branches.add(child);
    return child;
  }

  update(opts: Partial<Omit<PlanningOptions, 'logger'>>): void {
    this.opts = { ...this.opts, ...opts };
    if (opts.structuredOutputs) this.structured.update(opts.structuredOutputs);
  }

  /** Starts collecting a plan for a Planner turn (each turn may produce at most one plan version). */
  beginPlanTurn(model: string, feedback?: string, more: { promptVersion?: string; replan?: ReplanCarry; fallbacks?: readonly string[] } = {}): PlanTurn {
    this.turnUsage.clear();
    const stepTools = this.opts.stepTools();
    this.turn = new PlanTurn(this.book, {
      model, feedback, maxRepairs: this.opts.planRepairTries, logger: this.opts.logger,
      isInside: this.opts.isInside, now: this.opts.now, stepTools, ...more,
      draft: new PlanDraft(this.ui, { stepTools, ...(this.opts.now ? { now: this.opts.now } : {}), ...(this.opts.draftThrottleMs !== undefined ? { throttleMs: this.opts.draftThrottleMs } : {}) }),
    });
    return this.turn;
  }

  /**
   * One request's usage (every role's): counted on the plan card — per role, and per step while a
   * step runs. Returns the current step's totals so far (for its budget), when a step is running.
   */
  noteUsage(role: string, u: UsageAmount): { step: number; costUsd?: number } | undefined {
    const target = this.usageTarget();
    if (target) {
      const slice = this.book.addUsage(target.cardId, role, target.step, u);
      return target.step && slice ? { step: target.step, ...(slice.cost_usd !== undefined ? { costUsd: slice.cost_usd } : {}) } : undefined;
    }
    if (this.turn) {
      const t = this.turnUsage.get(role) ?? { tokensIn: 0, tokensOut: 0, requests: 0 };
      // A cost stays unknown until a request with a known price says otherwise (never a made-up $0).
      const costUsd = u.costUsd === undefined ? t.costUsd : (t.costUsd ?? 0) + u.costUsd;
      this.turnUsage.set(role, { tokensIn: t.tokensIn + u.tokensIn, tokensOut: t.tokensOut + u.tokensOut, ...(costUsd !== undefined ? { costUsd } : {}), requests: (t.requests ?? 0) + 1 });
    }
    return undefined;
  }

  private usageTarget(): UsageTarget | undefined {
    if (this.exec) return { cardId: this.exec.record.cardId, step: this.exec.step };
    if (this.reviewing) return { cardId: this.reviewing };
    return undefined;
  }

  /** While the Reviewer judges a version, its requests count against that version. */
  beginReview(cardId: string): void {
    this.reviewing = cardId;
  }

  endReview(): void {
    this.reviewing = undefined;
  }

  /**
   * A plan from a file (`tandem run --plan FILE.json`): checked exactly like a model's plan (never
   * executed unvalidated) and published as a version of this task; no repair, a file cannot be asked.
   */
  async importPlan(raw: string, source: string): Promise<PlanRecord> {
    const turn = new PlanTurn(this.book, {
      model: `file:${source}`, maxRepairs: 0, logger: this.opts.logger, isInside: this.opts.isInside, now: this.opts.now, stepTools: this.opts.stepTools(),
    });
    const found = extractJson(raw);
    const res = found.ok ? await turn.submit(raw, found.value, 'file') : await turn.submit(raw, undefined, 'file', found.error);
    if (res.status === 'repair' || res.status === 'fallback') throw new Error('unreachable: no repairs or fallbacks for a plan file');
    return res.record;
  }

  /** The Planner turn's plan attempt, if one is open (`propose_plan` uses it). */
  get currentTurn(): PlanTurn | undefined {
    return this.turn;
  }

  /** Ends the Planner turn: an unrepaired failed attempt is still shown (never silently dropped). */
  endPlanTurn(): PlanRecord | undefined {
    const t = this.turn;
    this.turn = undefined;
    const record = t?.finish();
    // What it cost to produce this version: the Planner's requests of this turn.
    if (record) for (const [role, u] of this.turnUsage) this.book.addUsage(record.cardId, role, undefined, u);
    this.turnUsage.clear();
    return record;
  }

  /**
   * Prepares "Execute plan": refuses anything that is not a validated plan of this task. Returns
   * the Actor's brief and its first message (which plan it executes).
   */
  beginExecution(cardId: string, fromStep?: number): { ok: true; execution: PlanExecution; brief: string; announcement: string } | { ok: false; error: string } {
    const record = this.book.get(cardId);
    if (!record) return { ok: false, error: `No plan with id ${cardId} in this task.` };
    if (!record.plan) return { ok: false, error: `Plan v${record.version} could not be validated, so it cannot be executed. Revise it first.` };
    if (this.exec) return { ok: false, error: `Plan v${this.exec.record.version} is already being executed.` };
    const last = record.plan.steps[record.plan.steps.length - 1]!.step_number;
    if (fromStep !== undefined && (fromStep < 1 || fromStep > last)) return { ok: false, error: `Plan v${record.version} has no step ${fromStep}.` };
    const from = fromStep ?? 1;
    // Continuing (a step named, even step 1): the steps that ended well stay as they are, whatever their
    // number — in a branching plan one numbered after `from` may have run beside it. From the start: all reset.
    const carried = new Set(fromStep !== undefined ? this.book.resetUnfinishedSteps(cardId, from) : []);
    if (fromStep === undefined) this.book.resetSteps(cardId);
    this.exec = { record: record as PlanExecution['record'], step: 0, actions: [], changed: new Set(), before: new Map(), from, carried, problems: new StepProblems(this.opts.diagnostics) };
    this.book.setHalted(cardId, undefined);
    this.book.overrideReviews(cardId);
    this.refusedAmendment = undefined;
    this.lastExecutedCardId = cardId;
    this.book.setExecuting(cardId, true);
    return {
      ok: true,
      execution: this.exec,
      brief: actorBrief(record.plan, record.version, from, [...carried]),
      announcement: executionAnnouncement(record.plan, record.version, from),
    };
  }

  get execution(): PlanExecution | undefined {
    return this.exec;
  }

  /** The step running now, as the cards it adds carry it (EventStream.stepOf); undefined between runs and before the first step. */
  runningStep(): number | undefined {
    return this.exec && this.exec.step > 0 ? this.exec.step : undefined;
  }

  setStep(stepNumber: number, state: StepState, reason?: string, evidence?: StepEvidence): void {
    if (!this.exec) return;
    if (state === 'running') {
      this.exec.step = stepNumber;
      this.exec.failure = undefined;
      this.exec.actions = [];
      this.exec.changed = new Set();
      this.exec.allowedOnce = undefined;
      this.exec.before = new Map();
      this.exec.overBudget = undefined;
      this.exec.problems = new StepProblems(this.opts.diagnostics);
    }
    this.book.setStepState(this.exec.record.cardId, stepNumber, state, reason, evidence);
  }

  /** A tool call settled while a step runs: part of that step's record. */
  noteAction(action: StepAction): void {
    if (this.exec && this.exec.step > 0) this.exec.actions.push(action);
  }

  /**
   * A file is about to change while a step runs; `before` is its text now (null: it does not exist
   * yet). Its editor problems are taken before the step's first change of it (stepProblems.ts).
   */
  async noteChange(absPath: string, before?: string | null): Promise<void> {
    if (!this.exec || this.exec.step === 0) return;
    this.exec.changed.add(absPath);
    if (before !== undefined && !this.exec.before.has(absPath)) this.exec.before.set(absPath, before);
    await this.exec.problems.beforeChange(absPath);
  }

  /** Files a command of the current step changed: step changes like any other (scope, diff), their text before unknown. */
  async noteCommandChanges(absPaths: readonly string[]): Promise<void> {
    for (const abs of absPaths) await this.noteChange(abs);
  }

  /** Whether the current step's first change of this file is still to come (its text before is worth reading). */
  wantsBefore(absPath: string): boolean {
    return !!this.exec && this.exec.step > 0 && !this.exec.before.has(absPath);
  }

  /** The current step went over its budget: it is stopped and ends failed with this reason. */
  stopForBudget(reason: string): void {
    if (!this.exec || this.exec.step === 0) return;
    this.exec.overBudget = reason;
    this.exec.failure = reason;
  }

  /** `fail_step`: the Actor says the current step cannot be done. */
  failCurrentStep(reason: string): boolean {
    if (!this.exec || this.exec.step === 0) return false;
    this.exec.failure = reason;
    return true;
  }

  /** A person allowed a change to these files once, outside the current step's scope. */
  noteAllowedOnce(files: readonly string[]): void {
    if (!this.exec || files.length === 0) return;
    this.exec.allowedOnce ??= new Set();
    for (const f of files) this.exec.allowedOnce.add(f);
  }

  /** An amendment was refused where nobody could decide it: the run stops on it (CLI exit 3). */
  noteRefusedAmendment(amendment: Amendment): void {
    this.refusedAmendment = amendment;
    this.parent?.noteRefusedAmendment(amendment);
  }

  /**
   * "Add to the plan": publishes a new version whose step `stepNumber` has its scope widened, and
   * goes on executing that version (its steps keep the states and evidence they had). Returns the
   * new version and what changed, or undefined when no plan is executing.
   */
  amendStep(stepNumber: number, add: ScopeAddition, why: string): { version: number; change: string } | undefined {
    // A step run beside others: the task's planning publishes the version (and moves every branch to it).
    if (this.parent) return this.exec ? this.parent.amendStep(stepNumber, add, why) : undefined;
    const exec = this.exec;
    if (!exec) return undefined;
    const old = exec.record;
    const widened = widenStepScope(old.plan, stepNumber, add);
    if (!widened) return undefined;
    const now = (this.opts.now ?? Date.now)();
    const record = this.book.publish({
      plan: widened.plan,
      errors: [],
      provenance: { model: old.provenance.model, raw: JSON.stringify(widened.plan, null, 2), path: 'amendment', attempts: [], repairs: 0, createdAt: now, feedback: `amendment: ${why}` },
    });
    // The new version continues the run where it stands: same step states and evidence, executing.
    record.stepStates = { ...old.stepStates };
    record.stepEvidence = { ...old.stepEvidence };
    this.book.setExecuting(old.cardId, false);
    this.ui.patchCard(record.cardId, {
      step_states: { ...record.stepStates }, step_evidence: { ...record.stepEvidence }, executing: true,
      amended: `v${record.version} adds to v${old.version}: ${widened.change}`,
    });
    exec.record = record as PlanExecution['record'];
    for (const b of this.branches) if (b.exec) b.exec.record = exec.record;
    this.lastExecutedCardId = record.cardId;
    return { version: record.version, change: widened.change };
  }

  /**
   * The user's edit of a version that has not run: validated as any plan (schema, tools, scopes
   * inside the workspace), then published as the next version with its changes. Returns the new
   * record, or the problems (nothing is published then).
   */
  async editByUser(cardId: string, edits: readonly StepEdit[], shape: PlanShapeEdit = {}): Promise<{ record: PlanRecord } | { errors: string[] }> {
    const old = this.book.get(cardId);
    if (!old?.plan) return { errors: [old ? `plan v${old.version} could not be validated, so it cannot be edited` : 'no such plan in this task'] };
    if (old.superseded) return { errors: [`plan v${old.version} is superseded: edit the latest version`] };
    if (this.exec || Object.values(old.stepStates).some((st) => st !== 'pending')) return { errors: [`plan v${old.version} has run: edit it before Execute, or Revise it`] };
    const edited = editPlanSteps(old.plan, edits, shape);
    if ('error' in edited) return { errors: [edited.error] };
    const v = await validatePlan(edited.plan, { stepTools: this.opts.stepTools(), ...(this.opts.isInside ? { isInside: this.opts.isInside } : {}) });
    if (!v.ok) return { errors: v.errors };
    if (JSON.stringify(v.plan) === JSON.stringify(old.plan)) return { errors: ['nothing was changed'] };
    const now = (this.opts.now ?? Date.now)();
    const record = this.book.publish({
      plan: v.plan,
      errors: [],
      provenance: { model: 'you', raw: JSON.stringify(v.plan, null, 2), path: 'user_edit', attempts: [], repairs: 0, createdAt: now, feedback: `edited by the user from v${old.version}` },
    });
    this.ui.patchCard(record.cardId, { amended: `Edited by you from v${old.version}, without the Planner` });
    return { record };
  }

  endExecution(): void {
    this.branches.clear();
    if (!this.exec) return;
    this.book.setExecuting(this.exec.record.cardId, false);
    this.exec = undefined;
  }
}
