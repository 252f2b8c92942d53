/**
 * A plan's steps as a graph, through the built CLI (child process, scripted server): a graph that
 * cannot run is refused with exit 2 naming its steps; one at a time, steps run in an order their
 * `depends_on` allows.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { cliTestKit, runCliProcess, type CliRun } from '../../support/cliRunner';
import { commitFiles, gitIn } from '../../support/gitRepo';
import { ScriptedServer, planStepOf, type ScriptStep } from '../../support/scriptedServer';
import { call, text } from '../../support/scriptSteps';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';
import { overlayStepsBase } from '../../../src/host/node/cow/overlayStepWorkspaces';
import { worktreesBase } from '../../../src/host/node/gitStepWorkspaces';
import { graphPlan, jsonEvents } from './planFixtures';


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


/** The ordered step events of a run: `step_started:1`, `step_done:2`, … */
const stepEvents = (r: CliRun) => jsonEvents(r).filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);

/** Steps 1 and 2 need nothing and write a.txt / b.txt; step 3 needs both and checks it sees both. */
const diamondPlan = () => graphPlan([
  { files: ['a.txt'], depends_on: [] },
  { files: ['b.txt'], depends_on: [] },
  { files: ['c.txt'], depends_on: [1, 2], check: 'grep -q "from step 1" a.txt && grep -q "from step 2" b.txt && test -s c.txt' },
]);

/** Each step's Actor answered by its step, whatever order the requests come in. */
const diamondLanes = (): Record<string, ScriptStep[]> => ({
  1: [call('write_file', { path: 'a.txt', content: 'from step 1\n' }), text('Wrote a.')],
  2: [call('write_file', { path: 'b.txt', content: 'from step 2\n' }), text('Wrote b.')],
  3: [call('write_file', { path: 'c.txt', content: 'from step 3\n' }), text('Wrote c.')],
});

// Each runs on both kinds of step workspace: the copy-on-write view and the worktree it falls back to.
for (const kind of STEP_WORKSPACE_KINDS) {
describe(`parallel steps on ${kind.name} (built CLI, scripted server)`, function () {
  useStepWorkspaceKind(kind);
  const worktrees = kind.env === 'worktree';
  /** What the user is told a step's workspace is. */
  const place = worktrees ? 'git worktree' : 'copy-on-write workspace';
  /** What is left where this repository's step workspaces go, of either kind. */
  const stepFoldersLeft = (ws: string) => [overlayStepsBase(ws), worktreesBase(ws)].flatMap((b) => (fs.existsSync(b) ? fs.readdirSync(b) : []));

  describe('tandem run --plan: independent steps run side by side, each in its own worktree (built CLI, scripted server)', function () {
    this.timeout(60_000);
    const kit = cliTestKit({
      prefix: 'tandem-graphrun-',
      realpath: true,
      setup: (ws) => void commitFiles(ws, { 'README.md': 'project\n' }),
    });
    let plans: string;
    before(() => { plans = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-graphrun-plans-')); });
    after(() => fs.rmSync(plans, { recursive: true, force: true }));

    async function runPlan(plan: unknown, lanes: Record<string, ScriptStep[]>, extra: string[] = [], delayMs = 150): Promise<CliRun> {
      const file = path.join(plans, `${path.basename(kit.ws)}.json`);
      fs.writeFileSync(file, JSON.stringify(plan));
      // A little latency per answer, so two steps that can overlap do.
      kit.server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: lanes }, answerDelayMs: delayMs });
      return runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history', ...extra], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 50_000 });
    }

    /**
     * A step workspace of this kind made by a process that is then killed, as a crash leaves it
     * (`then`: what the step did first, JavaScript on `s`); returns the folder that holds it.
     */
    async function crashedStep(label: string, then = ''): Promise<string> {
      const mod = JSON.stringify(require.resolve('../../../src/host/node/nodeStepWorkspaces'));
      const quiet = '{ info() {}, warn() {}, error() {}, debug() {} }';
      const folder = "s.root.startsWith('/proc/') ? require('path').dirname(s.root.replace(/^\\/proc\\/\\d+\\/root/, '')) : s.root";
      const child = spawn(process.execPath, ['-e', `new (require(${mod}).NodeStepWorkspaces)({ logger: ${quiet} }).create(${JSON.stringify(kit.ws)}, '${label}').then(async (s) => { await s.ready; ${then}; console.log(${folder}); setInterval(() => {}, 1000); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
      const leftover = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      assert.ok(fs.existsSync(leftover), `${leftover} is left behind`);
      assert.equal(leftover.includes('tandem-steps-'), !worktrees, `${leftover} is a step folder of the kind under test`);
      return leftover;
    }

    it('two independent steps overlap in time; the step that needs both sees both changes; nothing is committed and no worktree is left', async () => {
      const r = await runPlan(diamondPlan(), diamondLanes());
      assert.equal(r.code, 0, r.stderr);
      const steps = stepEvents(r);
      // Overlap, by order: each of steps 1 and 2 started before the other one ended.
      assert.ok(steps.indexOf('step_started:2') < steps.indexOf('step_done:1'), steps.join(' '));
      assert.ok(steps.indexOf('step_started:1') < steps.indexOf('step_done:2'), steps.join(' '));
      assert.ok(steps.indexOf('step_started:3') > Math.max(steps.indexOf('step_done:1'), steps.indexOf('step_done:2')), steps.join(' '));
      assert.equal(steps.filter((s) => s.startsWith('step_done')).length, 3);
      for (const [f, t] of [['a.txt', 'from step 1\n'], ['b.txt', 'from step 2\n'], ['c.txt', 'from step 3\n']]) assert.equal(fs.readFileSync(path.join(kit.ws, f!), 'utf8'), t);
      // Applied, not committed; the worktrees are gone.
      assert.equal(gitIn(kit.ws, 'rev-list', '--count', 'HEAD').trim(), '1');
      assert.equal(gitIn(kit.ws, 'worktree', 'list').trim().split('\n').length, 1);
      assert.deepEqual(stepFoldersLeft(kit.ws), [], 'no step folder is left');
      // Every card of a step carries its step number (the chat's lanes); the applies are cards of their own.
      const cards = jsonEvents(r).flatMap((e) => (e.type === 'card_added' ? [e.card] : []));
      const writes = cards.filter((c: any) => c.kind === 'tool_call' && c.tool === 'write_file') as any[];
      assert.deepEqual(writes.map((c) => [c.args.path, c.step, c.branch]).sort(), [['a.txt', 1, true], ['b.txt', 2, true], ['c.txt', 3, true]]);
      const applies = cards.filter((c: any) => c.kind === 'tool_call' && c.tool === 'apply_step') as any[];
      assert.deepEqual(applies.map((c) => c.step).sort(), [1, 2]);
      // …worded as part of their step, never as a tool named apply_step (no model called it).
      assert.deepEqual(applies.map((c) => `${c.display?.done} ${c.display?.detail} (${c.display?.tag})`).sort(), ['Step 1 applied: a.txt (plan run)', 'Step 2 applied: b.txt (plan run)']);
      // Each step's Actor had only the goal and its own step.
      const firstOf = (n: string) => kit.server!.chatRequests().find((b) => planStepOf(b) === n);
      const brief = JSON.stringify(firstOf('2')!.messages.filter((m: any) => m.role === 'user'));
      assert.match(brief, /Do step 2 of 3/);
      assert.doesNotMatch(brief, /Do step 1 of|Write a\.txt/);
    });

    it("a crashed run's step worktrees are removed when tandem next starts, whatever it runs", async () => {
      // A process makes a step workspace and is killed before it can remove it.
      const leftover = await crashedStep('crashed');
      if (worktrees) assert.match(gitIn(kit.ws, 'worktree', 'list'), /crashed/);
      // The next start is a plain question, no plan.
      const r = await kit.run([text('hello')], ['run', '--no-history', 'hi']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.existsSync(leftover), false, 'the leftover worktree folder is gone');
      assert.doesNotMatch(gitIn(kit.ws, 'worktree', 'list'), /crashed/);
    });

    it("a crashed run's unfinished step keeps its changes as a patch when tandem next starts, and says where", async () => {
      // A step's worktree made from a workspace with an uncommitted change; the step edits a file and
      // makes one, then its process is killed before the step ends.
      fs.writeFileSync(path.join(kit.ws, 'dirty.txt'), 'uncommitted before the step\n');
      const leftover = await crashedStep('step2', "require('fs').writeFileSync(s.root + '/half.txt', 'half done\\n'); require('fs').appendFileSync(s.root + '/dirty.txt', 'and the step\\n')");
      const history = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-graph-history-'));
      try {
        const r = await kit.run([text('hello')], ['run', '--history-dir', history, 'hi']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(fs.existsSync(leftover), false, 'the leftover worktree folder is gone');
        const named = new RegExp(`step 2 of a run that ended abruptly had changes in its ${place} that were not applied; they are kept in (\\S+\\.patch\\.json) \\(apply them in the workspace with: tandem apply \\1\\); its ${place} was removed`).exec(r.stderr);
        assert.ok(named, r.stderr);
        assert.ok(named[1]!.startsWith(history), `${named[1]} is in the history folder`);
        const kept = JSON.parse(fs.readFileSync(named[1]!, 'utf8'));
        const texts = kept.entries.map((e: any) => [e.path, e.kind, Buffer.from(e.base64 ?? '', 'base64').toString('utf8')]);
        // Only the step's own change, not what the workspace had already (dirty.txt's first line is its start).
        assert.deepEqual(texts, [['dirty.txt', 'file', 'uncommitted before the step\nand the step\n'], ['half.txt', 'file', 'half done\n']]);
        assert.equal(kept.entries[1].before, null, 'half.txt is new');
        assert.equal(kept.entries[0].before.kind, 'file', 'dirty.txt started from the uncommitted file');
      } finally {
        fs.rmSync(history, { recursive: true, force: true });
      }
    });

    it("a crashed run's step that changed nothing: the next start says nothing was lost", async () => {
      const leftover = await crashedStep('step3');
      const r = await kit.run([text('hello')], ['run', '--no-history', 'hi']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`step 3 of a run that ended abruptly had changed nothing in its ${place}: nothing was lost; its ${place} was removed`));
      assert.equal(fs.existsSync(leftover), false, 'its folder is gone');
    });

    it("a step's check is not blamed for another step's changes applied to the workspace while it runs", async () => {
      // Step 1's check takes a while; step 2 ends and is applied meanwhile (a copy-on-write step sees the workspace change under it).
      const plan = graphPlan([{ files: ['a.txt'], depends_on: [], check: 'sleep 3 && test -s a.txt' }, { files: ['b.txt'], depends_on: [] }]);
      const r = await runPlan(plan, {
        1: [call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote a.')],
        2: [call('write_file', { path: 'b.txt', content: 'b\n' }), text('Wrote b.')],
      });
      assert.equal(r.code, 0, r.stderr);
      const steps = stepEvents(r);
      assert.ok(steps.indexOf('step_done:2') < steps.indexOf('step_done:1'), `step 2 was applied while step 1's check ran: ${steps.join(' ')}`);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'a\n');
      assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'b\n');
    });

    it('a check that writes a file in a step run beside another leaves that step unverified, naming the file', async () => {
      const plan = graphPlan([{ files: ['a.txt'], depends_on: [], check: 'echo ran > check-log.txt && test -s a.txt' }, { files: ['b.txt'], depends_on: [] }]);
      const r = await runPlan(plan, {
        1: [call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote a.')],
        2: [call('write_file', { path: 'b.txt', content: 'b\n' }), text('Wrote b.')],
      });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /step 1 unverified: .*the check `echo ran > check-log\.txt && test -s a\.txt` changed check-log\.txt; a check should only verify/);
      assert.doesNotMatch(r.stderr, /changed b\.txt/);
    });

    it('--parallel 1 gives the same result, one step at a time', async () => {
      const r = await runPlan(diamondPlan(), diamondLanes(), ['--parallel', '1']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(stepEvents(r), ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2', 'step_started:3', 'step_done:3']);
      for (const [f, t] of [['a.txt', 'from step 1\n'], ['b.txt', 'from step 2\n'], ['c.txt', 'from step 3\n']]) assert.equal(fs.readFileSync(path.join(kit.ws, f!), 'utf8'), t);
      assert.equal(jsonEvents(r).filter((e) => e.type === 'card_added' && (e.card as any).tool === 'apply_step').length, 0, 'no worktree, nothing to apply');
    });

    it('two ready steps whose files overlap never run together', async () => {
      const plan = graphPlan([{ files: ['notes/'], depends_on: [], check: 'test -s notes/a.txt' }, { files: ['notes/b.txt'], depends_on: [] }]);
      const r = await runPlan(plan, {
        1: [call('write_file', { path: 'notes/a.txt', content: 'a\n' }), text('Wrote a.')],
        2: [call('write_file', { path: 'notes/b.txt', content: 'b\n' }), text('Wrote b.')],
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(stepEvents(r), ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2']);
    });

    it('an out-of-scope write in one branch is an amendment and never reaches the workspace; the run exits 3 once the other step ends', async () => {
      const plan = graphPlan([{ files: ['a.txt'], depends_on: [] }, { files: ['b.txt'], depends_on: [] }]);
      const r = await runPlan(plan, {
        1: [call('write_file', { path: 'a.txt', content: 'from step 1\n' }), text('Wrote a.')],
        2: [call('write_file', { path: 'b.txt', content: 'from step 2\n' }), call('write_file', { path: 'other.txt', content: 'not in the plan\n' }), text('never asked for')],
      });
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /stopped on an amendment to plan v1: Step 2 wants to create other\.txt, which the plan did not name/);
      const steps = stepEvents(r);
      assert.ok(steps.includes('step_done:1') && steps.includes('step_failed:2'), steps.join(' '));
      assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'from step 1\n', 'the other step finished and was applied');
      assert.equal(fs.existsSync(path.join(kit.ws, 'other.txt')), false, 'the amendment never reached the workspace');
      assert.equal(fs.existsSync(path.join(kit.ws, 'b.txt')), false, 'a failed step is not applied');
      const amendment = jsonEvents(r).find((e) => e.type === 'amendment');
      assert.ok(amendment?.type === 'amendment' && amendment.step === 2 && amendment.amendment.outcome === 'refused');
    });

    // Step 1 fails at once; step 2 is still waiting for its first answer when it does.
    const failingPlan = () => graphPlan([{ files: ['a.txt'], depends_on: [] }, { files: ['b.txt'], depends_on: [] }]);
    const failingLanes = (): Record<string, ScriptStep[]> => ({
      1: [call('fail_step', { reason: 'a.txt cannot be written' }), text('Failed.')],
      2: [{ ...call('write_file', { path: 'b.txt', content: 'from step 2\n' }), firstChunkDelayMs: 2500 }, text('Wrote b.')],
    });

    it('when a step fails, by default the other running step finishes its step (and is applied)', async () => {
      const r = await runPlan(failingPlan(), failingLanes(), [], 0);
      assert.equal(r.code, 1, r.stderr);
      const steps = stepEvents(r);
      assert.ok(steps.indexOf('step_failed:1') < steps.indexOf('step_done:2'), steps.join(' '));
      assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'from step 2\n');
    });

    it('--on-failure stop: when a step fails, the other running step is stopped, says why, and nothing of it is applied', async () => {
      const r = await runPlan(failingPlan(), failingLanes(), ['--on-failure', 'stop'], 0);
      assert.equal(r.code, 1, r.stderr);
      const steps = stepEvents(r);
      assert.ok(steps.includes('step_failed:1') && steps.includes('step_stopped:2'), steps.join(' '));
      assert.match(r.stderr, /step 2 stopped: .*step 1 failed/);
      assert.equal(fs.existsSync(path.join(kit.ws, 'b.txt')), false);
      assert.equal(gitIn(kit.ws, 'worktree', 'list').trim().split('\n').length, 1);
      assert.deepEqual(stepFoldersLeft(kit.ws), [], 'no step folder is left');
    });

    it('Stop (Ctrl-C) stops every running step: both end stopped, nothing is applied, no worktree is left', async () => {
      const file = path.join(plans, `${path.basename(kit.ws)}-stop.json`);
      fs.writeFileSync(file, JSON.stringify(graphPlan([{ files: ['a.txt'], depends_on: [] }, { files: ['b.txt'], depends_on: [] }])));
      // Each step's first answer hangs: both are mid-request when the user stops.
      kit.server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: { 1: [{ type: 'fault', fault: 'hang' }], 2: [{ type: 'fault', fault: 'hang' }] } } });
      let interrupted = false;
      const r = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history'], {
        env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' },
        timeoutMs: 50_000,
        onStdout: (all, child) => {
          if (!interrupted && /"step_started"[^\n]*"step_number":1/.test(all) && /"step_started"[^\n]*"step_number":2/.test(all)) {
            interrupted = true;
            // Once both requests are out (the server got two).
            const wait = setInterval(() => { if (kit.server!.chatRequests().length >= 2) { clearInterval(wait); child.kill('SIGINT'); } }, 20);
          }
        },
      });
      assert.equal(r.code, 130, r.stderr);
      const steps = stepEvents(r);
      assert.ok(steps.includes('step_stopped:1') && steps.includes('step_stopped:2'), steps.join(' '));
      assert.equal(fs.existsSync(path.join(kit.ws, 'a.txt')), false);
      assert.equal(gitIn(kit.ws, 'worktree', 'list').trim().split('\n').length, 1);
      assert.deepEqual(stepFoldersLeft(kit.ws), [], 'no step folder is left');
    });
  });

  describe('tandem run --plan: a step in a worktree sees the workspace\'s ignored dependency folders, read-only (built CLI, scripted server)', function () {
    this.timeout(60_000);
    const kit = cliTestKit({
      prefix: 'tandem-graphdeps-',
      realpath: true,
      setup: (ws) => {
        commitFiles(ws, { '.gitignore': 'node_modules/\n', 'README.md': 'project\n' });
        // Installed dependencies: ignored, never committed (what `npm ci` leaves).
        fs.mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true });
        fs.writeFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'module.exports = 42;\n');
      },
    });
    let plans: string;
    before(() => { plans = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-graphdeps-plans-')); });
    after(() => fs.rmSync(plans, { recursive: true, force: true }));
    const depCheck = (f: string) => `node -e "process.exit(require('dep') === 42 ? 0 : 1)" && test -s ${f}`;

    async function runPlan(plan: unknown, lanes: Record<string, ScriptStep[]>): Promise<CliRun> {
      const file = path.join(plans, `${path.basename(kit.ws)}.json`);
      fs.writeFileSync(file, JSON.stringify(plan));
      kit.server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: lanes }, answerDelayMs: 100 });
      return runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history', '--parallel', '2'], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 50_000 });
    }

    it('two steps side by side whose checks need node_modules pass, and only their own files are applied back', async () => {
      const plan = graphPlan([{ files: ['a.txt'], depends_on: [], check: depCheck('a.txt') }, { files: ['b.txt'], depends_on: [], check: depCheck('b.txt') }]);
      const r = await runPlan(plan, {
        1: [call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote a.')],
        2: [call('write_file', { path: 'b.txt', content: 'b\n' }), text('Wrote b.')],
      });
      assert.equal(r.code, 0, r.stderr);
      const steps = stepEvents(r);
      assert.ok(steps.indexOf('step_started:2') < steps.indexOf('step_done:1'), `side by side: ${steps.join(' ')}`);
      const applies = jsonEvents(r).flatMap((e) => (e.type === 'card_added' && (e.card as any).tool === 'apply_step' ? [(e.card as any).args.files] : []));
      assert.deepEqual(applies.flat().sort(), ['a.txt', 'b.txt'], 'the linked folder is not a change of the step');
      assert.equal(fs.lstatSync(path.join(kit.ws, 'node_modules')).isDirectory(), true);
      assert.deepEqual(fs.readdirSync(path.join(kit.ws, 'node_modules', 'dep')), ['index.js']);
    });

    it('a step that writes into the linked folder never reaches the workspace\'s copy', async () => {
      const plan = graphPlan([
        { files: ['a.txt'], depends_on: [], check: depCheck('a.txt') },
        { files: ['b.txt', 'node_modules/dep/index.js'], depends_on: [], check: depCheck('b.txt') },
      ]);
      (plan.steps[1] as any).commands = ['echo "module.exports = 0;" > node_modules/dep/index.js'];
      const r = await runPlan(plan, {
        1: [call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote a.')],
        2: [
          call('run_command', { command: 'echo "module.exports = 0;" > node_modules/dep/index.js' }),
          call('write_file', { path: 'node_modules/dep/index.js', content: 'module.exports = 0;\n' }),
          call('write_file', { path: 'b.txt', content: 'b\n' }),
          text('Done.'),
        ],
      });
      assert.equal(fs.readFileSync(path.join(kit.ws, 'node_modules', 'dep', 'index.js'), 'utf8'), 'module.exports = 42;\n', r.stderr);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'a\n');
      assert.ok(stepEvents(r).includes('step_done:1'), stepEvents(r).join(' '));
      assert.ok(!stepEvents(r).includes('step_done:2'), `a step whose writes were refused is not done: ${stepEvents(r).join(' ')}`);
    });
  });

  describe('tandem run --plan: a step in a worktree cannot read the workspace\'s secret files (built CLI, scripted server)', function () {
    this.timeout(60_000);
    // Under /var/tmp: a workspace under /tmp is out of sight of every sandboxed command anyway (private /tmp).
    const kit = cliTestKit({
      prefix: 'tandem-graphsecrets-',
      outside: true,
      realpath: true,
      tmpRoot: '/var/tmp',
      setup: (ws) => {
        gitIn(ws, 'init', '-q');
        fs.writeFileSync(path.join(ws, '.gitignore'), '.env\n');
        fs.writeFileSync(path.join(ws, 'README.md'), 'project\n');
        gitIn(ws, 'add', '-A');
        gitIn(ws, 'commit', '-qm', 'init');
        fs.writeFileSync(path.join(ws, '.env'), 'WS-ENV-SECRET\n');
        fs.mkdirSync(path.join(ws, 'sub'), { recursive: true });
        fs.writeFileSync(path.join(ws, 'sub', '.env'), 'WS-SUB-SECRET\n');
      },
    });

    it("a step's commands cannot read the workspace's secret files through the rest of the system (the worktree is elsewhere)", async () => {
      const peek = `set +e; cat "${kit.ws}/.env" "${kit.ws}/sub/.env" 2>&1; cat "${kit.ws}/README.md"; echo "[end]"`;
      const plan = graphPlan([{ files: ['a.txt'], depends_on: [] }, { files: ['b.txt'], depends_on: [] }]);
      (plan.steps[0] as any).commands = [peek];
      const file = path.join(kit.out, 'plan.json');
      fs.writeFileSync(file, JSON.stringify(plan));
      kit.server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: {
        1: [call('run_command', { command: peek }), call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote a.')],
        2: [call('write_file', { path: 'b.txt', content: 'b\n' }), text('Wrote b.')],
      } }, answerDelayMs: 100 });
      const r = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history', '--parallel', '2'], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 50_000 });
      assert.equal(r.code, 0, r.stderr);
      const seen = kit.server!.chatRequests().flatMap((q) => (q.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool').map((m) => String(m.content)));
      const result = seen.find((c) => c.includes('[end]'));
      assert.ok(result, `the command ran: ${seen.join(' | ')}`);
      assert.match(result, /project\n\[end\]/, 'ordinary workspace files stay readable');
      assert.doesNotMatch(result, /SECRET/, result);
      // What the chat shows of the step's work names workspace paths, never the step's own folder elsewhere.
      const shown = jsonEvents(r).filter((e) => e.type === 'card_added' || e.type === 'card_patched').map((e) => JSON.stringify(e)).filter((j) => /\/dev\/shm|tandem-worktrees-|tandem-steps-|cow-[0-9a-f]/.test(j));
      assert.deepEqual(shown, [], 'no step folder on any card');
    });
  });
});
}

describe('tandem run --plan outside git: steps run one at a time and it says why (built CLI, scripted server)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-graphnogit-', realpath: true });
  let plans: string;
  before(() => { plans = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-graphnogit-plans-')); });
  after(() => fs.rmSync(plans, { recursive: true, force: true }));

  it('independent steps run one after the other in the workspace', async () => {
    const file = path.join(plans, `${path.basename(kit.ws)}.json`);
    fs.writeFileSync(file, JSON.stringify(diamondPlan()));
    kit.server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: diamondLanes() } });
    const r = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--parallel', '2'], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /Steps 1 and 2 could run at the same time, but run one at a time: the workspace is not in a git repository/);
    for (const f of ['a.txt', 'b.txt', 'c.txt']) assert.ok(fs.existsSync(path.join(kit.ws, f)), f);
  });
});
