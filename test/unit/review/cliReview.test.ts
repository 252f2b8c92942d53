/**
 * The Reviewer on the command line (built CLI, child process, scripted server):
 * `tandem review --plan FILE` and `tandem run --plan FILE --review …`, with `--json` events for
 * verdicts and plan versions, and the exit codes CI gates on.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { type CliRun, cliTestKit } from '../../support/cliRunner';
import { goodPlan } from '../plans/planFixtures';
import { text, verdict } from '../../support/scriptSteps';

function notesPlan() {
  return goodPlan({
    goal: 'Create notes.txt',
    steps: [
      { step_number: 1, action: 'Create notes.txt containing the line hello', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1 min', files: ['notes.txt'], check: 'grep -q hello notes.txt' },
      { step_number: 2, action: 'Create done.txt', reason: 'mark', tools_needed: ['write_file'], estimated_time: '1 min', files: ['done.txt'], check: 'test -f done.txt' },
    ],
  });
}

describe('tandem review / run --review (built CLI, scripted server)', function () {
  this.timeout(30_000);
  const kit = cliTestKit({
    prefix: 'tandem-clireview-',
    setup: (ws) => fs.writeFileSync(path.join(ws, 'plan.json'), JSON.stringify(notesPlan())),
  });
  const planFile = () => path.join(kit.ws, 'plan.json');
  const tandem = kit.run;
  const jsonEvents = (r: CliRun) => r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l)));

  it('tandem review --json: a review_verdict event; exit 0 on ok', async () => {
    const r = await tandem([verdict('ok', ['sound'])], ['review', '--plan', planFile(), '--json', '--no-history']);
    assert.equal(r.code, 0, r.stderr);
    const events = jsonEvents(r);
    const v = events.find((e) => e.type === 'review_verdict');
    assert.ok(v && v.type === 'review_verdict' && v.verdict?.verdict === 'ok' && v.version === 1);
    assert.ok(events.some((e) => e.type === 'plan_version' && e.version === 1 && e.valid));
    const [req] = kit.server!.chatRequests();
    assert.equal(req.tools, undefined, 'no tools offered to the Reviewer');
    assert.match(req.messages[0].content, /You are Tandem's Reviewer/);
  });

  it('tandem review: revise exits 1 and prints the reasons and concerns (text mode)', async () => {
    const r = await tandem([verdict('revise', ['step 2 proves nothing'], [{ step: 2, file: 'done.txt', line: null, text: 'check its content' }])], ['review', '--plan', planFile(), '--no-history']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /\[Reviewer on plan v1: revise\] step 2 proves nothing/);
    assert.match(r.stderr, /the Reviewer says revise on plan v1: step 2 proves nothing\n  - step 2: check its content \(done\.txt\)/);
  });

  it('tandem review refuses without --plan and takes no prompt (exit 2)', async () => {
    const a = await tandem([], ['review', 'judge this']);
    assert.equal(a.code, 2);
    assert.match(a.stderr, /tandem review needs --plan FILE\.json/);
    const b = await tandem([], ['run', '--review', 'plan', 'hello']);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /--review goes with --plan/);
  });

  it('run --plan --review plan: a revise verdict executes nothing and exits 1', async () => {
    const r = await tandem([verdict('revise', ['no'])], ['run', '--role', 'actor', '--plan', planFile(), '--review', 'plan', '--approve', 'all', '--json', '--no-history']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(kit.server!.chatRequests().length, 1, 'only the review');
    assert.ok(!fs.existsSync(path.join(kit.ws, 'notes.txt')));
    assert.ok(jsonEvents(r).some((e) => e.type === 'review_verdict' && e.verdict?.verdict === 'revise'));
  });

  it('run --plan --review all: ok on the plan, step 1 reviewed, replan stops before step 2 (exit 1, said on stderr)', async () => {
    const r = await tandem([
      verdict('ok', ['fine']),
      { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      text('Created.'),
      verdict('replan', ['notes.txt should be generated instead']),
      text('never'),
    ], ['run', '--role', 'actor', '--plan', planFile(), '--review', 'all', '--approve', 'all', '--json', '--no-history']);
    assert.equal(r.code, 1, r.stderr);
    const verdicts = jsonEvents(r).filter((e) => e.type === 'review_verdict').map((e: any) => `${e.step_number ?? 'plan'}:${e.verdict?.verdict}`);
    assert.deepEqual(verdicts, ['plan:ok', '1:replan']);
    assert.ok(!fs.existsSync(path.join(kit.ws, 'done.txt')), 'step 2 never ran');
    assert.match(r.stderr, /Stopped after step 1: the Reviewer says replan \(notes\.txt should be generated instead\)/);
    assert.match(r.stderr, /step 2 pending/);
  });
});
