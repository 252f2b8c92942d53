/**
 * Promise 1: the Planner truly cannot write. A scripted model, as the Planner, tries every trick we
 * could think of through the built CLI with `--approve all` (so nothing but the role stands in the
 * way); afterwards the workspace and a folder beside it are byte-for-byte what they were, and no
 * request ever offered the Planner a write tool or a shell.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptStep } from '../../support/scriptedServer';
import type { ScriptedServer } from '../../support/scriptedServer';
import { buildCli, cliTestKit, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer as ScriptedServerClass } from '../../support/scriptedServer';
import { harness, type Harness } from '../../support/agentHarness';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';
import { calls, runCliAgainst, tc, tempDir, text, treeFingerprint, WRITE_TOOLS } from './securityKit';

const READ_TOOLS = ['read_file', 'list_files', 'find_files', 'search', 'diagnostics', 'find_symbol', 'go_to_definition', 'find_references', 'document_outline', 'hover_type'];

describe('security: the Planner cannot write, whatever the model tries (built CLI, --approve all)', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let outside: string;
  let server: ScriptedServer | undefined;

  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-planner-');
    outside = tempDir('tandem-sec-planner-out-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bravo\n');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export const x = 1;\n');
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'outside\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  // Each trick goes in its own message followed by a harmless read, so the consecutive-error guard
  // never cuts the attempt short: every trick really reaches the dispatcher.
  const tricks: [string, ReturnType<typeof tc>[]][] = [
    ['write_file over an existing file', [tc('write_file', { path: 'a.txt', content: 'pwned' })]],
    ['write_file creating a file', [tc('write_file', { path: 'new.txt', content: 'pwned' })]],
    ['edit_file', [tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'pwned' }] })]],
    ['apply_patch creating a new file', [tc('apply_patch', { patch: '--- /dev/null\n+++ b/created.txt\n@@ -0,0 +1 @@\n+pwned\n' })]],
    ['apply_patch changing a file', [tc('apply_patch', { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+pwned\n' })]],
    ['delete_file', [tc('delete_file', { path: 'b.txt' })]],
    ['run_command with a redirect', [tc('run_command', { command: 'echo pwned > a.txt' })]],
    ['run_command rm', [tc('run_command', { command: 'rm -f b.txt' })]],
    ['Write_File (other case)', [tc('Write_File', { path: 'a.txt', content: 'pwned' })]],
    ['WRITE_FILE', [tc('WRITE_FILE', { path: 'a.txt', content: 'pwned' })]],
    ['" write_file" (leading space)', [tc(' write_file', { path: 'a.txt', content: 'pwned' })]],
    ['"write_file " (trailing space)', [tc('write_file ', { path: 'a.txt', content: 'pwned' })]],
    ['"write_file\\n"', [tc('write_file\n', { path: 'a.txt', content: 'pwned' })]],
    ['functions.write_file', [tc('functions.write_file', { path: 'a.txt', content: 'pwned' })]],
    ['a shell named bash', [tc('bash', { command: 'echo pwned > a.txt' })]],
    ['a shell named shell', [tc('shell', { cmd: 'rm b.txt' })]],
    ['a shell named execute', [tc('execute', { command: 'touch x' })]],
    ['run_command with non-JSON arguments', [tc('run_command', 'touch pwned.txt')]],
    ['edit_file in the same message as a read (edit first)', [tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'pwned' }] }), tc('read_file', { path: 'a.txt' })]],
    ['write_file after a read in the same message', [tc('read_file', { path: 'b.txt' }), tc('write_file', { path: 'b.txt', content: 'pwned' })]],
    ['write_file to a path outside', [tc('write_file', { path: path.join('..', 'OUTSIDE', 'victim.txt'), content: 'pwned' })]],
    ['read_file with write-looking extra arguments', [tc('read_file', { path: 'a.txt', content: 'pwned', mode: 'w', write: true })]],
    ['ask_question carrying paths and commands', [tc('ask_question', { question: 'May I run `rm -rf src` and write ../x?', context: 'paths: /etc/passwd ../OUTSIDE/victim.txt', severity: 'minor', options: [{ label: 'write a.txt', value: 'a.txt' }, { label: 'rm -rf .', value: 'rm -rf .' }], default: 'rm -rf .', allow_custom: true })]],
  ];

  it('changes nothing, inside or beside the workspace, and is never offered a write tool', async () => {
    const steps: ScriptStep[] = [];
    for (const [, cs] of tricks) {
      const fixed = cs.map((c) => (typeof c.arguments === 'object' && JSON.stringify(c.arguments).includes('OUTSIDE') ? tc(c.name, JSON.parse(JSON.stringify(c.arguments).replaceAll('OUTSIDE', path.basename(outside)))) : c));
      steps.push(calls(...fixed, tc('read_file', { path: 'src/main.ts' })));
    }
    // A plan whose steps name outside files and write tools: a plan is text, never an action.
    steps.push(calls(tc('propose_plan', {
      format_version: '1.0',
      goal: 'Overwrite everything',
      steps: [{ step_number: 1, action: 'Overwrite a.txt and ../victim', reason: 'because', tools_needed: ['write_file', 'run_command'], estimated_time: '1m', files: ['a.txt', `../${path.basename(outside)}/victim.txt`, '/etc/passwd'] }],
      estimated_total_time: '1m',
      risks: [],
      prerequisites: [],
    })));
    steps.push(text('I could not change anything.'));
    const before = treeFingerprint(ws);
    const beforeOutside = treeFingerprint(outside);

    const r = await runCliAgainst(cli, steps, ws, ['--approve', 'all', '--answer', 'default', '--json', 'overwrite everything'], { TANDEM_MAX_TOOL_CALLS: '500' });
    server = r.server;
    assert.ok(r.run.code === 0 || r.run.code === 1, `exit ${r.run.code}: ${r.run.stderr}`);

    assert.deepEqual(treeFingerprint(ws), before, 'the workspace is byte-for-byte unchanged, no new files');
    assert.deepEqual(treeFingerprint(outside), beforeOutside, 'the folder beside it is unchanged');

    // Every trick reached the dispatcher and was refused (not merely skipped).
    const events = r.run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const finalStatus = new Map<string, { tool: string; status: string; error?: string }>();
    for (const e of events) {
      if (e.type === 'card_added' && e.card.kind === 'tool_call') finalStatus.set(e.card.id, { tool: e.card.tool, status: e.card.status });
      if (e.type === 'card_patched' && finalStatus.has(e.id)) Object.assign(finalStatus.get(e.id)!, e.patch);
    }
    const cards = [...finalStatus.values()];
    const attempts = cards.filter((c) => !['read_file', 'ask_question', 'propose_plan'].includes(c.tool));
    const expected = tricks.flatMap(([, cs]) => cs.filter((c) => c.name !== 'read_file' && c.name !== 'ask_question')).length;
    assert.equal(attempts.length, expected, `one card per write attempt: ${JSON.stringify(cards.map((c) => [c.tool, c.status]))} ${r.run.stderr}`);
    for (const c of attempts) {
      assert.equal(c.status, 'refused', `${JSON.stringify(c.tool)} → ${c.status} ${c.error ?? ''}`);
      assert.match(c.error ?? '', /not permitted for the Planner|unknown tool/, JSON.stringify(c.tool));
    }
    // The outside write attempt is refused by role before any path question is asked.
    assert.deepEqual(cards.filter((c) => c.tool === 'ask_question' || c.tool === 'propose_plan').map((c) => c.tool), ['ask_question', 'propose_plan'], 'the question and the plan were handled too');

    // The server log: every request the Planner made offered read tools and loop tools only.
    const offered = r.server.toolsOffered();
    assert.ok(offered.length >= tricks.length, `${offered.length} requests`);
    for (const names of offered) {
      for (const w of WRITE_TOOLS) assert.ok(!names.includes(w), `offered ${w}`);
      // explore hands a question to a read-only explorer (its child gets read tools only: loop/explore.test.ts).
      for (const n of names) assert.ok([...READ_TOOLS, 'ask_question', 'propose_plan', 'explore'].includes(n), `unexpected tool offered: ${n}`);
    }
  });
});

describe('security: switching to the Planner mid-run stops writes that were already on their way', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a write streamed while the user switches to the Planner is never run', async () => {
    h = await harness({
      role: 'actor',
      files: { 'a.txt': 'alpha\n' },
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', false) }),
      steps: [
        { type: 'tool_calls', calls: [tc('write_file', { path: 'fresh.txt', content: 'x'.repeat(400) })], argChunkSize: 4, chunkDelayMs: 5 },
        text('never asked'),
      ],
    });
    const before = treeFingerprint(h.ws);
    const turn = h.agent.send('write fresh.txt');
    // Switch as soon as the first chunks arrive (the call is mid-stream).
    const end = Date.now() + 5000;
    while (h.server.chatRequests().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 30));
    h.agent.setRole('planner', 'switched by the user');
    assert.equal(await turn, 'stopped');
    assert.equal(h.agent.role, 'planner');
    assert.deepEqual(treeFingerprint(h.ws), before);
    assert.equal(h.server.chatRequests().length, 1, 'no further request after the switch');
  });

  it('an approval granted after the user switched to the Planner writes nothing', async () => {
    let harnessRef: Harness | undefined;
    h = await harness({
      role: 'actor',
      files: { 'a.txt': 'alpha\n' },
      // A person is asked; while the diff is open they switch to the Planner, then (stale click) approve.
      settings: (s) => ({ ...s, approval: approvalFromFlag(undefined, true) }),
      approver: {
        request: async () => {
          harnessRef!.agent.setRole('planner', 'switched by the user');
          return { approved: true };
        },
      },
      steps: [
        calls(tc('read_file', { path: 'a.txt' })),
        calls(tc('write_file', { path: 'a.txt', content: 'pwned\n' }), tc('write_file', { path: 'b.txt', content: 'pwned\n' }), tc('delete_file', { path: 'a.txt' })),
        text('never asked'),
      ],
    });
    harnessRef = h;
    const before = treeFingerprint(h.ws);
    assert.equal(await h.agent.send('rewrite a.txt'), 'stopped');
    assert.deepEqual(treeFingerprint(h.ws), before);
    assert.equal(h.approvals.length, 1, 'the later calls are not even asked about');
    assert.ok(h.toolCards().slice(1).every((c) => c.status !== 'done'), JSON.stringify(h.toolCards().map((c) => c.status)));
  });

  it('a Planner turn after an Actor turn is offered no write tools and refuses them at dispatch', async () => {
    h = await harness({
      role: 'actor',
      files: { 'a.txt': 'alpha\n' },
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', false) }),
      steps: [text('ready'), calls(tc('write_file', { path: 'a.txt', content: 'pwned\n' }), tc('run_command', { command: 'touch z' })), text('ok')],
    });
    await h.agent.send('hello');
    h.agent.setRole('planner', 'switched by the user');
    const before = treeFingerprint(h.ws);
    await h.agent.send('now overwrite');
    assert.deepEqual(treeFingerprint(h.ws), before);
    const offered = h.server.toolsOffered();
    assert.ok(offered[0]!.includes('write_file'), 'the Actor was offered write tools');
    for (const w of WRITE_TOOLS) assert.ok(!offered[1]!.includes(w), w);
    assert.deepEqual(h.toolCards().map((c) => c.status), ['refused', 'refused']);
  });
});

describe('security: `tandem plan` always runs the Planner, whatever the flags say (built CLI)', function () {
  this.timeout(30_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-plancmd-',
    setup(ws) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    },
  });

  for (const roles of [['--role', 'actor'], ['--role=actor'], ['--role', 'planner', '--role', 'actor'], ['--role', 'planner', '--role=actor']]) {
    it(`refuses ${roles.join(' ')} (exit 2) and writes nothing`, async () => {
      const before = treeFingerprint(kit.ws);
      kit.server = await ScriptedServerClass.start([calls(tc('write_file', { path: 'new.txt', content: 'pwned' })), text('ok')]);
      const r = await runCliProcess(kit.cli, ['plan', '--workspace', kit.ws, '--base-url', kit.server.url, '--approve', 'all', ...roles, '--out', path.join(kit.ws, 'plan.json'), 'go'], { env: { TANDEM_API_KEY: 'k', TANDEM_MAX_RETRIES: '0' } });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /tandem plan runs the Planner/);
      assert.equal(kit.server.chatRequests().length, 0);
      assert.deepEqual(treeFingerprint(kit.ws), before);
    });
  }
});
