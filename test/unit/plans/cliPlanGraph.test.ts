/**
 * A plan's steps as a graph, through the built CLI (child process, scripted server): a graph that
 * cannot run is refused with exit 2 naming its steps; one at a time, steps run in an order their
 * `depends_on` allows.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { cliTestKit, type CliRun } from '../../support/cliRunner';
import { call, text } from '../../support/scriptSteps';

export function graphPlan(steps: { files: string[]; depends_on?: number[]; check?: string; action?: string }[]) {
  return {
    format_version: '1.0',
    goal: 'Write the notes',
    steps: steps.map((s, i) => ({
      step_number: i + 1,
      action: s.action ?? `Write ${s.files.join(', ')}`,
      reason: 'notes',
      tools_needed: ['write_file'],
      estimated_time: '1m',
      files: s.files,
      // Done needs evidence: by default, the step's first file exists and is not empty.
      check: s.check ?? `test -s ${s.files[0]}`,
      ...(s.depends_on ? { depends_on: s.depends_on } : {}),
    })),
    estimated_total_time: '2m',
    risks: [],
    prerequisites: [],
  };
}

export const jsonEvents = (r: CliRun) => r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l)));

describe('tandem run --plan: depends_on (built CLI, scripted server)', function () {
  this.timeout(30_000);
  const kit = cliTestKit({ prefix: 'tandem-graph-' });
  // Plan files live outside the workspace (a file in it would be one of its changes).
  let plans: string;
  before(() => { plans = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-graph-plans-')); });
  after(() => fs.rmSync(plans, { recursive: true, force: true }));
  const planFile = () => path.join(plans, `${path.basename(kit.ws)}.json`);

  for (const [name, deps, named] of [
    ['a cycle', [[2], [1]], /steps 1, 2: depends_on forms a cycle/],
    ['a self reference', [[], [2]], /step 2: depends_on names step 2 itself/],
    ['an unknown step', [[], [9]], /step 2: depends_on names step 9, which the plan does not have/],
  ] as const) {
    it(`refuses ${name} with exit 2, naming the steps, and runs nothing`, async () => {
      fs.writeFileSync(planFile(), JSON.stringify(graphPlan([{ files: ['a.txt'], depends_on: [...deps[0]] }, { files: ['b.txt'], depends_on: [...deps[1]] }])));
      const r = await kit.run([], ['run', '--role', 'actor', '--plan', planFile(), '--approve', 'plan', '--no-history']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, named);
      assert.equal(kit.server!.chatRequests().length, 0);
    });
  }

  it('one at a time, a step runs after the steps it needs, whatever its number', async () => {
    // Step 1 needs step 2; step 2 needs nothing: 2 runs first.
    fs.writeFileSync(planFile(), JSON.stringify(graphPlan([{ files: ['b.txt'], depends_on: [2], check: 'test -f a.txt' }, { files: ['a.txt'], depends_on: [] }])));
    const r = await kit.run([
      call('write_file', { path: 'a.txt', content: 'a\n' }),
      text('Wrote a.'),
      call('write_file', { path: 'b.txt', content: 'b\n' }),
      text('Wrote b.'),
    ], ['run', '--role', 'actor', '--plan', planFile(), '--approve', 'plan', '--no-history', '--json', '--parallel', '1']);
    assert.equal(r.code, 0, r.stderr);
    const steps = jsonEvents(r).filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
    assert.deepEqual(steps, ['step_started:2', 'step_done:2', 'step_started:1', 'step_done:1']);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'b\n');
  });
});
