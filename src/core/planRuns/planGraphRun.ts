/**
 * Executes a plan whose steps can run side by side (their `depends_on` allow it, their files do not
 * overlap), up to `tandem.parallelSteps` / `--parallel N` at once; the scheduler (plans/graph)
 * decides which step starts when. Each step has an Actor conversation of its own holding the goal
 * and its step only, its own plan state (scope, amendments, actions, cost) and its own lane of
 * events (every card and event carries its step number). A step that could have another beside it
 * works in a git worktree made from the workspace as it is, with its sandbox rooted there; when it
 * ends (done or unverified) its in-scope changes are applied back to the workspace as one
 * checkpointed change — not committed — or refused whole when the workspace changed a file it
 * touches, and the step ends failed with the conflict shown. A step nothing can run beside (the
 * first of a diamond, the last) works in the workspace itself, checkpointed as any turn.
 *
 * A failed step stops new steps from starting; the running ones finish their step, or are stopped
 * when the user chose so (`tandem.parallelStepsOnFailure` / `--on-failure stop`). An amendment
 * nobody may decide (headless) fails only its step; the run then ends waiting (CLI exit 3) once the
 * others stop. Stop stops them all. The step workspaces are removed as each step ends (the hosts
 * sweep a crashed run's leftovers when they start, keeping their patches where each host says).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { AgentState, ApprovalInfo, PlanStep, ReviewResult, TurnOutcome } from '../../protocol';
import type { EventStream } from '../events';
import { StepEventStream } from './stepEventStream';
import type { HostPorts } from '../ports/ports';
import type { AgentSettings } from '../settings/settings';
import type { PolicyInput } from '../policy/approvalPolicy';
import type { Planning } from '../plans/planning';
import { Conversation } from '../context/conversation';
import { branchBrief } from '../plans/actorBrief';
import { FAIL_REASON, outside } from './executePlanSteps';
import { runStepCheck } from './runStepCheck';
import { inScopePolicy } from '../plans/amendmentGate';
import { stepVerdict, type StepVerdict } from '../plans/stepVerdict';
import { patchDiff, stepDiff } from './stepDiff';
import { fileInScope } from '../plans/stepScope';
import { dependentsOf } from '../plans/graph/stepGraph';
import { mayRunBeside, stepsToStart } from '../plans/graph/stepScheduler';
import { applyStepPatch, describeRefusals, onlyConflicts, UNSAVED_IN_EDITOR, type PatchRefusal } from './applyStepPatch';
import { stepWorkspaceName, type StepPatch, type StepWorkspace } from '../ports/stepWorkspaces';
import type { CountedUsage, SettledToolCall } from '../turn/turnHooks';
import { formatUsd } from '../cost/priceTable';
import { capHeadTail } from '../text/truncate';
import { clampToolDisplay } from '../../protocol/toolCallDisplay';

/** One step's turn, as the task's agent runs it (see Agent.branchTurn). */
export interface StepBranch {
  step: number;
  events: EventStream;
  conversation: Conversation;
  host: HostPorts;
  planning: Planning;
  /** It works in the workspace itself (not a worktree): the task's checkpoints see its changes. */
  inWorkspace: boolean;
  setState(state: AgentState, detail?: string): void;
  onUsage(u: CountedUsage): void;
}

export interface GraphRunDeps {
  /** The task's planning, with the execution begun (beginExecution). */
  planning: Planning;
  events: EventStream;
  host: HostPorts;
  settings(): AgentSettings;
  policy(): PolicyInput;
  setState(state: AgentState, detail?: string): void;
  branchTurn(b: StepBranch, signal: AbortSignal): Promise<TurnOutcome>;
  /** The task's checkpoints: an applied step is one checkpointed change (Revert per step). */
  checkpoints: { beforeChange(abs: string, callId: string): Promise<void>; settled(call: SettledToolCall): void };
  /** How many steps may run at once. */
  limit: number;
  /** The Reviewer's look at a step that ended, when the step-review setting asks for one (undefined: not asked). */
  reviewStep?(step: PlanStep, ended: StepVerdict, diff: string, signal: AbortSignal): Promise<ReviewResult | undefined>;
}

const CHECK_OUTPUT_CHARS = 4000;

export async function runPlanGraph(d: GraphRunDeps, signal: AbortSignal): Promise<TurnOutcome> {
  const exec = d.planning.execution;
  if (!exec) throw new Error('runPlanGraph: no plan is being executed');
  const first = exec.record;
  // "Add to the plan" from a step publishes a new version mid-run: the schedule reads the version in force.
  const record = () => d.planning.execution?.record ?? first;
  // Continuing: the steps that ended well kept their states on the card (beginExecution), so the schedule reads them as ended.
  const states = () => ({ ...(d.planning.book.get(record().cardId)?.stepStates ?? {}) });
  const lanes = new LaneStates(d.setState);
  // Worktrees are removed while the run goes on (a step's dependents need not wait for it); all before it ends.
  const removals: Promise<void>[] = [];
  const outcomes = new Map<number, TurnOutcome>();
  const running = new Map<number, Promise<void>>();
  // The user's choice when a step fails: the others are stopped (their state says why), not left to finish.
  const halt: Halt = { controller: new AbortController() };
  // A step counts as ended for the schedule once it is wholly over (applied back, reviewed): a replan
  // verdict must come before the steps that need it start.
  const scheduled = () => {
    const s = states();
    for (const n of running.keys()) s[String(n)] = 'running';
    return s;
  };
  const stateOf = (n: number) => d.planning.book.get(record().cardId)?.stepStates[String(n)];
  try {
    for (;;) {
      // A replan verdict, like a failed step, starts nothing new; the running steps end as chosen.
      if (!signal.aborted && !halt.replan) {
        const steps = record().plan.steps;
        for (const n of stepsToStart({ steps, states: scheduled(), limit: d.limit })) {
          const alone = !mayRunBeside(steps, scheduled(), n, dependentsOf(steps, n));
          const child = d.planning.branchFor({ diagnostics: alone })!;
          // Running at once (synchronously), so the next look at the schedule sees it.
          child.setStep(n, 'running');
          lanes.set(n, 'thinking');
          const run = runStep(d, child, steps.find((s) => s.step_number === n)!, alone, lanes, signal, halt, removals)
            .catch((e: unknown) => {
              d.host.logger.error(`step ${n}: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
              child.setStep(n, 'failed', `internal error: ${e instanceof Error ? e.message : String(e)}`);
              return 'error' as TurnOutcome;
            })
            .then((o) => {
              outcomes.set(n, o);
              if (d.settings().onStepFailure === 'stop' && stateOf(n) === 'failed' && !halt.controller.signal.aborted) {
                halt.why = `step ${n} failed, and the other running steps stop when one fails (the setting tandem.parallelStepsOnFailure / --on-failure stop)`;
                halt.controller.abort();
              }
            })
            .finally(() => { running.delete(n); lanes.end(n); });
          running.set(n, run);
        }
      }
      if (running.size === 0) break;
      await Promise.race(running.values());
    }
    if (halt.replan && Object.values(states()).includes('pending')) d.planning.book.setHalted(record().cardId, halt.replan);
  } finally {
    await Promise.all(removals);
    d.planning.endExecution();
  }
  if (signal.aborted) return 'stopped';
  const ended = [...outcomes.values()];
  if (ended.includes('waiting')) return 'waiting';
  if (ended.includes('limit')) return 'limit';
  return ended.every((o) => o === 'done') ? 'done' : 'error';
}

/** Stops the steps still running when another failed (the user's choice); `why` is their reason. */
interface Halt {
  controller: AbortController;
  why?: string;
  /** Set when the Reviewer said replan after a step: why the run stopped starting steps (shown on the card). */
  replan?: string;
}

/** One step from start to end; returns how its turn ended ('error' when it failed). */
async function runStep(d: GraphRunDeps, child: Planning, step: PlanStep, alone: boolean, lanes: LaneStates, signal: AbortSignal, halt: Halt, removals: Promise<void>[]): Promise<TurnOutcome> {
  const n = step.step_number;
  const exec = child.execution!;
  const events = new StepEventStream(d.events, n);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  halt.controller.signal.addEventListener('abort', onAbort, { once: true });
  // Stopped by the user's Stop, or because another step failed.
  const stoppedWhy = () => (signal.aborted || !halt.why ? FAIL_REASON.stopped : `stopped: ${halt.why}`);
  let made: StepWorkspace | undefined;
  let ready = false;
  try {
    let host: HostPorts = d.host;
    if (!alone) {
      // The step's workspace is made while its first request goes out: its files and commands wait for it.
      made = await d.host.stepWorkspaces!.create(d.host.fs.roots[0] ?? '.', `step${n}`);
      host = afterReady(d.host.forRoot!(made.root, { readOnlyFolders: made.readOnlyFolders, hideSecretsIn: d.host.fs.roots }), made.ready);
    }
    host = labelled(host, n);
    const stepRoot = host.fs.roots[0] ?? '.';
    const conversation = new Conversation();
    conversation.appendUser(branchBrief(exec.record.plan, exec.record.version, n));
    const outcome = await d.branchTurn({
      step: n, events, conversation, host, planning: child, inWorkspace: alone,
      setState: (state, detail) => lanes.set(n, state, detail),
      onUsage: (u) => {
        const slice = child.noteUsage(u.role, { tokensIn: u.tokensIn, tokensOut: u.tokensOut, ...(u.costUsd !== undefined ? { costUsd: u.costUsd } : {}) });
        const cap = d.settings().stepBudgetUsd ?? 0;
        if (!slice || cap <= 0 || slice.costUsd === undefined || slice.costUsd < cap) return;
        child.stopForBudget(`step ${n} reached its budget of ${formatUsd(cap)} (${formatUsd(slice.costUsd)} spent)`);
        stop.abort();
      },
    }, stop.signal);
    if (made) {
      await made.ready;
      ready = true;
    }
    // What the step changed in its own workspace, read once it has ended (a refusal is the step's failure).
    let patch: StepPatch | undefined;
    const readPatch = async () => (patch ??= await d.host.stepWorkspaces!.readPatch(made!));
    // The Reviewer judges what the step changed, as for a step run alone (its own diff, never the others').
    const review = async (ended: StepVerdict, diffNow?: string): Promise<void> => {
      if (!d.reviewStep || signal.aborted) return;
      const diff = diffNow ?? (made ? await patchDiff((await readPatch().catch(() => undefined))?.entries ?? [], workspaceText(d)) : await stepDiff(host.fs, stepRoot, exec.before, exec.changed));
      lanes.set(n, 'thinking');
      const current = child.execution?.record.plan.steps.find((s) => s.step_number === n) ?? step;
      const result = await d.reviewStep(current, ended, diff, stop.signal).catch((e: unknown) => {
        d.host.logger.warn(`step ${n}: the review failed: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (result?.verdict?.verdict === 'replan' && !halt.replan) halt.replan = `Stopped after step ${n}: the Reviewer says replan (${result.verdict.reasons.join('; ')}).`;
    };
    const failure = child.execution?.failure;
    if (failure !== undefined) {
      child.setStep(n, 'failed', failure);
      await review({ state: 'failed', evidence: { why: [failure] } });
      return outcome === 'done' || exec.overBudget ? 'error' : outcome;
    }
    if (outcome !== 'done') {
      const refused = outcome === 'waiting' ? child.refusedAmendment : undefined;
      child.setStep(n, outcome === 'stopped' ? 'stopped' : 'failed', refused ? `stopped on an amendment nobody could decide here: ${refused.text}` : outcome === 'stopped' ? stoppedWhy() : FAIL_REASON[outcome]);
      return outcome;
    }
    const check = step.check?.trim()
      ? await runStepCheck(step.check.trim(), n, {
        ui: events, host,
        policy: inScopePolicy({ ...d.policy(), roots: host.fs.roots }, 'command'),
        cwd: stepRoot, roots: host.fs.roots, timeoutMs: d.settings().limits.commandTimeoutMs, maxOutputChars: CHECK_OUTPUT_CHARS, signal: stop.signal,
        // In its own workspace, what the check changed is what it added to the step's patch (a patch the
        // step cannot read is its failure later, not the check's).
        ...(made ? { changes: async () => patchSignatures(await d.host.stepWorkspaces!.readPatch(made!).catch(() => ({ entries: [] })), stepRoot) } : {}),
      })
      : undefined;
    if (stop.signal.aborted) {
      if (exec.overBudget) child.setStep(n, 'failed', exec.overBudget);
      else child.setStep(n, 'stopped', stoppedWhy());
      return exec.overBudget ? 'error' : 'stopped';
    }
    // In its own workspace, the patch holds every path the step changed (by its tools, its commands and its check).
    if (made) {
      try {
        await readPatch();
      } catch (e) {
        const why = `its changes were not applied: ${e instanceof Error ? e.message : String(e)}`;
        child.setStep(n, 'failed', undefined, { why: [why] });
        await review({ state: 'failed', evidence: { why: [why] } }, '');
        return 'error';
      }
    }
    const changed = patch ? patch.entries.map((c) => c.path) : [];
    // Its files as the version in force has them ("Add to the plan" may have widened them meanwhile).
    const files = child.execution?.record.plan.steps.find((s) => s.step_number === n)?.files ?? step.files;
    const outsideScope = patch ? changed.filter((p) => !fileInScope(files, p)).sort() : outside(files, [...exec.changed], stepRoot);
    const newErrors = patch ? [] : await exec.problems.newErrorLines(stepRoot);
    const verdict = stepVerdict({ actions: [...exec.actions], outsideScope, newErrors, ...(check ? { check } : {}) });
    let diff: string | undefined;
    if (patch && verdict.state !== 'failed') {
      // Only what the step's files cover goes back, and what a person allowed once beyond them: an
      // out-of-scope write nobody allowed never reaches the workspace.
      const allowed = exec.allowedOnce ?? new Set<string>();
      const inScope = (p: string) => fileInScope(files, p) || allowed.has(p);
      // What the patch could not carry goes along, so the apply names it (never dropped silently).
      const going: StepPatch = { entries: patch.entries.filter((e) => inScope(e.path)), ...(patch.notCarried?.length ? { notCarried: patch.notCarried } : {}) };
      // Read before the apply: after it, the workspace holds the step's text, not what it started from.
      diff = d.reviewStep ? await patchDiff(patch.entries, workspaceText(d)) : undefined;
      const applied = await applyBack(d, events, n, going, inScope, outsideScope.filter((p) => !allowed.has(p)));
      if (!applied.ok) {
        const evidence = { why: [applied.why, ...verdict.evidence.why], ...(verdict.evidence.check ? { check: verdict.evidence.check } : {}) };
        child.setStep(n, 'failed', undefined, evidence);
        await review({ state: 'failed', evidence }, diff);
        return 'error';
      }
    }
    child.setStep(n, verdict.state, undefined, verdict.evidence);
    await review(verdict, diff);
    return verdict.state === 'failed' ? 'error' : 'done';
  } catch (e) {
    if (stop.signal.aborted) {
      child.setStep(n, 'stopped', stoppedWhy());
      return 'stopped';
    }
    child.setStep(n, 'failed', `${made && !ready ? `its ${stepWorkspaceName(made.kind)} could not be made: ` : ''}${e instanceof Error ? e.message : String(e)}`);
    return 'error';
  } finally {
    signal.removeEventListener('abort', onAbort);
    halt.controller.signal.removeEventListener('abort', onAbort);
    if (made) {
      const place = stepWorkspaceName(made.kind);
      removals.push(d.host.stepWorkspaces!.remove(made).catch((e: unknown) => d.host.logger.warn(`step ${n}: its ${place} was not removed: ${String(e)}`)));
    }
  }
}

/** Each path of a step patch (absolute, under the step's root) with what it holds, for comparing two readings. */
function patchSignatures(patch: StepPatch, root: string): Map<string, string> {
  return new Map(patch.entries.map((e) => [path.join(root, e.path), e.kind === 'file' ? `file:${e.mode}:${createHash('sha256').update(e.bytes).digest('hex')}` : e.kind === 'symlink' ? `link:${e.target}` : 'gone']));
}

/** A workspace file's text as it is now (null: absent or unreadable), by its workspace-relative path. */
function workspaceText(d: GraphRunDeps): (rel: string) => Promise<string | null> {
  const root = d.host.fs.roots[0] ?? '.';
  return (rel) => d.host.fs.readText(`${root}/${rel}`).catch(() => null);
}

/** The step's patch onto the workspace as one checkpointed change with a card of its own; refused whole on a conflict or a broken rule. */
async function applyBack(d: GraphRunDeps, events: EventStream, n: number, patch: StepPatch, inScope: (rel: string) => boolean, leftOut: readonly string[]): Promise<{ ok: true } | { ok: false; why: string }> {
  if (patch.entries.length === 0 && !patch.notCarried?.length) return { ok: true };
  const root = d.host.fs.roots[0] ?? '.';
  const cardId = events.newId('tool');
  const callId = `apply-${cardId}`;
  const files = [...patch.entries.map((c) => c.path), ...(patch.notCarried ?? []).map((c) => c.path)];
  events.addCard({
    kind: 'tool_call', id: cardId, call_id: callId, tool: 'apply_step',
    summary: `apply step ${n}'s changes to the workspace: ${files.join(', ')}`,
    // Worded as part of the step ("Step 2 applied: a.txt"), not as a call of a tool named apply_step: no model called it.
    display: clampToolDisplay({ kind: 'step', title: 'Apply a step to the workspace', verb: `Applying step ${n}:`, done: `Step ${n} applied:`, detail: files.join(', '), tag: 'plan run' }),
    args: { step: n, files }, status: 'running', ts: Date.now(),
  });
  const result = await applyStepPatch(patch, {
    workspace: root, fs: d.host.fs, inScope,
    beforeChange: (abs) => d.checkpoints.beforeChange(abs, callId),
  });
  if (!result.ok) {
    const conflicts = onlyConflicts(result.refusals);
    const why = conflicts
      ? `its changes were not applied: ${conflictWords(result.refusals, n)}, so none of its changes were written (never half-applied)`
      : `its changes were not applied, none of them (never half-applied): ${describeRefusals(result.refusals)}`;
    const named = new Set(result.refusals.map((r) => r.path));
    const diffs = conflicts ? `\nThe step's changes to ${named.size === 1 ? 'that file' : 'those files'}:\n${await patchDiff(patch.entries.filter((e) => named.has(e.path)), workspaceText(d))}` : '';
    events.patchCard(cardId, { status: 'error', error: capHeadTail(`Not applied: ${why}.${diffs}`, 8000) });
    d.checkpoints.settled({ callId, cardId, tool: 'apply_step', status: 'error' });
    return { ok: false, why };
  }
  const note = leftOut.length ? ` Left out (outside the step's files): ${leftOut.join(', ')}.` : '';
  events.patchCard(cardId, { status: 'done', result: `Applied to the workspace (not committed): ${files.join(', ')}.${note}` });
  d.checkpoints.settled({ callId, cardId, tool: 'apply_step', status: 'done' });
  return { ok: true };
}

/** What the workspace did to the step's files, by file: changed since the step started, or unsaved in an editor. */
function conflictWords(refusals: readonly PatchRefusal[], n: number): string {
  const changed = refusals.filter((r) => r.rule !== UNSAVED_IN_EDITOR).map((r) => r.path);
  const unsaved = refusals.filter((r) => r.rule === UNSAVED_IN_EDITOR).map((r) => r.path);
  return [
    ...(changed.length ? [`the workspace changed ${changed.join(', ')} since step ${n} started`] : []),
    ...(unsaved.length ? [`${unsaved.join(', ')} ${unsaved.length === 1 ? 'has' : 'have'} unsaved changes in the editor (kept as typed)`] : []),
  ].join('; ');
}

/** A host whose files and commands wait until the worktree they work in is made. */
function afterReady(host: HostPorts, ready: Promise<unknown>): HostPorts {
  const gate = <T extends object>(target: T): T => new Proxy(target, {
    get(t, key, receiver) {
      const v = Reflect.get(t, key, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return async (...args: unknown[]) => {
        await ready;
        return (v as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
  return { ...host, fs: gate(host.fs), commands: gate(host.commands) };
}

/** The step's approvals say which step asks (several may wait at once). */
function labelled(host: HostPorts, step: number): HostPorts {
  return {
    ...host,
    approver: { request: (req, signal) => host.approver.request({ ...req, info: { ...req.info, step } as ApprovalInfo }, signal) },
  };
}

/** The task's state chip while steps run: how many, and which wait on the user. */
class LaneStates {
  private readonly states = new Map<number, { state: AgentState; detail?: string }>();

  constructor(private readonly setState: (state: AgentState, detail?: string) => void) {}

  set(step: number, state: AgentState, detail?: string): void {
    this.states.set(step, { state, ...(detail ? { detail } : {}) });
    this.show();
  }

  end(step: number): void {
    this.states.delete(step);
    if (this.states.size) this.show();
  }

  private show(): void {
    const running = [...this.states.keys()].sort((a, b) => a - b);
    const waiting = running.filter((n) => this.states.get(n)?.state === 'waiting_on_user');
    const working = running.filter((n) => !waiting.includes(n));
    // Every running step by number, who waits first: a narrow side bar cuts the chip's end, so
    // it leads with what needs the user ("2 steps running: step…" said nothing at 300 px).
    const steps = (ns: number[]) => (ns.length === 1 ? `${ns[0]}` : `${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`);
    const label = (ns: number[]) => `${ns.length === 1 ? 'Step' : 'Steps'} ${steps(ns)}`;
    if (waiting.length) {
      const others = working.length ? ` · ${working.length === 1 ? 'step' : 'steps'} ${steps(working)} running` : '';
      this.setState('waiting_on_user', `${label(waiting)} ${waiting.length === 1 ? 'waits' : 'wait'} for you${others}`);
    } else this.setState(running.some((n) => this.states.get(n)?.state === 'calling_tool') ? 'calling_tool' : 'thinking', `${label(running)} running`);
  }
}
