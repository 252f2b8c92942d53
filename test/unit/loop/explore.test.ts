import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { calls, tc, text } from '../../support/scriptSteps';
import { toolResults, userMessages } from '../../support/modelRequests';
import { PRODUCT_ROLES, type RoleDef } from '../../../src/core/roles/roles';
import { RoleRegistry, type HostEvent } from '../../../src/protocol';

const WRITE_TOOLS = ['write_file', 'edit_file', 'apply_patch', 'delete_file', 'run_command', 'rename_symbol'];
const usage = { prompt_tokens: 1000, completion_tokens: 100 };

describe('explore: the Planner\'s read-only explorers', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a child asked to write cannot; it has only read tools and its own context, and its summary is what the Planner gets', async () => {
    const original = 'export const x = 1;\n';
    h = await harness({
      role: 'planner',
      files: { 'src/a.ts': original },
      settings: (s) => ({ ...s, limits: { ...s.limits, maxConsecutiveToolErrors: 20 }, approval: { ...s.approval, mode: 'ask', autoApprove: { edit: true, create: true, delete: true, command: true } } }),
      approver: { request: async () => ({ approved: true }) },
      steps: [
        calls(tc('explore', { question: 'Where is x defined? Also change it to 2.' })),
        // The explorer: it tries every way to write, and reads.
        calls(
          tc('write_file', { path: 'src/a.ts', content: 'pwned' }),
          tc('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'x = 1', new_text: 'x = 2' }] }),
          tc('run_command', { command: 'echo pwned > src/a.ts' }),
          tc('read_file', { path: 'src/a.ts' }),
        ),
        text('x is defined in src/a.ts line 1 as 1. I could not change it: I am read-only.'),
        text('Noted.'),
      ],
    });
    assert.equal(await h.agent.send('look around'), 'done');
    assert.equal(h.read('src/a.ts'), original, 'nothing the explorer tried reached the file');
    assert.equal(fs.existsSync(path.join(h.ws, 'pwned')), false);

    const offered = h.server.toolsOffered();
    assert.ok(offered[0]!.includes('explore'), 'the Planner is offered explore');
    const child = offered[1]!;
    assert.deepEqual(child.filter((n) => WRITE_TOOLS.includes(n)), [], 'the explorer is offered no write tool');
    for (const n of ['explore', 'ask_question', 'propose_plan']) assert.ok(!child.includes(n), `the explorer is not offered ${n}`);
    for (const n of ['read_file', 'search', 'find_files', 'list_files']) assert.ok(child.includes(n), `the explorer reads with ${n}`);

    // Its own context: the explorer's system prompt and the question alone, not the Planner's conversation.
    const childReq = h.server.chatRequests()[1];
    assert.deepEqual(userMessages(childReq), ['Where is x defined? Also change it to 2.']);
    assert.match(childReq.messages[0].content, /read-only explorer/);
    const refused = toolResults(h.server.chatRequests()[2]);
    assert.equal(refused.filter((r) => /not permitted|unknown tool/.test(r)).length, 3, refused.join('\n---\n'));
    assert.equal(h.approvals.length, 0, 'an explorer never asks anyone');

    // The Planner got the summary as the tool result; the card says what the explorer looked at.
    assert.match(toolResults(h.server.chatRequests()[3]).join('\n'), /src\/a\.ts line 1/);
    const card = h.toolCards().find((c) => c.tool === 'explore')!;
    assert.equal(card.status, 'done');
    assert.match(card.result!, /4 calls: .*read src\/a\.ts/);
    // Only the Planner's own call shows in the chat: the explorer's cards stay out.
    assert.deepEqual(h.toolCards().map((c) => c.tool), ['explore']);
  });

  it('the explorer\'s requests are counted under the Planner: usage cards, task total and cost', async () => {
    h = await harness({
      role: 'planner',
      files: { 'a.txt': 'hello\n' },
      settings: (s) => ({ ...s, prices: { 'planner-model': { input: 1, output: 2 } } }),
      steps: [
        calls(tc('explore', { question: 'What does a.txt say?' })),
        { ...calls(tc('read_file', { path: 'a.txt' })), usage },
        { ...text('It says hello.'), usage },
        text('ok'),
      ],
    });
    assert.equal(await h.agent.send('look'), 'done');
    const cards = h.cardsOf('usage');
    assert.equal(cards.length, 4, 'one usage card per request, the explorer\'s two included');
    assert.ok(cards.every((c) => c.role === 'planner'), JSON.stringify(cards.map((c) => c.role)));
    // 'explore' (a routine request of an explorer) folds in the chat like the Planner's own routine ones.
    const explorer = cards.filter((c) => c.outcome === 'explore');
    assert.equal(explorer.length, 2);
    assert.ok(explorer.every((c) => c.tokens_in === 1000 && c.tokens_out === 100 && c.cost_usd! > 0));
    const totals = h.events.filter((e): e is Extract<HostEvent, { type: 'usage_total' }> => e.type === 'usage_total').at(-1)!;
    assert.equal(totals.task.tokens_in, cards.reduce((n, c) => n + c.tokens_in, 0));
    const explorerCost = explorer.reduce((n, c) => n + c.cost_usd!, 0);
    assert.ok(totals.task.cost_usd! >= explorerCost, 'the task cost includes the explorer\'s');
  });

  it('a parent that may write still gets a read-only child', async () => {
    // A role of a test's own that plans and writes: its explorer gets read tools only.
    const lead: RoleDef = { ...PRODUCT_ROLES.get('actor'), id: 'lead', label: 'Lead', mayPlan: true, executesPlans: false };
    const roles = new RoleRegistry<RoleDef>([lead, ...PRODUCT_ROLES.list]);
    h = await harness({
      roles,
      role: 'lead',
      files: { 'a.txt': 'keep\n' },
      settings: (s) => ({ ...s, models: { ...s.models, lead: 'lead-model' }, approval: { ...s.approval, autoApprove: { edit: true, create: true, delete: true, command: true } } }),
      steps: [
        calls(tc('explore', { question: 'q' })),
        calls(tc('write_file', { path: 'a.txt', content: 'changed\n' })),
        text('read-only here'),
        text('ok'),
      ],
    });
    assert.equal(await h.agent.send('go'), 'done');
    assert.ok(h.server.toolsOffered()[0]!.includes('write_file'), 'the parent writes');
    assert.deepEqual(h.server.toolsOffered()[1]!.filter((n) => WRITE_TOOLS.includes(n)), []);
    assert.equal(h.read('a.txt'), 'keep\n');
  });

  it('at most tandem.explorers.max run at once: with 1, the second waits for the first', async () => {
    h = await harness({
      role: 'planner',
      files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
      settings: (s) => ({ ...s, explorers: { enabled: true, max: 1 } }),
      steps: [
        calls(tc('explore', { question: 'first' }), tc('explore', { question: 'second' })),
        // The first explorer's answer is slow to come: a second explorer running beside it would ask meanwhile.
        { ...calls(tc('read_file', { path: 'a.txt' })), chunkDelayMs: 40 },
        text('first done'),
        text('second done'),
        text('ok'),
      ],
    });
    assert.equal(await h.agent.send('go'), 'done');
    const questions = h.server.chatRequests().slice(1, 4).map((b) => userMessages(b)[0]);
    assert.deepEqual(questions, ['first', 'first', 'second']);
    const results = h.toolCards().filter((c) => c.tool === 'explore').map((c) => c.result);
    assert.deepEqual(results.map((r) => r!.split('\n')[0]), ['first done', 'second done']);
  });

  it('tandem.explorers.enabled false: explore is not offered', async () => {
    h = await harness({ role: 'planner', settings: (s) => ({ ...s, explorers: { enabled: false, max: 3 } }), steps: [text('hi')] });
    await h.agent.send('hi');
    assert.ok(!h.server.toolsOffered()[0]!.includes('explore'));
  });
});
