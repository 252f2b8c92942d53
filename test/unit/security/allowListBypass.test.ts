/**
 * Promise 4: the command allow-list cannot be bypassed. The Actor runs headless with `--approve
 * edits` (commands are never auto-approved) and an allow-list of `git status` and `ls`; every
 * command below would create `created.txt` or delete `victim.txt` if it ran. None may run: the
 * markers stay as they were. Plain `ls` and `git status` do run, so the allow-list is really on.
 * (The analysis itself is unit-tested in test/unit/tools/commandSafety.test.ts; this runs the
 * real loop, approval policy and shell.)
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';
import { calls, tc, text } from './securityKit';

const BYPASSES = [
  'ls && rm victim.txt',
  'ls; rm victim.txt',
  'ls;rm victim.txt',
  'ls nothing-here || touch created.txt',
  'ls | tee created.txt',
  'ls | xargs rm',
  'ls > created.txt',
  'ls>created.txt',
  'ls >> created.txt',
  'ls 2> created.txt',
  'ls 1>created.txt',
  'ls &> created.txt',
  'ls >| created.txt',
  'ls 2>&1 > created.txt',
  'ls $(touch created.txt)',
  'ls "$(touch created.txt)"',
  'ls `touch created.txt`',
  'ls "`touch created.txt`"',
  'ls <(touch created.txt)',
  'ls ${x:=$(touch created.txt)}',
  'ls -- $(rm victim.txt)',
  'ls\nrm victim.txt',
  'ls\r\nrm victim.txt',
  'ls &&\nrm victim.txt',
  'ls # comment\nrm victim.txt',
  'ls #; rm victim.txt\ntouch created.txt',
  'ls a#b; rm victim.txt',
  'FOO=1 rm victim.txt',
  'FOO=1 ls; rm victim.txt',
  'PATH=. ls',
  'bash -c "rm victim.txt"',
  "sh -c 'touch created.txt'",
  'ls & rm victim.txt',
  'ls -la; rm victim.txt',
  'git status; rm victim.txt',
  'git status --short && touch created.txt',
  '(ls; rm victim.txt)',
  '{ ls; rm victim.txt; }',
  'exec rm victim.txt',
  'command rm victim.txt',
  'eval "rm victim.txt"',
  'ls | sh -c "rm victim.txt"',
  'cat <<EOF > created.txt\nx\nEOF',
  'ls <<< x > created.txt',
  "ls $'\\x3b' ; rm victim.txt",
  'if ls; then rm victim.txt; fi',
  'for f in victim.txt; do rm $f; done',
  'ls\u00a0; rm victim.txt',
  'l\\s; rm victim.txt',
  'ls \\\n; rm victim.txt',
];

describe('security: the command allow-list cannot be bypassed (Actor, --approve edits, allow-list git status + ls)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await harness({
      role: 'actor',
      files: { 'victim.txt': 'keep me\n', 'listed.txt': 'x\n' },
      settings: (s) => ({ ...s, commandAllowList: ['git status', 'ls'], approval: approvalFromFlag('edits', false) }),
      steps: [],
    });
  });
  after(async () => {
    await h.close();
  });

  const markers = () => ({ victim: fs.existsSync(path.join(h.ws, 'victim.txt')) && fs.readFileSync(path.join(h.ws, 'victim.txt'), 'utf8'), created: fs.existsSync(path.join(h.ws, 'created.txt')) });

  async function runOne(command: string) {
    h.server.push(calls(tc('run_command', { command })), text('ok'));
    const before = h.toolCards().length;
    await h.agent.send(`run ${JSON.stringify(command)}`);
    const card = h.toolCards()[before]!;
    assert.equal(card.tool, 'run_command');
    return card;
  }

  for (const allowed of ['ls', 'ls -la', 'git status', 'ls 2>/dev/null', 'ls && ls -a | ls']) {
    it(`runs the allow-listed ${JSON.stringify(allowed)} without asking`, async () => {
      const card = await runOne(allowed);
      assert.equal(card.status, 'done', card.error);
      assert.deepEqual(markers(), { victim: 'keep me\n', created: false });
    });
  }

  for (const cmd of BYPASSES) {
    it(`does not run ${JSON.stringify(cmd)}`, async () => {
      const asked = h.approvals.length;
      const card = await runOne(cmd);
      assert.equal(card.status, 'rejected', `${card.status}: ${card.result ?? card.error}`);
      assert.deepEqual(markers(), { victim: 'keep me\n', created: false });
      assert.equal(h.approvals.length, asked, 'headless: nobody is asked, it is denied');
    });
  }
});
