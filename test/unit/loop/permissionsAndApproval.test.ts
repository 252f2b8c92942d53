import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import type { AgentSettings } from '../../../src/core/settings/settings';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';
import { chunkedCalls, tc, text } from '../../support/scriptSteps';

const calls = chunkedCalls(6);

const flag = (f: 'never' | 'edits' | 'all' | undefined, tty = false) => (s: AgentSettings): AgentSettings => ({ ...s, approval: approvalFromFlag(f, tty) });

describe('permissions and approval with the real tools', () => {
  let h: Harness | undefined;
  let outside: string | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('the Planner is offered only read tools (real registry) and a model that tries every write path changes nothing', async () => {
    const original = 'export const x = 1;\n// keep me\n';
    h = await harness({
      role: 'planner',
      files: { 'src/a.ts': original },
      settings: (s) => ({ ...flag('all')(s), limits: { ...s.limits, maxConsecutiveToolErrors: 20 } }),
      steps: [
        calls(tc('read_file', { path: 'src/a.ts' })),
        calls(
          tc('write_file', { path: 'src/a.ts', content: 'pwned' }),
          tc('write_file', { path: 'src/new.ts', content: 'new' }),
          tc('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'x = 1', new_text: 'x = 2' }] }),
          tc('apply_patch', { patch: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n-export const x = 1;\n+export const x = 2;\n // keep me\n' }),
          tc('delete_file', { path: 'src/a.ts' }),
          tc('run_command', { command: 'echo pwned > src/a.ts' }),
          tc('run_command', { command: 'rm -f src/a.ts' }),
        ),
        text('I may not change files.'),
      ],
    });
    assert.equal(await h.agent.send('change x to 2'), 'done');
    assert.equal(h.read('src/a.ts'), original);
    assert.equal(fs.existsSync(path.join(h.ws, 'src/new.ts')), false);
    const cards = h.toolCards();
    assert.equal(cards[0]!.status, 'done');
    for (const c of cards.slice(1)) {
      assert.equal(c.status, 'refused', c.tool);
      assert.match(c.error!, /not permitted for the Planner role/);
    }
    const offered = h.server.toolsOffered()[0]!;
    assert.deepEqual(offered.filter((n) => ['write_file', 'edit_file', 'apply_patch', 'delete_file', 'run_command'].includes(n)), []);
    for (const n of ['read_file', 'list_files', 'find_files', 'search', 'ask_question', 'propose_plan']) assert.ok(offered.includes(n), n);
    assert.equal(h.approvals.length, 0);
  });

  it('the Actor is offered every workspace tool', async () => {
    h = await harness({ role: 'actor', steps: [text('hi')] });
    await h.agent.send('hi');
    const offered = h.server.toolsOffered()[0]!;
    for (const n of ['read_file', 'list_files', 'find_files', 'search', 'write_file', 'edit_file', 'apply_patch', 'delete_file', 'run_command', 'ask_question']) assert.ok(offered.includes(n), n);
    assert.ok(!offered.includes('propose_plan'));
  });

  it('--approve never: a write is rejected and the file is untouched', async () => {
    h = await harness({ files: { 'a.txt': 'old\n' }, settings: flag('never'), steps: [calls(tc('read_file', { path: 'a.txt' })), calls(tc('write_file', { path: 'a.txt', content: 'new\n' })), text('ok')] });
    assert.equal(await h.agent.send('rewrite'), 'done');
    assert.equal(h.read('a.txt'), 'old\n');
    assert.equal(h.toolCards()[1]!.status, 'rejected');
    assert.equal(h.approvals.length, 0, 'headless: nobody is asked');
  });

  it('--approve edits: edits and new files inside are written; deletions and commands are not', async () => {
    h = await harness({
      files: { 'a.txt': 'old\n', 'b.txt': 'keep\n' },
      settings: flag('edits'),
      steps: [
        calls(tc('read_file', { path: 'a.txt' })),
        calls(tc('write_file', { path: 'a.txt', content: 'new\n' }), tc('write_file', { path: 'c.txt', content: 'created\n' })),
        calls(tc('delete_file', { path: 'b.txt' }), tc('run_command', { command: 'touch d.txt' })),
        text('ok'),
      ],
    });
    await h.agent.send('go');
    assert.equal(h.read('a.txt'), 'new\n');
    assert.equal(h.read('c.txt'), 'created\n');
    assert.equal(h.read('b.txt'), 'keep\n');
    assert.equal(fs.existsSync(path.join(h.ws, 'd.txt')), false);
    assert.deepEqual(h.toolCards().map((c) => c.status), ['done', 'done', 'done', 'rejected', 'rejected']);
    const w = h.toolCards()[1]!;
    assert.equal(w.approval?.kind, 'edit');
  });

  it('--approve all: deletes and runs commands inside, but never writes outside the workspace', async () => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-outside-'));
    const target = path.join(outside, 'victim.txt');
    fs.writeFileSync(target, 'outside stays\n');
    h = await harness({
      files: { 'b.txt': 'bye\n' },
      settings: flag('all'),
      steps: [
        calls(tc('delete_file', { path: 'b.txt' }), tc('run_command', { command: 'echo ran > d.txt' })),
        calls(tc('write_file', { path: target, content: 'pwned' }), tc('write_file', { path: `../${path.basename(outside)}/new.txt`, content: 'pwned' })),
        text('ok'),
      ],
    });
    await h.agent.send('go');
    assert.equal(fs.existsSync(path.join(h.ws, 'b.txt')), false);
    assert.equal(h.read('d.txt'), 'ran\n');
    assert.equal(fs.readFileSync(target, 'utf8'), 'outside stays\n');
    assert.equal(fs.existsSync(path.join(outside, 'new.txt')), false);
    const [, , w1, w2] = h.toolCards();
    assert.equal(w1!.status, 'rejected');
    assert.equal(w2!.status, 'rejected');
    assert.equal(w1!.approval?.kind, 'outside_workspace');
    assert.match(w1!.error!, /outside the workspace/);
  });

  it('with a person to ask, an outside path is asked about by its real path even when everything is auto-approved', async () => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-outside-'));
    const target = path.join(outside, 'ok.txt');
    h = await harness({
      settings: flag('all', true),
      approver: { request: async () => ({ approved: true }) },
      steps: [calls(tc('write_file', { path: target, content: 'approved by a person\n' })), text('ok')],
    });
    await h.agent.send('go');
    assert.equal(fs.readFileSync(target, 'utf8'), 'approved by a person\n');
    assert.equal(h.approvals[0]!.info.kind, 'outside_workspace');
    assert.equal(h.approvals[0]!.info.real_path, fs.realpathSync(outside) + path.sep + 'ok.txt');
  });

  it('a command on the allow-list runs without asking; a chained or redirected one still asks', async () => {
    const asked: string[] = [];
    h = await harness({
      settings: (s) => ({ ...s, commandAllowList: ['echo'], approval: { mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false } } }),
      approver: { request: async (req) => (asked.push(req.info.command ?? ''), { approved: false, reason: 'no' }) },
      steps: [calls(tc('run_command', { command: 'echo hello' })), calls(tc('run_command', { command: 'echo hi > out.txt' })), calls(tc('run_command', { command: 'echo a && rm -rf .' })), text('ok')],
    });
    await h.agent.send('go');
    assert.deepEqual(asked, ['echo hi > out.txt', 'echo a && rm -rf .']);
    assert.deepEqual(h.toolCards().map((c) => c.status), ['done', 'rejected', 'rejected']);
    assert.match(h.toolCards()[0]!.result!, /hello/);
  });

  it('the card goes pending → approved → running → done for an approved write', async () => {
    h = await harness({ settings: flag('edits'), steps: [calls(tc('write_file', { path: 'n.txt', content: 'x' })), text('ok')] });
    await h.agent.send('go');
    const id = h.toolCards()[0]!.id;
    const statuses = h.events.flatMap((e) => (e.type === 'card_added' && e.card.id === id ? [(e.card as any).status] : e.type === 'card_patched' && e.id === id && e.patch.status ? [e.patch.status] : []));
    assert.deepEqual(statuses, ['pending', 'approved', 'running', 'done']);
  });
});

describe('Stop kills a running command', () => {
  it('aborts run_command (the whole process tree) and ends the turn as stopped', async function () {
    this.timeout(15_000);
    const h = await harness({
      settings: (s) => ({ ...s, approval: approvalFromFlag('all', false) }),
      steps: [calls(tc('run_command', { command: 'sleep 30 && echo late > late.txt' })), text('never')],
    });
    try {
      const p = h.agent.send('run it');
      const end = Date.now() + 5000;
      while (h.toolCards()[0]?.status !== 'running' && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      assert.equal(h.toolCards()[0]?.status, 'running');
      h.agent.stop();
      assert.equal(await p, 'stopped');
      assert.equal(fs.existsSync(path.join(h.ws, 'late.txt')), false);
      assert.equal(h.server.chatRequests().length, 1);
    } finally {
      await h.close();
    }
  });
});
