/**
 * Promise 7: edits are never lost or silently overwritten. Through the built CLI: a failing block
 * leaves the file byte-for-byte unchanged; a file the user changes on disk after the agent read it
 * is not overwritten by write_file, edit_file or apply_patch (also when it changes while the
 * change waits for approval); a stream cut inside a tool call never runs it.
 * (Tool-level cases live in test/unit/tools/{editFile,writeDelete,applyPatch}.test.ts and the loop's
 * cut-stream cases in test/unit/loop/faults.test.ts; these go through the whole product.)
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptedServer, type ScriptStep, type ScriptedToolCall } from '../../support/scriptedServer';
import { sleep } from '../../support/wait';
import { type CliRun, cliTestKit, runCliProcess } from '../../support/cliRunner';
import { harness, type Harness } from '../../support/agentHarness';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

const ORIGINAL = 'line one\nline two\nline three\n';
const USER = 'line one\nline two — the user typed this\nline three\n';

describe('security: edits are never lost or silently overwritten (built CLI)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-edits-',
    setup(ws) {
      fs.writeFileSync(path.join(ws, 'a.txt'), ORIGINAL);
    },
  });

  it('edit_file whose second block fails writes nothing, not even the first block', async () => {
    const r = await runCliAgainst(kit.cli, [
      calls(tc('read_file', { path: 'a.txt' })),
      calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'line one', new_text: 'LINE ONE' }, { old_text: 'line four', new_text: 'LINE FOUR' }] })),
      calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'line one', new_text: 'LINE ONE' }, { old_text: 'line', new_text: 'ambiguous' }] })),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'edit'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), ORIGINAL);
    const results = r.server.chatRequests().slice(2).map((b) => b.messages.at(-1).content as string);
    assert.match(results[0]!, /Block 2 of 2[\s\S]*not found[\s\S]*Nothing was changed/, results[0]);
    assert.match(results[1]!, /Block 2 of 2[\s\S]*Nothing was changed/, results[1]);
    assert.doesNotMatch(results[1]!, /not found/, 'the second failure is the ambiguous match, not a missing one');
  });

  // The user edits the file while the model is still streaming the change: the write must be refused.
  /**
   * The agent reads a.txt, then streams `change` slowly; the user saves a.txt while the call is on
   * its way (after the read's result went back to the model). Resolves with the CLI's run.
   */
  async function readThenChangeWhileUserSaves(change: ScriptedToolCall): Promise<CliRun> {
    const server = await ScriptedServer.start([
      calls(tc('read_file', { path: 'a.txt' })),
      { type: 'tool_calls', calls: [change], argChunkSize: 3, chunkDelayMs: 15 },
      text('done'),
    ]);
    kit.server = server;
    const run = runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', server.url, '--role', 'actor', '--approve', 'all', 'change a.txt'], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
    const until = Date.now() + 10_000;
    while (server.chatRequests().length < 2 && Date.now() < until) await sleep(2);
    fs.writeFileSync(path.join(kit.ws, 'a.txt'), USER);
    return run;
  }

  for (const [tool, args] of [
    ['write_file', { path: 'a.txt', content: 'the model rewrote everything\n' }],
    // The block covers the line the user changed (an edit apart from it is re-matched: below).
    ['edit_file', { path: 'a.txt', edits: [{ old_text: 'line two\nline three', new_text: 'line two\nLINE THREE' }] }],
    ['apply_patch', { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n line one\n line two\n-line three\n+LINE THREE\n' }],
  ] as const) {
    it(`${tool} does not overwrite a file the user changed on disk after the agent read it`, async () => {
      const r = await readThenChangeWhileUserSaves(tc(tool, args));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), USER, "the user's change survives");
      const result = kit.server!.chatRequests()[2].messages.at(-1).content as string;
      assert.match(result, /changed since you read it|read it again/i, result);
    });
  }

  it('edit_file apart from the line the user changed after the read lands on the current text and keeps their line', async () => {
    const r = await readThenChangeWhileUserSaves(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'line three', new_text: 'LINE THREE' }] }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), USER.replace('line three', 'LINE THREE'), "the user's line and the agent's both");
    const result = kit.server!.chatRequests()[2].messages.at(-1).content as string;
    assert.match(result, /changed since you read it \(the user changed line 2\)[\s\S]*the user's change was kept/, result);
  });

  for (const [what, step] of [
    ['edit_file cut mid-arguments (socket reset)', { type: 'fault', fault: 'cut', calls: [tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'line one', new_text: 'CUT '.repeat(30) }] })], fraction: 0.6 }],
    ['run_command cut mid-arguments (clean close, no [DONE])', { type: 'fault', fault: 'cut', mode: 'end', calls: [tc('run_command', { command: 'rm a.txt; echo cut-but-ran > ran.txt' + ' '.repeat(60) })], fraction: 0.7 }],
    ['delete_file after a complete write_file in the same message, cut', { type: 'fault', fault: 'cut', calls: [tc('write_file', { path: 'new.txt', content: 'complete call' }), tc('delete_file', { path: 'a.txt' })], fraction: 0.9 }],
    ['write_file whose arguments were truncated by max_tokens (finish_reason length)', { type: 'tool_calls', calls: [tc('write_file', '{"path":"a.txt","content":"half of the fi')], finishReason: 'length' }],
  ] as [string, ScriptStep][]) {
    it(`a stream ${what} runs nothing`, async () => {
      fs.writeFileSync(path.join(kit.ws, 'b.txt'), 'bravo\n');
      const before = treeFingerprint(kit.ws);
      const r = await runCliAgainst(kit.cli, [calls(tc('read_file', { path: 'a.txt' })), step, text('recovered')], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
      kit.server = r.server;
      assert.ok(r.run.code === 0 || r.run.code === 1, `exit ${r.run.code}: ${r.run.stderr}`);
      assert.deepEqual(treeFingerprint(kit.ws), before, r.run.stdout + r.run.stderr);
    });
  }
});

describe('security: a file changed while its change waits for approval is not overwritten', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const [tool, args] of [
    ['write_file', { path: 'a.txt', content: 'model text\n' }],
    // The block covers the line the user changed (an edit apart from it is re-matched: below).
    ['edit_file', { path: 'a.txt', edits: [{ old_text: 'line two\nline three', new_text: 'line two\nLINE THREE' }] }],
    ['apply_patch', { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n line one\n line two\n-line three\n+LINE THREE\n' }],
    ['delete_file', { path: 'a.txt' }],
  ] as const) {
    it(`${tool}: the user saves the file while the diff is open, then clicks Approve`, async () => {
      let ref: Harness | undefined;
      h = await harness({
        files: { 'a.txt': ORIGINAL },
        settings: (s) => ({ ...s, approval: approvalFromFlag(undefined, true) }),
        approver: {
          request: async () => {
            fs.writeFileSync(path.join(ref!.ws, 'a.txt'), USER);
            return { approved: true };
          },
        },
        steps: [calls(tc('read_file', { path: 'a.txt' })), calls(tc(tool, args)), text('ok')],
      });
      ref = h;
      await h.agent.send('change a.txt');
      assert.equal(h.approvals.length, 1, 'a person was asked');
      assert.equal(h.read('a.txt'), USER, "the user's save survives");
      const card = h.toolCards()[1]!;
      assert.notEqual(card.status, 'done');
      assert.match(card.error ?? '', /while waiting for approval/);
    });
  }

  it('edit_file apart from the line the user saved while the diff was open: the approved change is written over theirs, keeping it', async () => {
    let ref: Harness | undefined;
    h = await harness({
      files: { 'a.txt': ORIGINAL },
      settings: (s) => ({ ...s, approval: approvalFromFlag(undefined, true) }),
      approver: {
        request: async () => {
          fs.writeFileSync(path.join(ref!.ws, 'a.txt'), USER);
          return { approved: true };
        },
      },
      steps: [calls(tc('read_file', { path: 'a.txt' })), calls(tc('edit_file', { path: 'a.txt', edits: [{ old_text: 'line three', new_text: 'LINE THREE' }] })), text('ok')],
    });
    ref = h;
    await h.agent.send('change a.txt');
    assert.equal(h.read('a.txt'), USER.replace('line three', 'LINE THREE'), "the user's save and the approved change both");
    const card = h.toolCards()[1]!;
    assert.equal(card.status, 'done', card.error);
    assert.match(card.result ?? '', /changed while the change waited for approval \(the user changed line 2\)/);
  });

  it('a file created by someone else while a new-file proposal waits is not overwritten', async () => {
    let ref: Harness | undefined;
    h = await harness({
      settings: (s) => ({ ...s, approval: approvalFromFlag(undefined, true) }),
      approver: {
        request: async () => {
          fs.writeFileSync(path.join(ref!.ws, 'new.txt'), 'theirs\n');
          return { approved: true };
        },
      },
      steps: [calls(tc('write_file', { path: 'new.txt', content: 'mine\n' })), text('ok')],
    });
    ref = h;
    await h.agent.send('create new.txt');
    assert.equal(h.read('new.txt'), 'theirs\n');
  });
});
