import assert from 'node:assert/strict';
import { harness, type Harness } from '../../support/agentHarness';
import type { AgentSettings } from '../../../src/core/settings/settings';

function plan(): Record<string, unknown> {
  return {
    format_version: '1.0',
    goal: 'Rename hello to greet',
    steps: [
      { step_number: 1, action: 'Replace hello with greet in a.txt', reason: 'the new name', tools_needed: ['read_file', 'edit_file'], estimated_time: '1 min', files: ['a.txt'], check: 'grep -q greet a.txt' },
      { step_number: 2, action: 'Create NOTES.md saying it was renamed', reason: 'record it', tools_needed: ['write_file'], estimated_time: '1 min', files: ['NOTES.md'], check: 'test -s NOTES.md' },
    ],
    estimated_total_time: '2 min',
    risks: [],
    prerequisites: [],
  };
}
const edits = (s: AgentSettings): AgentSettings => ({ ...s, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: false, command: true } } });

describe('Planner → plan card → Execute plan through the loop', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('propose_plan shows a plan card and ends the Planner turn without another request; Execute runs it step by step as the Actor', async () => {
    h = await harness({
      role: 'planner',
      files: { 'a.txt': 'say hello\n' },
      settings: edits,
      steps: [
        { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan() }] },
        // Step 1 (Actor)
        { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { type: 'tool_calls', calls: [{ name: 'edit_file', arguments: { path: 'a.txt', edits: [{ old_text: 'hello', new_text: 'greet' }] } }] },
        { type: 'text', text: 'Step 1 done.' },
        // Step 2
        { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: 'hello was renamed to greet\n' } }] },
        { type: 'text', text: 'Step 2 done.' },
      ],
    });
    assert.equal(await h.agent.send('rename hello to greet'), 'done');
    assert.equal(h.server.chatRequests().length, 2, 'the plan ended the turn');
    const [card] = h.cardsOf('plan');
    assert.ok(card?.plan, 'a validated plan');
    assert.equal(h.read('a.txt'), 'say hello\n', 'planning changed nothing');

    const outcome = await h.agent.act({ type: 'execute_plan', card_id: card!.id });
    const toolErrors = h.toolCards().filter((c) => c.status !== 'done').map((c) => `${c.tool}: ${c.error}`);
    assert.equal(outcome, 'done', toolErrors.join('\n'));
    assert.equal(h.agent.role, 'actor');
    assert.equal(h.read('a.txt'), 'say greet\n');
    assert.equal(h.read('NOTES.md'), 'hello was renamed to greet\n');
    assert.deepEqual(h.cardsOf('plan')[0]!.step_states, { '1': 'done', '2': 'done' });
    // Each ✓ has its evidence: the step's check ran for real after the step and exited 0.
    assert.deepEqual(h.cardsOf('plan')[0]!.step_evidence?.['1'], { why: [], check: { command: 'grep -q greet a.txt', exit_code: 0, output: '' } });
    const stepEvents = h.events.filter((e) => e.type.startsWith('step_')).map((e) => `${e.type}:${(e as any).step_number}`);
    assert.deepEqual(stepEvents, ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2']);
    const actorReq = h.server.chatRequests()[2];
    assert.equal(actorReq.model, 'actor-model');
    assert.match(actorReq.messages.at(-1).content, /Rename hello to greet/);
  });
});
