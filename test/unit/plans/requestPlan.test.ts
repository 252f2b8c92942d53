import assert from 'node:assert/strict';
import { ScriptedServer } from '../../support/scriptedServer';
import { LlmClient } from '../../../src/core/llm';
import { Planning } from '../../../src/core/plans/planning';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';

/** The names plan steps may use with the product's registries. */
const STEP_TOOLS = productToolRegistry().stepTools(PRODUCT_ROLES);
import { requestPlan, type PlanMessage } from '../../../src/core/plans/requestPlan';
import { llmPlanCompleter } from '../../../src/core/plans/llmPlanCompleter';
import type { PlanCard } from '../../../src/protocol';
import { goodPlan, planWithUnknownTool, recorder } from './planFixtures';

describe('requestPlan against the scripted server', () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  function setup(setting: 'auto' | 'on' | 'off', tries = 2) {
    const r = recorder();
    const planning = new Planning(r.stream, { logger: r.logger, structuredOutputs: setting, planRepairTries: tries, stepTools: () => STEP_TOOLS });
    const client = new LlmClient({ baseURL: server.url, apiKey: 'k', maxRetries: 0, idleTimeoutMs: 5000 });
    const deps = { complete: llmPlanCompleter(client, 'scripted-model', 1000), structured: planning.structured, logger: r.logger, signal: new AbortController().signal };
    const history: PlanMessage[] = [{ role: 'system', content: 'planner' }, { role: 'user', content: 'add a verbose flag' }];
    return { ...r, planning, deps, history };
  }
  const planCards = (_cards: unknown, t: ReturnType<typeof setup>) =>
    t.stream.cards().filter((c): c is PlanCard => c.kind === 'plan');

  it('asks with a strict json_schema and publishes a valid plan with provenance', async () => {
    server = await ScriptedServer.start([{ type: 'json', value: goodPlan() }]);
    const t = setup('auto');
    const turn = t.planning.beginPlanTurn('scripted-model');
    await requestPlan(t.deps, t.history, turn);
    const body = server.chatRequests()[0];
    assert.equal(body.response_format.type, 'json_schema');
    assert.equal(body.response_format.json_schema.strict, true);
    assert.equal(body.response_format.json_schema.schema.additionalProperties, false);
    const [card] = planCards(t.planning.book.all(), t);
    assert.equal(card.plan?.goal, 'Add a --verbose flag to the CLI');
    assert.deepEqual(card.errors, []);
    assert.deepEqual(card.step_states, { 1: 'pending', 2: 'pending' });
    const rec = t.planning.book.get(card.id)!;
    assert.equal(rec.provenance.path, 'json_schema');
    assert.equal(rec.provenance.model, 'scripted-model');
    assert.equal(rec.provenance.repairs, 0);
    assert.deepEqual(JSON.parse(rec.provenance.raw), goodPlan());
    assert.ok(t.logs.some((l) => /via response_format json_schema/.test(l)), t.logs.join('\n'));
  });

  it('repairs an invalid plan on the first retry: the second request carries the error lines', async () => {
    server = await ScriptedServer.start([{ type: 'json', value: planWithUnknownTool() }, { type: 'json', value: goodPlan() }]);
    const t = setup('on');
    const turn = t.planning.beginPlanTurn('scripted-model');
    await requestPlan(t.deps, t.history, turn);
    const reqs = server.chatRequests();
    assert.equal(reqs.length, 2);
    const last = reqs[1].messages[reqs[1].messages.length - 1];
    assert.equal(last.role, 'user');
    assert.match(last.content, /step 2: tools_needed names unknown tool 'sed'/);
    assert.equal(reqs[1].messages[reqs[1].messages.length - 2].role, 'assistant', 'the rejected answer stays in the conversation');
    const rec = turn.result!;
    assert.ok(rec.plan, 'the repaired plan validated');
    assert.equal(rec.provenance.repairs, 1);
    assert.deepEqual(rec.provenance.attempts.map((a) => a.errors.length > 0), [true, false]);
  });

  it('gives up after planRepairTries repairs: the card shows the raw text, the errors, and no plan', async () => {
    server = await ScriptedServer.start([{ type: 'json', value: planWithUnknownTool(), times: 3 }, { type: 'json', value: goodPlan() }]);
    const t = setup('on', 2);
    const turn = t.planning.beginPlanTurn('scripted-model');
    await requestPlan(t.deps, t.history, turn);
    assert.equal(server.chatRequests().length, 3, 'one answer and two repairs, no more');
    const [card] = planCards(t.planning.book.all(), t);
    assert.equal(card.plan, null);
    assert.deepEqual(card.errors, ["step 2: tools_needed names unknown tool 'sed'"]);
    assert.match(card.raw_text ?? '', /"sed"/);
    const exec = t.planning.beginExecution(card.id);
    assert.equal(exec.ok, false, 'an unvalidated plan can never be executed');
    assert.match(!exec.ok ? exec.error : '', /could not be validated/);
  });

  it('falls back to extraction when the endpoint rejects response_format, and remembers it', async () => {
    server = await ScriptedServer.start([
      { type: 'fault', fault: 'server_error', status: 400, message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." },
      { type: 'text', text: 'Here is the plan:\n```json\n' + JSON.stringify(goodPlan(), null, 1) + '\n```' },
      { type: 'text', text: JSON.stringify(goodPlan({ goal: 'second' })) },
    ]);
    const t = setup('auto');
    await requestPlan(t.deps, t.history, t.planning.beginPlanTurn('scripted-model'));
    const reqs = server.chatRequests();
    assert.equal(reqs.length, 2);
    assert.ok(reqs[0].response_format);
    assert.equal(reqs[1].response_format, undefined);
    assert.match(reqs[1].messages.at(-1).content, /```json/);
    const first = t.planning.book.latest()!;
    assert.equal(first.provenance.path, 'extraction');
    assert.ok(first.plan);
    assert.ok(t.logs.some((l) => /rejected response_format.*extraction/.test(l)), t.logs.join('\n'));
    // Later plan requests in the session go straight to extraction.
    await requestPlan(t.deps, t.history, t.planning.beginPlanTurn('scripted-model'));
    assert.equal(server.chatRequests().length, 3);
    assert.equal(server.chatRequests()[2].response_format, undefined);
    assert.equal(t.planning.book.latest()!.plan?.goal, 'second');
    assert.equal(t.planning.book.all()[0].superseded, true, 'the older version is superseded');
    assert.ok(t.events.some((e) => e.type === 'card_patched' && e.id === first.cardId && (e.patch as any).superseded === true));
  });

  it('sends the plan schema with its constraints, and without string lengths only after an endpoint refused them', async () => {
    server = await ScriptedServer.start([
      { type: 'fault', fault: 'server_error', status: 400, message: "Invalid schema for response_format 'tandem_plan': In context=('properties', 'goal'), 'minLength' is not permitted." },
      { type: 'json', value: goodPlan() },
    ]);
    const t = setup('auto');
    await requestPlan(t.deps, t.history, t.planning.beginPlanTurn('scripted-model'));
    const [first, second] = server.chatRequests();
    assert.equal(first.response_format.json_schema.schema.properties.goal.minLength, 1);
    assert.equal(first.response_format.json_schema.schema.properties.steps.minItems, 1);
    // The refusal costs the lengths, not the schema: still json_schema, still at least one step.
    assert.equal(second.response_format.type, 'json_schema');
    assert.equal(second.response_format.json_schema.schema.properties.goal.minLength, undefined);
    assert.equal(second.response_format.json_schema.schema.properties.steps.minItems, 1);
    assert.equal(t.planning.book.latest()!.provenance.path, 'json_schema');
  });

  it("with structuredOutputs 'on', a 400 is an error, not a silent fallback", async () => {
    server = await ScriptedServer.start([{ type: 'fault', fault: 'server_error', status: 400, message: 'response_format json_schema is not supported' }]);
    const t = setup('on');
    await assert.rejects(requestPlan(t.deps, t.history, t.planning.beginPlanTurn('m')), /400/);
    assert.equal(t.planning.book.all().length, 0);
  });

  it("with structuredOutputs 'off', never sends response_format, and repairs unparsable text", async () => {
    server = await ScriptedServer.start([
      { type: 'text', text: 'I think we should edit args.ts first.' },
      { type: 'text', text: '```json\n' + JSON.stringify(goodPlan()) + '\n```' },
    ]);
    const t = setup('off');
    await requestPlan(t.deps, t.history, t.planning.beginPlanTurn('m'));
    const reqs = server.chatRequests();
    assert.ok(reqs.every((b) => b.response_format === undefined));
    assert.match(reqs[1].messages.at(-1).content, /no JSON object found/);
    assert.ok(t.planning.book.latest()!.plan);
    // No schema and no tools travel with these requests: the instruction itself names the tools a step may use.
    assert.ok(reqs[0].tools === undefined || reqs[0].tools.length === 0);
    assert.equal(reqs[0].messages.at(-1).content.endsWith(`tools_needed only from: ${STEP_TOOLS.join(', ')}.`), true, reqs[0].messages.at(-1).content);
  });
});
