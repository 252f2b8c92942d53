/**
 * The Reviewer cannot write by any route: as a chat role (every write tool and shell the model
 * calls is refused at dispatch, none is offered), and in its verdict requests (no tools are
 * offered; a tool call in the answer is never run). Through the built CLI with `--approve all`, so
 * nothing but the role stands in the way; the workspace is byte-for-byte unchanged afterwards.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptStep } from '../../support/scriptedServer';
import type { ScriptedServer } from '../../support/scriptedServer';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer as Server } from '../../support/scriptedServer';
import { calls, runCliAgainst, tc, tempDir, text, treeFingerprint, WRITE_TOOLS } from './securityKit';

const READ_TOOLS = ['read_file', 'list_files', 'find_files', 'search', 'diagnostics', 'find_symbol', 'go_to_definition', 'find_references', 'document_outline', 'hover_type'];

describe('security: the Reviewer cannot write, whatever the model tries (built CLI, --approve all)', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let server: ScriptedServer | undefined;

  before(async () => { cli = await buildCli(); });
  beforeEach(() => {
    ws = tempDir('tandem-sec-reviewer-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bravo\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  const tricks = [
    tc('write_file', { path: 'a.txt', content: 'pwned' }),
    tc('write_file', { path: 'new.txt', content: 'pwned' }),
    tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'pwned' }] }),
    tc('apply_patch', { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+pwned\n' }),
    tc('delete_file', { path: 'b.txt' }),
    tc('run_command', { command: 'echo pwned > a.txt' }),
    tc('fail_step', { reason: 'x' }),
    tc('propose_plan', { format_version: '1.0', goal: 'g', steps: [{ step_number: 1, action: 'overwrite', reason: 'r', tools_needed: ['write_file'], estimated_time: '1m', files: ['a.txt'] }], estimated_total_time: '1m', risks: [], prerequisites: [] }),
  ];

  it('as a chat role: every write, shell and plan tool is refused at dispatch and none is offered', async () => {
    const steps: ScriptStep[] = tricks.map((t) => calls(t, tc('read_file', { path: 'a.txt' })));
    steps.push(text('reviewed'));
    const before = treeFingerprint(ws);
    const r = await runCliAgainst(cli, steps, ws, ['--role', 'reviewer', '--approve', 'all', '--json', '--no-history', 'review a.txt'], { TANDEM_MAX_TOOL_CALLS: '100' });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.deepEqual(treeFingerprint(ws), before);
    const status = new Map<string, { tool: string; status: string; error?: string }>();
    for (const e of r.run.stdout.trim().split('\n').map((l) => JSON.parse(l))) {
      if (e.type === 'card_added' && e.card.kind === 'tool_call') status.set(e.card.id, { tool: e.card.tool, status: e.card.status });
      if (e.type === 'card_patched' && status.has(e.id)) Object.assign(status.get(e.id)!, e.patch);
    }
    const attempts = [...status.values()].filter((c) => c.tool !== 'read_file');
    assert.equal(attempts.length, tricks.length);
    for (const c of attempts) {
      assert.equal(c.status, 'refused', `${c.tool} → ${c.status}`);
      assert.match(c.error ?? '', /not permitted for the Reviewer|not available to the Reviewer|unknown tool/, c.tool);
    }
    for (const names of r.server.toolsOffered()) {
      for (const w of [...WRITE_TOOLS, 'propose_plan', 'fail_step']) assert.ok(!names.includes(w), `offered ${w}`);
      for (const n of names) assert.ok([...READ_TOOLS, 'ask_question'].includes(n), `unexpected tool offered: ${n}`);
    }
  });

  it('keeps no shell even with the read-only shell setting that gives the Planner one', async () => {
    const before = treeFingerprint(ws);
    const r = await runCliAgainst(cli, [calls(tc('run_command', { command: 'ls' })), text('done')], ws, ['--role', 'reviewer', '--approve', 'all', '--json', '--no-history', 'look'], { TANDEM_READONLY_SHELL: '1' });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.ok(!r.server.toolsOffered()[0]!.includes('run_command'), 'not offered');
    assert.match(r.run.stdout, /run_command is not permitted for the Reviewer role \(no shell\)/);
    assert.deepEqual(treeFingerprint(ws), before);
  });

  it('in a verdict request: no tools are offered, and tool calls in its answers are never run', async () => {
    const planFile = path.join(ws, 'plan.json');
    fs.writeFileSync(planFile, JSON.stringify({ format_version: '1.0', goal: 'g', steps: [{ step_number: 1, action: 'read a.txt', reason: 'r', tools_needed: ['read_file'], estimated_time: '1m', files: ['a.txt'] }], estimated_total_time: '1m', risks: [], prerequisites: [] }));
    const before = treeFingerprint(ws);
    server = await Server.start([
      calls(tc('write_file', { path: 'a.txt', content: 'pwned' }), tc('run_command', { command: 'rm b.txt' })),
      calls(tc('delete_file', { path: 'b.txt' })),
      { type: 'json', value: { verdict: 'ok', reasons: ['fine'], concerns: [] } },
    ]);
    const run = await runCliProcess(cli, ['review', '--workspace', ws, '--base-url', server.url, '--json', '--no-history'].concat(['--plan', planFile]), { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(treeFingerprint(ws), before);
    const reqs = server.chatRequests();
    assert.equal(reqs.length, 3, 'two answers without a verdict were repaired');
    for (const req of reqs) assert.equal(req.tools, undefined);
    assert.ok(!run.stdout.includes('"kind":"tool_call"'), 'no tool call card: nothing was dispatched');
  });
});
