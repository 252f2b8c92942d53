import assert from 'node:assert/strict';
import { Planning } from '../../../src/core/plans/planning';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';

/** The names plan steps may use with the product's registries. */
const STEP_TOOLS = productToolRegistry().stepTools(PRODUCT_ROLES);
import { proposePlanTool } from '../../../src/core/tools/proposePlan';
import { failStepTool } from '../../../src/core/tools/failStep';
import { executePlanSteps } from '../../../src/core/planRuns/executePlanSteps';
import type { ToolContext } from '../../../src/core/tools/tool';
import type { PlanCard } from '../../../src/protocol';
import { checkedPlan, goodPlan, planWithUnknownTool, recorder } from './planFixtures';

function ctxFor(planning: Planning, role: 'planner' | 'actor'): ToolContext {
  return { role: PRODUCT_ROLES.get(role), planning, ui: planning.ui, callId: 'call1', signal: new AbortController().signal } as unknown as ToolContext;
}

describe('propose_plan tool', () => {
  it('is offered to the Planner only, with the strict plan schema as parameters', () => {
    assert.equal(proposePlanTool.available!({ role: PRODUCT_ROLES.get('planner') }), true);
    assert.equal(proposePlanTool.available!({ role: PRODUCT_ROLES.get('actor') }), false);
    assert.equal(typeof proposePlanTool.parameters, 'function', 'the schema is derived from the registry');
    assert.equal((proposePlanTool.parameters as (c: { stepTools: string[] }) => any)({ stepTools: STEP_TOOLS }).additionalProperties, false);
  });

  it('returns the error lines for a repair, then accepts the corrected plan and ends the turn', async () => {
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'auto', planRepairTries: 2, stepTools: () => STEP_TOOLS });
    planning.beginPlanTurn('m');
    const bad = await proposePlanTool.run(planWithUnknownTool(), ctxFor(planning, 'planner'));
    assert.equal(bad.isError, true);
    assert.equal(bad.endTurn, undefined, 'the model gets to repair');
    assert.match(bad.content, /step 2: tools_needed names unknown tool 'sed'/);
    assert.match(bad.content, /Call propose_plan again/);
    assert.equal(r.stream.cards().length, 0, 'no card for a failed attempt that can still be repaired');
    const ok = await proposePlanTool.run(goodPlan(), ctxFor(planning, 'planner'));
    assert.equal(ok.isError, undefined);
    assert.equal(ok.endTurn, true);
    const card = r.stream.cards()[0] as PlanCard;
    assert.equal(card.kind, 'plan');
    assert.equal(card.version, 1);
    assert.equal(card.plan?.steps.length, 2);
    assert.equal(planning.book.get(card.id)!.provenance.path, 'tool');
    assert.equal(planning.book.get(card.id)!.provenance.repairs, 1);
  });

  it('after the last repair, shows the plan as unvalidated text and ends the turn', async () => {
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'auto', planRepairTries: 1, stepTools: () => STEP_TOOLS });
    planning.beginPlanTurn('m');
    await proposePlanTool.run(planWithUnknownTool(), ctxFor(planning, 'planner'));
    const res = await proposePlanTool.run(planWithUnknownTool(), ctxFor(planning, 'planner'));
    assert.equal(res.endTurn, true);
    assert.match(res.display ?? '', /this plan could not be validated/);
    const card = r.stream.cards()[0] as PlanCard;
    assert.equal(card.plan, null);
    assert.match(card.raw_text ?? '', /"sed"/);
  });

  it('shows an abandoned failed attempt when the turn ends (never silently dropped)', async () => {
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'auto', planRepairTries: 2, stepTools: () => STEP_TOOLS });
    planning.beginPlanTurn('m');
    await proposePlanTool.run(planWithUnknownTool(), ctxFor(planning, 'planner'));
    const rec = planning.endPlanTurn();
    assert.equal(rec?.plan, null);
    assert.deepEqual((r.stream.cards()[0] as PlanCard).errors, ["step 2: tools_needed names unknown tool 'sed'"]);
  });

  it('refuses outside a Planner plan turn', async () => {
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'auto', planRepairTries: 2, stepTools: () => STEP_TOOLS });
    const res = await proposePlanTool.run(goodPlan(), ctxFor(planning, 'actor'));
    assert.equal(res.isError, true);
    assert.equal(r.stream.cards().length, 0);
  });
});

describe('plan execution, step by step', () => {
  async function validated(tries = 2, plan: unknown = goodPlan()) {
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'auto', planRepairTries: tries, stepTools: () => STEP_TOOLS });
    const turn = planning.beginPlanTurn('m');
    await turn.submit('{}', plan, 'tool');
    planning.endPlanTurn();
    return { ...r, planning, cardId: turn.result!.cardId };
  }
  const stepEvents = (events: any[]) => events.filter((e) => e.type.startsWith('step_')).map((e) => `${e.type}:${e.step_number}`);
  /** Step runners around a scripted turn; the check answers as `exit` says (never called when a step declares none). */
  const runners = (runTurn: (m: string) => Promise<any>, exit: (cmd: string) => number | null = () => 0, checks: string[] = []) => ({
    runTurn,
    runCheck: async (command: string) => {
      checks.push(command);
      return { ran: true as const, result: { command, exit_code: exit(command), output: `ran ${command}` } };
    },
    root: '/ws',
    aborted: () => false,
  });

  it('emits started/unverified per step without checks, patches step_states and briefs the Actor with the whole plan first', async () => {
    const t = await validated();
    const b = t.planning.beginExecution(t.cardId);
    assert.ok(b.ok);
    assert.match(b.ok ? b.announcement : '', /^Executing plan v1: Add a --verbose flag/);
    const messages: string[] = [];
    const checks: string[] = [];
    const outcome = await executePlanSteps(t.planning, b.ok ? b.brief : '', runners(async (m) => { messages.push(m); return 'done'; }, () => 0, checks));
    assert.equal(outcome, 'done');
    assert.deepEqual(stepEvents(t.events), ['step_started:1', 'step_unverified:1', 'step_started:2', 'step_unverified:2']);
    assert.deepEqual(checks, [], 'no check declared, none run');
    assert.match(messages[0], /Carry out approved plan v1[\s\S]*2\. Run npm test[\s\S]*Do step 1 of 2/);
    assert.match(messages[1], /^Do step 2 of 2 now/);
    const card = t.stream.card(t.cardId) as PlanCard;
    assert.deepEqual(card.step_states, { 1: 'unverified', 2: 'unverified' });
    assert.deepEqual(card.step_evidence?.['1'], { why: ['no check was declared'] });
    assert.equal((t.stream.card(t.cardId) as PlanCard).executing, false);
    assert.equal(t.planning.execution, undefined);
  });

  it('stops at a step the Actor reports failed with fail_step; later steps stay pending', async () => {
    const t = await validated();
    const b = t.planning.beginExecution(t.cardId);
    assert.equal(failStepTool.available!({ role: PRODUCT_ROLES.get('actor'), planning: t.planning }), true);
    let calls = 0;
    const outcome = await executePlanSteps(t.planning, b.ok ? b.brief : '', runners(async () => {
      calls++;
      const res = await failStepTool.run({ reason: 'src/args.ts does not exist' }, ctxFor(t.planning, 'actor'));
      assert.equal(res.endTurn, true);
      return 'done';
    }));
    assert.equal(calls, 1);
    assert.equal(outcome, 'error');
    assert.deepEqual(stepEvents(t.events), ['step_started:1', 'step_failed:1']);
    assert.equal((t.events.find((e) => e.type === 'step_failed') as any).reason, 'src/args.ts does not exist');
    assert.deepEqual((t.stream.card(t.cardId) as PlanCard).step_states, { 1: 'failed', 2: 'pending' });
    assert.equal(failStepTool.available!({ role: PRODUCT_ROLES.get('actor'), planning: t.planning }), false, 'only while executing');
  });

  it('a step is done only when its check exited 0; the check output is kept on the card as evidence', async () => {
    const t = await validated(2, checkedPlan());
    const b = t.planning.beginExecution(t.cardId);
    const checks: string[] = [];
    const outcome = await executePlanSteps(t.planning, b.ok ? b.brief : '', runners(async () => 'done', () => 0, checks));
    assert.equal(outcome, 'done');
    assert.deepEqual(checks, ['test -f src/args.ts', 'true']);
    assert.deepEqual(stepEvents(t.events), ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2']);
    const card = t.stream.card(t.cardId) as PlanCard;
    assert.deepEqual(card.step_states, { 1: 'done', 2: 'done' });
    assert.deepEqual(card.step_evidence?.['1'], { why: [], check: { command: 'test -f src/args.ts', exit_code: 0, output: 'ran test -f src/args.ts' } });
  });

  it('a check that exits non-zero fails the step and stops the run', async () => {
    const t = await validated(2, checkedPlan('npm test'));
    const b = t.planning.beginExecution(t.cardId);
    const outcome = await executePlanSteps(t.planning, b.ok ? b.brief : '', runners(async () => 'done', () => 1));
    assert.equal(outcome, 'error');
    assert.deepEqual(stepEvents(t.events), ['step_started:1', 'step_failed:1']);
    const card = t.stream.card(t.cardId) as PlanCard;
    assert.deepEqual(card.step_states, { 1: 'failed', 2: 'pending' });
    assert.deepEqual(card.step_evidence?.['1']?.why, ['the check `npm test` exited 1']);
    assert.equal(card.step_evidence?.['1']?.check?.exit_code, 1);
  });

  it('a rejected action or a change outside the step\'s files leaves the step unverified even when its check passes', async () => {
    const t = await validated(2, checkedPlan());
    const b = t.planning.beginExecution(t.cardId);
    let step = 0;
    await executePlanSteps(t.planning, b.ok ? b.brief : '', runners(async () => {
      step++;
      if (step === 1) t.planning.noteChange('/ws/src/other.ts');
      if (step === 2) t.planning.noteAction({ tool: 'run_command', summary: '$ npm test', status: 'rejected' });
      return 'done';
    }));
    const card = t.stream.card(t.cardId) as PlanCard;
    assert.deepEqual(card.step_states, { 1: 'unverified', 2: 'unverified' });
    assert.deepEqual(card.step_evidence?.['1']?.why, ["changed src/other.ts, which the step's files do not name"]);
    assert.deepEqual(card.step_evidence?.['2']?.why, ['run_command ($ npm test) was rejected']);
  });

  it('marks the step stopped (not failed) when its turn is stopped, and refuses a second concurrent execution', async () => {
    const t = await validated();
    const b = t.planning.beginExecution(t.cardId);
    assert.equal(t.planning.beginExecution(t.cardId).ok, false);
    const outcome = await executePlanSteps(t.planning, b.ok ? b.brief : '', runners(async () => 'stopped'));
    assert.equal(outcome, 'stopped');
    assert.equal(t.events.some((e) => e.type === 'step_failed'), false, 'a Stop is not a failure');
    assert.ok(t.events.some((e) => e.type === 'step_stopped'));
  });
});

describe('plan records on resume', () => {
  it('restored records can be executed again and the next version numbers on from them', async () => {
    const a = recorder();
    const first = new Planning(a.stream, { logger: a.logger, structuredOutputs: 'auto', planRepairTries: 2, stepTools: () => STEP_TOOLS });
    const turn = first.beginPlanTurn('m');
    await turn.submit('{}', goodPlan(), 'tool');
    const saved = JSON.parse(JSON.stringify(first.book.all()));

    const b = recorder();
    const resumed = new Planning(b.stream, { logger: b.logger, structuredOutputs: 'auto', planRepairTries: 2, stepTools: () => STEP_TOOLS });
    resumed.book.restore(saved);
    assert.equal(b.events.length, 0, 'restoring emits nothing');
    assert.equal(resumed.beginExecution(saved[0].cardId).ok, true);
    resumed.endExecution();
    const next = resumed.beginPlanTurn('m');
    await next.submit('{}', goodPlan(), 'tool');
    assert.equal(next.result!.version, 2);
    assert.equal(resumed.book.get(saved[0].cardId)!.superseded, true);
  });
});
