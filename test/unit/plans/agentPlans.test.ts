/**
 * Plans and questions through the whole Agent: a real temp workspace, the Node host and the
 * scripted server over a real socket.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { FAKE_WORKSPACE_TOOLS } from '../../support/fakeTools';
import type { ScriptStep } from '../../support/scriptedServer';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { wireAgent } from '../../../src/core/runtime/wireAgent';
import { LOOP_TOOLS } from '../../../src/core/tools';
import { ToolRegistry, fixedProvider } from '../../../src/core/tools/toolRegistry';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { defaultSettings } from '../../../src/core/settings/settings';
import type { HostEvent } from '../../../src/protocol';
import { checkedPlan, goodPlan, planWithUnknownTool } from './planFixtures';
import { loadWebviewModule } from '../webview/loadWebviewModule';
import { text } from '../../support/scriptSteps';

type PlanStatusModule = typeof import('../../../webview-ui/src/state/planStatus');
const planStatusModule = () => loadWebviewModule<PlanStatusModule>('webview-ui/src/state/planStatus.ts');

const propose = (plan: unknown): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan as Record<string, unknown> }], argChunkSize: 40 });
const lastMessage = (body: any) => body.messages[body.messages.length - 1];
const stepEvents = (h: Harness) => h.events.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);

describe('plans through the agent', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a valid propose_plan shows plan v1 and ends the turn without another request', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, files: { 'src/args.ts': 'export {}\n' }, steps: [
      { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'src/args.ts' } }] },
      propose(goodPlan()),
    ] });
    assert.equal(await h.agent.send('add a --verbose flag'), 'done');
    assert.equal(h.server.chatRequests().length, 2, 'no request after the accepted plan');
    const offered = h.server.toolsOffered()[0];
    assert.ok(offered.includes('propose_plan') && offered.includes('ask_question'));
    assert.ok(!offered.includes('fail_step'));
    const [card] = h.cardsOf('plan');
    assert.equal(card.version, 1);
    assert.equal(card.plan?.steps.length, 2);
    assert.deepEqual(card.errors, []);
    const rec = h.agent.planning.book.get(card.id)!;
    assert.equal(rec.provenance.model, 'planner-model');
    assert.equal(rec.provenance.path, 'tool');
  });

  it('two propose_plan calls in one message publish one plan, not two', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [
      { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: goodPlan() }, { name: 'propose_plan', arguments: goodPlan({ goal: 'other' }) }] },
      text('should never be requested'),
    ] });
    assert.equal(await h.agent.send('add a --verbose flag'), 'done');
    const cards = h.cardsOf('plan');
    assert.equal(cards.length, 1);
    assert.equal(cards[0].plan?.goal, 'Add a --verbose flag to the CLI');
    assert.equal(h.server.chatRequests().length, 1);
  });

  it('an invalid plan is repaired on the first retry: the second request carries the error lines', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(planWithUnknownTool()), propose(goodPlan())] });
    await h.agent.send('add a --verbose flag');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 2);
    const toolMsg = lastMessage(reqs[1]);
    assert.equal(toolMsg.role, 'tool');
    assert.match(toolMsg.content, /step 2: tools_needed names unknown tool 'sed'/);
    const cards = h.cardsOf('plan');
    assert.equal(cards.length, 1, 'only the validated plan is shown');
    assert.ok(cards[0].plan);
    assert.equal(h.agent.planning.book.get(cards[0].id)!.provenance.repairs, 1);
  });

  it('a plan never repaired shows as text with Execute disabled, and no Actor run happens', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(planWithUnknownTool()), propose(planWithUnknownTool()), propose(planWithUnknownTool()), text('should never be requested')] });
    await h.agent.send('add a --verbose flag');
    assert.equal(h.server.chatRequests().length, 3, 'first answer + planRepairTries (2) repairs');
    const [card] = h.cardsOf('plan');
    assert.equal(card.plan, null);
    assert.match(card.raw_text ?? '', /"sed"/);
    assert.deepEqual(card.errors, ["step 2: tools_needed names unknown tool 'sed'"]);
    const before = h.server.chatRequests().length;
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: card.id }), 'error');
    assert.equal(h.server.chatRequests().length, before, 'no request was made for the Actor');
    assert.equal(h.agent.role, 'planner', 'no role switch');
    assert.ok(!h.events.some((e) => e.type === 'role_changed'));
    assert.match(h.cardsOf('error').at(-1)!.message, /could not be validated/);
  });

  it('executes a validated plan: role_changed, announcement, one sub-turn per step, checks run, step events and states', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, files: { 'src/args.ts': 'export {}\n' }, approver: { request: async () => ({ approved: true }) }, steps: [propose(checkedPlan()), text('Added the option.'), text('Tests pass.')] });
    await h.agent.send('add a --verbose flag');
    const [card] = h.cardsOf('plan');
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: card.id }), 'done');
    assert.equal(h.agent.role, 'actor');
    const rc = h.events.find((e) => e.type === 'role_changed');
    assert.equal(rc && rc.type === 'role_changed' && rc.role, 'actor');
    assert.ok(h.agent.cards().some((c) => c.kind === "text" && c.author === "assistant" && c.role === "actor" && /^Executing plan v1: Add a --verbose flag/.test(c.text)));
    assert.deepEqual(stepEvents(h), ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2']);
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 3);
    assert.equal(reqs[1].model, 'actor-model');
    assert.match(lastMessage(reqs[1]).content, /Carry out approved plan v1[\s\S]*Do step 1 of 2/);
    assert.match(lastMessage(reqs[2]).content, /^Do step 2 of 2/);
    assert.ok(h.server.toolsOffered()[1].includes('fail_step'));
    assert.ok(!h.server.toolsOffered()[1].includes('propose_plan'));
    const after = h.cardsOf('plan')[0];
    assert.deepEqual(after.step_states, { 1: 'done', 2: 'done' });
    assert.equal(after.step_evidence?.['1']?.check?.exit_code, 0);
    assert.equal(after.executing, false);
    // Every card a step's run adds carries its step (the chat's lanes, --json); the task's own cards do not.
    const added = h.events.flatMap((e) => (e.type === 'card_added' ? [e.card] : []));
    const stepOf = (c: (typeof added)[number]) => ('step' in c && c.step ? `step ${c.step}` : undefined);
    const answers = h.agent.cards().filter((c) => c.kind === 'text' && (c.text === 'Added the option.' || c.text === 'Tests pass.'));
    assert.deepEqual(answers.map(stepOf), ['step 1', 'step 2']);
    assert.ok(added.filter((c) => c.kind === 'usage').slice(1).every((c) => stepOf(c)), 'the steps\' requests are counted in their lanes');
    assert.equal(stepOf(added.find((c) => c.kind === 'plan')!), undefined);
    assert.equal(stepOf(added.find((c) => c.kind === 'text' && /^Executing plan v1/.test(c.text))!), undefined);
    const { executedLabel, planStatus } = await planStatusModule();
    assert.equal(executedLabel(planStatus(after) as any), 'Executed ✓');
  });

  it('a step whose command the user rejected is not shown done, and the plan is not "Executed ✓"', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, approver: { request: async () => ({ approved: false, reason: 'not now' }) }, steps: [
      propose(goodPlan({ steps: [{ step_number: 1, action: 'Run npm test', reason: 'check', tools_needed: ['run_command'], estimated_time: '1 min', files: [], commands: ['npm test'] }] })),
      { type: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'npm test' } }] },
      text('Tests pass.'),
    ] });
    await h.agent.send('run the tests');
    const [card] = h.cardsOf('plan');
    assert.equal(await h.agent.act({ type: 'execute_plan', card_id: card.id }), 'done');
    assert.deepEqual(stepEvents(h), ['step_started:1', 'step_unverified:1']);
    const after = h.cardsOf('plan')[0];
    assert.deepEqual(after.step_states, { 1: 'unverified' });
    assert.deepEqual(after.step_evidence?.['1']?.why, ['run_command ($ npm test) was rejected', 'no check was declared']);
    const { executedLabel, planStatus } = await planStatusModule();
    assert.equal(executedLabel(planStatus(after) as any), 'Executed, not verified (0 of 1 steps done, 1 unverified)');
  });

  it('a declared check the user rejects is not run and leaves the step unverified', async () => {
    const asked: string[] = [];
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, approver: { request: async (req) => { asked.push(req.info.command ?? ''); return { approved: false }; } }, steps: [
      propose(goodPlan({ steps: [{ step_number: 1, action: 'Say hello', reason: 'x', tools_needed: [], estimated_time: '1 min', files: [], check: 'touch checked.txt' }] })),
      text('Hello.'),
    ] });
    await h.agent.send('say hello');
    await h.agent.act({ type: 'execute_plan', card_id: h.cardsOf('plan')[0].id });
    assert.deepEqual(asked, ['touch checked.txt'], 'the check asks like any command');
    assert.equal(fs.existsSync(path.join(h.ws, 'checked.txt')), false);
    const after = h.cardsOf('plan')[0];
    assert.deepEqual(after.step_states, { 1: 'unverified' });
    assert.match(after.step_evidence?.['1']?.why[0] ?? '', /the check `touch checked\.txt` was not run: it was not approved/);
    assert.ok(h.cardsOf('tool_call').some((c) => c.status === 'rejected' && /check of step 1/.test(c.summary)));
  });

  it('a step the Actor fails stops the run there', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [
      propose(goodPlan()),
      { type: 'tool_calls', calls: [{ name: 'fail_step', arguments: { reason: 'src/args.ts does not exist' } }] },
      text('should never be requested'),
    ] });
    await h.agent.send('add a --verbose flag');
    const outcome = await h.agent.act({ type: 'execute_plan', card_id: h.cardsOf('plan')[0].id });
    assert.equal(outcome, 'error');
    assert.deepEqual(stepEvents(h), ['step_started:1', 'step_failed:1']);
    assert.equal(h.server.chatRequests().length, 2);
    assert.deepEqual(h.cardsOf('plan')[0].step_states, { 1: 'failed', 2: 'pending' });
  });

  it('requirePlan: a Planner that answers in prose gets one structured plan request; without it, no plan is forced', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [
      text('The flag is parsed in src/args.ts.'),
      text('I would edit src/args.ts.'),
      { type: 'json', value: goodPlan() },
    ] });
    assert.equal(await h.agent.send('where is the flag parsed?'), 'done');
    assert.equal(h.cardsOf('plan').length, 0, 'a question to the Planner is not turned into a plan');
    assert.equal(await h.agent.send('add a --verbose flag', { requirePlan: true }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 3);
    assert.equal(reqs[2].response_format.json_schema.strict, true);
    assert.equal(reqs[2].tools, undefined, 'the plan request offers no tools');
    // The plan request is the Planner's too: the same system prompt as its turn's requests, first.
    assert.equal(reqs[2].messages[0].role, 'system');
    assert.equal(reqs[2].messages[0].content, reqs[1].messages[0].content);
    const [card] = h.cardsOf('plan');
    assert.ok(card.plan);
    assert.equal(h.agent.planning.book.get(card.id)!.provenance.path, 'json_schema');
  });

  it('a plan from a resumed task (cards + kept provenance) can still be executed', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [propose(goodPlan()), text('step one done'), text('step two done')] });
    await h.agent.send('add a --verbose flag');
    const cards = h.agent.cards();
    const planId = h.cardsOf('plan')[0].id;
    const prov = Object.fromEntries(h.agent.planning.book.all().map((r) => [r.cardId, r.provenance]));
    const events: HostEvent[] = [];
    const resumed = wireAgent({
      host: createNodeHost({ roots: [h.ws] }),
      settings: defaultSettings({ baseURL: h.server.url, apiKey: 'k', models: { planner: 'p', actor: 'a' } }),
      emit: (e) => events.push(e),
      role: 'planner',
      tools: new ToolRegistry([fixedProvider('fake', FAKE_WORKSPACE_TOOLS), LOOP_TOOLS]),
      resume: { cards, messages: [], idPrefix: 'r1-', planProvenance: prov },
    });
    assert.equal(resumed.planning.book.get(planId)!.provenance.model, 'planner-model');
    assert.equal(await resumed.act({ type: 'execute_plan', card_id: planId }), 'done');
    assert.deepEqual(events.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`),
      ['step_started:1', 'step_unverified:1', 'step_started:2', 'step_unverified:2']);
  });

  it('requirePlan: a failed propose_plan followed by prose goes on with a plan request inside the same repair budget', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [
      propose(planWithUnknownTool()),
      text('Sorry, I think the plan is fine.'),
      { type: 'json', value: planWithUnknownTool() },
      { type: 'json', value: planWithUnknownTool() },
      text('never requested: the budget (1 answer + 2 repairs) is spent'),
    ] });
    assert.equal(await h.agent.send('add a --verbose flag', { requirePlan: true }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 4);
    assert.equal(reqs[2].response_format?.type, 'json_schema');
    assert.match(reqs[3].messages.at(-1).content, /step 2: tools_needed names unknown tool 'sed'/);
    const [card] = h.cardsOf('plan');
    assert.equal(card.plan, null);
    assert.deepEqual(h.agent.planning.book.get(card.id)!.provenance.attempts.map((a) => a.path), ['tool', 'json_schema', 'json_schema']);
  });

  it('revise: feedback to the Planner; a text answer gets a structured plan request; 400 falls back to extraction; v1 superseded', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [
      propose(goodPlan()),
      text('Sure, I will also update the README.'),
      { type: 'fault', fault: 'server_error', status: 400, message: "response_format 'json_schema' is not supported by this server" },
      text('```json\n' + JSON.stringify(goodPlan({ goal: 'Add --verbose and document it' })) + '\n```'),
    ] });
    await h.agent.send('add a --verbose flag');
    const v1 = h.cardsOf('plan')[0];
    assert.equal(await h.agent.act({ type: 'revise_plan', card_id: v1.id, feedback: 'also document the flag in README.md' }), 'done');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 4);
    assert.match(reqs[1].messages.find((m: any) => m.role === 'user' && /Revise plan v1/.test(m.content)).content, /also document the flag/);
    assert.equal(reqs[2].response_format?.type, 'json_schema');
    assert.equal(reqs[3].response_format, undefined);
    const cards = h.cardsOf('plan');
    assert.equal(cards.length, 2);
    assert.equal(cards[0].superseded, true);
    assert.equal(cards[1].version, 2);
    assert.equal(cards[1].plan?.goal, 'Add --verbose and document it');
    const rec = h.agent.planning.book.get(cards[1].id)!;
    assert.equal(rec.provenance.path, 'extraction');
    assert.equal(rec.provenance.feedback, 'also document the flag in README.md');
  });
});

describe('questions through the agent', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const ask = (): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'ask_question', arguments: {
    question: 'Delete the old config?', context: null, severity: 'major', allow_custom: false, default: 'keep',
    options: [{ label: 'Keep it', value: 'keep', description: null }, { label: 'Delete it', value: 'delete', description: null }],
  } }] });

  it('answered by default: the answer goes back as the tool result and the card is answered', async () => {
    h = await harness({ role: 'actor', tools: FAKE_WORKSPACE_TOOLS, asker: new HeadlessAsker('default'), steps: [ask(), text('Keeping it.')] });
    assert.equal(await h.agent.send('clean up the config'), 'done');
    const toolMsg = lastMessage(h.server.chatRequests()[1]);
    assert.equal(toolMsg.role, 'tool');
    assert.match(toolMsg.content, /The user chose: keep/);
    const [q] = h.cardsOf('question');
    assert.equal(q.status, 'answered');
    assert.equal(q.answer, 'keep');
    const states = h.events.filter((e) => e.type === 'agent_state').map((e: any) => e.state);
    assert.ok(states.includes('waiting_on_user'));
  });

  it('unanswerable: the turn ends waiting with the card still waiting, and nothing more is requested', async () => {
    h = await harness({ role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [ask(), text('should never be requested')] });
    assert.equal(await h.agent.send('clean up the config'), 'waiting');
    assert.equal(h.server.chatRequests().length, 1);
    assert.equal(h.cardsOf('question')[0].status, 'waiting');
    const ended = h.events.at(-1);
    assert.equal(ended?.type === 'turn_ended' && ended.outcome, 'waiting');
  });
});
