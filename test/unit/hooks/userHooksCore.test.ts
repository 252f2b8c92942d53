/**
 * The user's hooks through the core (startTask on a real Node host and workspace, the scripted
 * model over a socket, real hook processes): what the card says, who is asked, what is refused.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { calls, tc, text } from '../../support/scriptSteps';
import { toolResults, userMessages } from '../../support/modelRequests';
import { UserHooks } from '../../../src/core/userHooks/userHooks';
import { parseHookConfig } from '../../../src/core/userHooks/hookConfig';
import { NodeHookProcess } from '../../../src/host/node/nodeHookProcess';
import { nullLogger } from '../../../src/core/ports/ports';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';

const hooksOf = (events: Record<string, unknown>) => (ws: string) =>
  new UserHooks({ commands: parseHookConfig({ hooks: events }, 'test').commands, process: new NodeHookProcess(), cwd: ws, logger: nullLogger });
const one = (matcher: string, command: string) => [{ matcher, hooks: [{ type: 'command', command }] }];
const json = (o: unknown) => `cat >/dev/null; echo '${JSON.stringify(o)}'`;

describe('user hooks through the core', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  let scratch: string;
  beforeEach(() => { scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-hooks-core-')); });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('a node PreToolUse hook that exits 2 refuses the call; the card says "Blocked by hook" and the model gets the reason', async () => {
    const hook = path.join(scratch, 'block.js');
    fs.writeFileSync(hook, "process.stdin.resume(); process.stdin.on('end', () => { process.stderr.write('tests are read-only'); process.exit(2); });\n");
    h = await harness({
      steps: [calls(tc('write_file', { path: 'test/x.test.ts', content: 'x' })), text('ok')],
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', false) }),
      userHooks: hooksOf({ PreToolUse: one('Write', `node ${hook}`) }),
    });
    assert.equal(await h.agent.send('write a test'), 'done');
    const card = h.toolCards()[0]!;
    assert.equal(card.status, 'refused');
    assert.deepEqual(card.hook, { outcome: 'blocked', reason: 'tests are read-only' });
    assert.equal(card.error, 'Blocked by hook: tests are read-only');
    assert.equal(fs.existsSync(path.join(h.ws, 'test', 'x.test.ts')), false);
    assert.match(toolResults(h.server.chatRequests()[1]).join('\n'), /Blocked by hook: tests are read-only/);
  });

  it('permissionDecision ask asks a person even when blanket approval covers the edit', async () => {
    h = await harness({
      files: { 'a.txt': 'one\n' },
      steps: [calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'one', new_text: 'two' }] })), text('ok')],
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', true) }),
      approver: { request: async () => ({ approved: true }) },
      userHooks: hooksOf({ PreToolUse: one('Edit', json({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'a.txt is shared' } })) }),
    });
    await h.agent.send('edit');
    assert.equal(h.approvals.length, 1, 'the person was asked');
    assert.deepEqual(h.toolCards()[0]!.hook, { outcome: 'asked', reason: 'a.txt is shared' });
    assert.equal(h.read('a.txt'), 'two\n');
  });

  it("an allow does not reach a file that runs code: the person is still asked, and the card says the hook's allow did not reach", async () => {
    h = await harness({
      steps: [calls(tc('write_file', { path: '.vscode/tasks.json', content: '{}' })), text('ok')],
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', true) }),
      approver: { request: async () => ({ approved: false, reason: 'no' }) },
      userHooks: hooksOf({ PreToolUse: one('*', json({ hookSpecificOutput: { permissionDecision: 'allow' } })) }),
    });
    await h.agent.send('write');
    assert.equal(h.approvals.length, 1);
    assert.equal(h.toolCards()[0]!.hook?.outcome, 'not_reached');
    assert.equal(fs.existsSync(path.join(h.ws, '.vscode', 'tasks.json')), false);
  });

  it('a hook that fails (exit 1) is a warning on the card and blocks nothing', async () => {
    h = await harness({
      files: { 'a.txt': 'one\n' },
      steps: [calls(tc('read_file', { path: 'a.txt' })), text('ok')],
      userHooks: hooksOf({ PreToolUse: one('Read', 'cat >/dev/null; echo "jq: not found" >&2; exit 1') }),
    });
    await h.agent.send('read');
    const card = h.toolCards()[0]!;
    assert.equal(card.status, 'done');
    assert.equal(card.hook?.outcome, undefined);
    assert.match(card.hook?.warnings?.[0] ?? '', /PreToolUse hook .* exited with 1: jq: not found/);
  });

  it('SessionStart and UserPromptSubmit hooks get the stdin object; their stdout is context; exit 2 blocks the prompt', async () => {
    const seen = path.join(scratch, 'stdin');
    h = await harness({
      steps: [text('ok')],
      role: 'planner',
      userHooks: hooksOf({
        SessionStart: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo "branch: feature/x"' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: `cat >> ${seen}; echo; grep -q secret ${seen} && { echo "no secrets in prompts" >&2; exit 2; }; exit 0` }] }],
      }),
    });
    assert.equal(await h.agent.send('plan it'), 'done');
    const input = JSON.parse(fs.readFileSync(seen, 'utf8').trim().split('\n')[0]!);
    assert.equal(input.hook_event_name, 'UserPromptSubmit');
    assert.equal(input.prompt, 'plan it');
    assert.equal(input.tandem_role, 'planner');
    assert.equal(input.plan_step, null);
    assert.equal(input.cwd, h.ws);
    assert.equal(typeof input.session_id, 'string');
    assert.match(userMessages(h.server.chatRequests()[0]).join('\n'), /branch: feature\/x/);
    // Blocked: nothing reaches the model, and the chat says why.
    assert.equal(await h.agent.send('my secret is 42'), 'error');
    assert.equal(h.server.chatRequests().length, 1);
    assert.ok(h.cardsOf('error').some((c) => c.message === 'Blocked by hook: no secrets in prompts'));
  });

  it("an explorer's calls pass the same PreToolUse hooks, and its end runs SubagentStop (sent back at most 3 times)", async () => {
    const stops = path.join(scratch, 'stops');
    h = await harness({
      role: 'planner',
      files: { 'secret/plan.md': 'private\n', 'a.txt': 'hello\n' },
      steps: [
        calls(tc('explore', { question: 'What is in the repo?' })),
        calls(tc('read_file', { path: 'secret/plan.md' }), tc('read_file', { path: 'a.txt' })),
        { type: 'text', text: 'a.txt says hello.', times: 4 },
        text('ok'),
      ],
      userHooks: hooksOf({
        PreToolUse: one('Read', `python3 -c 'import json,sys; p=json.load(sys.stdin)["tool_input"]["file_path"]; sys.exit(0) if "/secret/" not in p else (print("secret/ is off limits", file=sys.stderr), sys.exit(2))'`),
        SubagentStop: [{ hooks: [{ type: 'command', command: `cat >> ${stops}; echo >> ${stops}; echo "look once more" >&2; exit 2` }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; exit 0' }] }],
      }),
    });
    assert.equal(await h.agent.send('explore'), 'done');
    const results = toolResults(h.server.chatRequests()[2]);
    assert.match(results.join('\n'), /Blocked by hook: secret\/ is off limits/);
    assert.match(results.join('\n'), /hello/);
    const seen = fs.readFileSync(stops, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(seen.length, 4, 'the first stop and three more after being sent back');
    assert.equal(seen[0].hook_event_name, 'SubagentStop');
    assert.equal(seen[0].stop_hook_active, false);
    assert.equal(seen[1].stop_hook_active, true);
    assert.match(toolResults(h.server.chatRequests()[6]).join('\n'), /a\.txt says hello/, 'the Planner got the explorer\'s answer');
  });
});
