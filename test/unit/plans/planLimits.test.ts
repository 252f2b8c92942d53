/**
 * A plan's size is bounded and its graph walked without recursion, through the built CLI: a plan file
 * of 10,000 steps chained through `depends_on`, or with one step listing 300,000 unknown steps, is
 * refused with exit 2 naming the limit (it once ended in "internal error: Maximum call stack size
 * exceeded", exit 1); the same plans from a model's `propose_plan` come back to it as a tool error
 * naming the limit, and a plan at the limits (50 steps, one needing the 49 others) is accepted.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { toolResults } from '../../support/modelRequests';
import { call, chunkedCalls, tc, text } from '../../support/scriptSteps';

function plan(steps: { depends_on: number[] }[]) {
  return {
    format_version: '1.0',
    goal: 'Write the notes',
    steps: steps.map((s, i) => ({
      step_number: i + 1, action: `Write n${i + 1}.txt`, reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m',
      files: [`n${i + 1}.txt`], check: `test -s n${i + 1}.txt`, depends_on: s.depends_on,
    })),
    estimated_total_time: '1h', risks: [], prerequisites: [],
  };
}

/** n steps, each needing the next: the walk from step 1 goes n deep. */
const chain = (n: number) => plan(Array.from({ length: n }, (_, i) => ({ depends_on: i + 1 < n ? [i + 2] : [] })));
/** One step that needs `n` steps the plan does not have. */
const wide = (n: number) => plan([{ depends_on: Array.from({ length: n }, (_, i) => i + 2) }]);

describe('plan limits: oversized plans are refused naming the limit, never a stack overflow (built CLI)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-planlimits-' });
  let plans: string;
  before(() => { plans = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-planlimits-plans-')); });
  after(() => fs.rmSync(plans, { recursive: true, force: true }));

  for (const [name, p, named] of [
    ['10,000 steps chained through depends_on', () => chain(10_000), /the plan has 10000 steps; 50 is the most a plan may have/],
    ['one step listing 300,000 unknown steps', () => wide(300_000), /step 1: depends_on lists 300000 steps; 50 is the most a plan may have/],
  ] as const) {
    it(`--plan FILE with ${name}: exit 2 naming the limit, nothing asked of the model`, async () => {
      const file = path.join(plans, `${path.basename(kit.ws)}.json`);
      fs.writeFileSync(file, JSON.stringify(p()));
      const r = await kit.run([], ['run', '--role', 'actor', '--plan', file, '--approve', 'plan', '--no-history']);
      assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, named);
      assert.equal(kit.server!.chatRequests().length, 0);
      assert.ok(r.stdout.length < 50_000, `the refusal is short, not the whole plan again (${r.stdout.length} characters)`);
    });
  }

  // One oversized plan per conversation: each answer carries megabytes of arguments back to the server.
  for (const [name, p, named] of [
    ['10,000 chained steps', () => chain(10_000), /the plan has 10000 steps; 50 is the most a plan may have/],
    ['a step listing 300,000 unknown steps', () => wide(300_000), /step 1: depends_on lists 300000 steps; 50 is the most a plan may have/],
  ] as const) {
    it(`propose_plan with ${name}: the model gets a tool error naming the limit; its plan at the limits is accepted`, async () => {
      const atLimits = plan(Array.from({ length: 50 }, (_, i) => ({ depends_on: i === 49 ? Array.from({ length: 49 }, (_, k) => k + 1) : [] })));
      const out = path.join(plans, `${path.basename(kit.ws)}-out.json`);
      const r = await kit.run([
        // In pieces of 1 MB (not the default few characters): megabytes of arguments, streamed fast.
        chunkedCalls(1 << 20)(tc('propose_plan', p())),
        call('propose_plan', atLimits),
        text('Proposed.'),
        // One retry: a loaded machine may take long enough over the big answer that the server drops
        // the idle connection the client then reuses (a reset); what is tested is the refusal.
      ], ['plan', '--out', out, 'Write the notes'], { TANDEM_MAX_RETRIES: '1' });
      assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/);
      assert.equal(r.code, 0, r.stderr);
      const result = toolResults(kit.server!.chatRequests()[1]!).at(-1)!;
      assert.match(result, named, result);
      const written = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.equal((written.plan ?? written).steps.length, 50);
    });
  }
});
