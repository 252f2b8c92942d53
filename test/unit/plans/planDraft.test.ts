import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import { PlanDraftCard, type Card, type HostEvent } from '../../../src/protocol';
import { PlanDraft } from '../../../src/core/plans/planDraft';
import type { CardSink } from '../../../src/core/events/cardSink';
import { ScriptedServer } from '../../support/scriptedServer';
import { LlmClient } from '../../../src/core/llm';
import { Planning } from '../../../src/core/plans/planning';
import { requestPlan } from '../../../src/core/plans/requestPlan';
import { llmPlanCompleter } from '../../../src/core/plans/llmPlanCompleter';
import { recorder } from './planFixtures';

function step(n: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { step_number: n, action: `Step ${n}: edit "file${n}.ts" {carefully}`, reason: 'because \\ reasons', tools_needed: ['edit_file'], estimated_time: '1 min', files: [`src/file${n}.ts`], check: `npm test -- file${n}`, ...over };
}
function plan(steps: Record<string, unknown>[]): Record<string, unknown> {
  return { format_version: '1.0', goal: 'Make the "three" files say café', steps, estimated_total_time: '3 min', risks: [], prerequisites: [] };
}

/** The draft card as each event left it (what the webview shows at that moment), each one a valid card. */
function draftHistory(events: readonly HostEvent[]): { at: number; card: PlanDraftCard }[] {
  const out: { at: number; card: PlanDraftCard }[] = [];
  let card: Record<string, unknown> | undefined;
  events.forEach((e, at) => {
    if (e.type === 'card_added' && e.card.kind === 'plan_draft') card = { ...e.card };
    else if (e.type === 'card_patched' && card && e.id === card.id) card = { ...card, ...e.patch };
    else return;
    const parsed = PlanDraftCard.safeParse(card);
    assert.ok(parsed.success, `the draft is a valid card after event ${at}: ${parsed.success ? '' : parsed.error.message}`);
    out.push({ at, card: parsed.data });
  });
  return out;
}
const indexOf = (events: readonly HostEvent[], pred: (e: HostEvent) => boolean) => events.findIndex(pred);

describe('A plan shown while the Planner writes it (propose_plan streamed)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('shows each step as soon as its JSON is complete, as a draft nothing can execute, then the validated plan card', async () => {
    h = await harness({
      role: 'planner',
      steps: [{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan([step(1), step(2), step(3)]) }], argChunkSize: 9, chunkDelayMs: 8 }],
    });
    assert.equal(await h.agent.send('plan it'), 'done');
    const events = h.events;
    const drafts = draftHistory(events);
    assert.ok(drafts.length > 0, 'a draft card was shown');
    // The answer's usage card comes when its stream has ended: every draft before it was shown mid-stream.
    const streamEnd = indexOf(events, (e) => e.type === 'card_added' && e.card.kind === 'usage');
    const planAdded = indexOf(events, (e) => e.type === 'card_added' && e.card.kind === 'plan');
    assert.ok(streamEnd > 0 && planAdded > streamEnd);
    const midStream = drafts.filter((d) => d.at < streamEnd);
    const counts = midStream.map((d) => d.card.steps.length);
    assert.ok(counts.includes(1), `step 1 was shown alone before the plan was complete (counts mid-stream: ${counts.join(',')})`);
    assert.ok(counts.every((n, i) => i === 0 || n >= counts[i - 1]!), 'steps are only ever added while one call streams');
    const one = midStream.find((d) => d.card.steps.length === 1)!.card;
    assert.equal(one.state, 'writing');
    assert.equal(one.goal, 'Make the "three" files say café');
    assert.deepEqual(one.steps[0], { at: 1, step: step(1) });
    // Then the whole call was checked: the plan card stands for it and the draft is no longer shown.
    const last = drafts.at(-1)!.card;
    assert.equal(last.state, 'published');
    assert.equal(drafts.filter((d) => d.at > streamEnd).some((d) => d.card.state === 'checking'), false, 'checking is sent with the stream end, before the usage card');
    const [card] = h.cardsOf('plan');
    assert.ok(card?.plan, 'the validated plan');
    assert.equal(card!.plan!.steps.length, 3);
    // Nothing of the draft can be executed: it is not a plan of the task.
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: last.id }), 'error');
    assert.match(lastError(h), /No plan with id/);
  });

  it('a step that breaks a rule shows with its reason while streaming; the whole call fails validation, the draft says it is being repaired, and the repaired plan replaces it', async () => {
    h = await harness({
      role: 'planner',
      settings: (s) => ({ ...s, planRepairTries: 1 }),
      steps: [
        { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan([step(1), step(2, { tools_needed: ['sed'] }), step(3)]) }], argChunkSize: 11, chunkDelayMs: 5 },
        { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan([step(1), step(2), step(3)]) }], argChunkSize: 11, chunkDelayMs: 5 },
      ],
    });
    assert.equal(await h.agent.send('plan it'), 'done');
    const drafts = draftHistory(h.events);
    const firstEnd = indexOf(h.events, (e) => e.type === 'card_added' && e.card.kind === 'usage');
    const invalid = drafts.find((d) => d.at < firstEnd && d.card.steps.length >= 2)?.card.steps[1];
    assert.ok(invalid, 'step 2 was shown while the first call streamed');
    assert.equal(invalid!.step, undefined, 'not shown as a valid step');
    assert.equal(invalid!.action, 'Step 2: edit "file2.ts" {carefully}');
    assert.deepEqual(invalid!.problems, ["step 2: tools_needed names unknown tool 'sed'"]);
    const repairing = drafts.find((d) => d.card.state === 'repairing');
    assert.ok(repairing, 'the failed validation is said on the draft');
    assert.ok(repairing!.card.problems?.includes("step 2: tools_needed names unknown tool 'sed'"));
    // The second call starts the draft afresh: step 2 is valid this time.
    const after = drafts.filter((d) => d.at > repairing!.at && d.card.state === 'writing');
    assert.ok(after.length > 0 && after[0]!.card.steps.length < 3, 'the repair is written into the same draft from its first step');
    assert.equal(drafts.at(-1)!.card.state, 'published');
    assert.equal(h.cardsOf('plan_draft').length, 1, 'one draft for the turn');
    const plans = h.cardsOf('plan');
    assert.equal(plans.length, 1);
    assert.ok(plans[0]!.plan);
    assert.deepEqual(plans[0]!.plan!.steps[1]!.tools_needed, ['edit_file']);
  });

  it('a stream cut mid-plan leaves the draft broken with the reason; no plan card and nothing to execute', async () => {
    h = await harness({
      role: 'planner',
      steps: [{ type: 'fault', fault: 'cut', calls: [{ name: 'propose_plan', arguments: plan([step(1), step(2), step(3)]) }], argChunkSize: 13, fraction: 0.6, mode: 'destroy' }],
    });
    assert.equal(await h.agent.send('plan it'), 'error');
    const [draft] = h.cardsOf('plan_draft');
    assert.ok(draft);
    assert.equal(draft!.state, 'broken');
    assert.ok(draft!.steps.length >= 1 && draft!.steps.length < 3, `the steps that arrived whole (${draft!.steps.length})`);
    assert.match(draft!.problems?.[0] ?? '', /^The plan stopped arriving \(.+\), so it cannot be executed\.$/);
    assert.equal(h.cardsOf('plan').length, 0, 'no plan was published from half a call');
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: draft!.id }), 'error');
  });

  it('Stop while the plan streams: the draft says it was stopped', async () => {
    h = await harness({
      role: 'planner',
      steps: [{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan([step(1), step(2), step(3)]) }], argChunkSize: 5, chunkDelayMs: 20 }],
    });
    const sent = h.agent.send('plan it');
    await until(() => (h!.cardsOf('plan_draft')[0]?.steps.length ?? 0) >= 1);
    h.agent.stop();
    assert.equal(await sent, 'stopped');
    const [draft] = h.cardsOf('plan_draft');
    assert.equal(draft!.state, 'broken');
    assert.deepEqual(draft!.problems, ['Stopped before the plan was complete, so it cannot be executed.']);
    assert.equal(h.cardsOf('plan').length, 0);
  });
});

describe('A plan asked for as JSON (a model that did not call propose_plan), shown while it streams', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => server?.close());

  it('the json_schema answer shows step by step in a draft, then the validated plan', async () => {
    server = await ScriptedServer.start([{ type: 'json', value: plan([step(1), step(2), step(3)]), chunkSize: 8, chunkDelayMs: 4 }]);
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'auto', planRepairTries: 0, stepTools: () => ['edit_file'], draftThrottleMs: 0 });
    const client = new LlmClient({ baseURL: server.url, apiKey: 'k', maxRetries: 0, idleTimeoutMs: 5000 });
    const turn = planning.beginPlanTurn('scripted-model');
    await requestPlan({ complete: llmPlanCompleter(client, 'scripted-model', 1000), structured: planning.structured, logger: r.logger, signal: new AbortController().signal }, [{ role: 'user', content: 'plan it' }], turn);
    const drafts = draftHistory(r.events);
    const planAdded = indexOf(r.events, (e) => e.type === 'card_added' && e.card.kind === 'plan');
    const before = drafts.filter((d) => d.at < planAdded).map((d) => d.card.steps.length);
    assert.deepEqual([...new Set(before)], [0, 1, 2, 3], 'each step shown on its own before the plan was published');
    assert.equal(drafts.at(-1)!.card.state, 'published');
    assert.ok(r.stream.cards().find((c) => c.kind === 'plan' && c.plan));
  });
});

describe('A plan asked for as text (an endpoint without structured outputs), shown while it streams', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => server?.close());

  async function planFromText(text: string): Promise<ReturnType<typeof recorder>> {
    server = await ScriptedServer.start([{ type: 'text', text, chunkSize: 8, chunkDelayMs: 2 }]);
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: 'off', planRepairTries: 0, stepTools: () => ['edit_file'], draftThrottleMs: 0 });
    const client = new LlmClient({ baseURL: server.url, apiKey: 'k', maxRetries: 0, idleTimeoutMs: 5000 });
    const turn = planning.beginPlanTurn('scripted-model');
    await requestPlan({ complete: llmPlanCompleter(client, 'scripted-model', 1000), structured: planning.structured, logger: r.logger, signal: new AbortController().signal }, [{ role: 'user', content: 'plan it' }], turn);
    return r;
  }

  it('the ```json block after some prose shows step by step in a draft; the prose and the remark after it are not read as the plan', async () => {
    const text = `Here is the plan {roughly}:\n\n\`\`\`json\n${JSON.stringify(plan([step(1), step(2), step(3)]), null, 2)}\n\`\`\`\n\nTell me if {anything} should change.`;
    const r = await planFromText(text);
    const drafts = draftHistory(r.events);
    const planAdded = indexOf(r.events, (e) => e.type === 'card_added' && e.card.kind === 'plan');
    assert.ok(planAdded >= 0, 'the plan was published');
    const before = drafts.filter((d) => d.at < planAdded);
    assert.deepEqual([...new Set(before.map((d) => d.card.steps.length))], [0, 1, 2, 3], 'each step shown on its own before the plan was published');
    assert.equal(before.find((d) => d.card.steps.length === 1)!.card.goal, 'Make the "three" files say café');
    assert.deepEqual(before.find((d) => d.card.steps.length === 1)!.card.steps[0], { at: 1, step: step(1) });
    assert.deepEqual(drafts.flatMap((d) => d.card.problems ?? []), [], 'neither the prose nor the remark after the block is a problem');
    assert.equal(drafts.at(-1)!.card.state, 'published');
    assert.equal(r.stream.cards().find((c) => c.kind === 'plan')?.plan?.steps.length, 3);
  });

  it('an answer with no JSON in it shows no draft', async () => {
    const r = await planFromText('I would edit {the parser} first, then the tests.\nThat is all.');
    assert.equal(r.stream.cards().filter((c) => c.kind === 'plan_draft').length, 0);
  });
});

describe('PlanDraft: updates of the card are throttled', () => {
  function sink(): CardSink & { cards: Card[]; patches: Record<string, unknown>[] } {
    let n = 0;
    const cards: Card[] = [];
    const patches: Record<string, unknown>[] = [];
    return { cards, patches, addCard: (c) => cards.push(c), patchCard: (_id, p) => patches.push(p), emit: () => undefined, newId: (k = 'card') => `${k}-${++n}` };
  }
  const text = JSON.stringify(plan(Array.from({ length: 40 }, (_, i) => step(i + 1))));

  it('forty steps arriving within one throttle window make one update when the call arrives, not one per step', () => {
    const ui = sink();
    const draft = new PlanDraft(ui, { stepTools: ['edit_file'], throttleMs: 60_000, now: () => 1000 });
    for (let i = 1; i <= text.length; i += 7) draft.write(text.slice(0, i));
    draft.write(text);
    assert.equal(ui.cards.length, 1, 'the draft card, shown at once');
    assert.equal(ui.patches.length, 0, 'no update inside the window');
    draft.arrived();
    assert.equal(ui.patches.length, 1);
    assert.equal((ui.patches[0]!.steps as unknown[]).length, 40);
    assert.equal(ui.patches[0]!.state, 'checking');
  });

  it('a step that completes inside the window is still shown when the window ends (a trailing update)', async () => {
    const ui = sink();
    let now = 1000;
    const draft = new PlanDraft(ui, { stepTools: ['edit_file'], throttleMs: 30, now: () => now });
    const end = text.indexOf('},{') + 1;
    draft.write(text.slice(0, end));
    assert.equal(ui.patches.length, 0);
    now += 30;
    await until(() => ui.patches.length === 1);
    assert.equal((ui.patches[0]!.steps as unknown[]).length, 1);
    draft.broke('gone');
    assert.equal(ui.patches.at(-1)!.state, 'broken');
  });
});

function lastError(h: Harness): string {
  const errors = h.cardsOf('error');
  return errors.at(-1)?.message ?? '';
}

async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
