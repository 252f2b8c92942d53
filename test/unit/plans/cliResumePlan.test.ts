/**
 * Resuming a plan task on the command line (built CLI, scripted server, history kept in a folder of
 * the test's own): after an amendment stopped the run (exit 3) and the plan file was widened,
 * `--resume ID --plan FILE` continues at the first step not done, as a new version, without redoing
 * a done step; a plain message to such a task never exits 0 while a step is not done; and a run
 * killed mid-step resumes the same way.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { commitFiles, gitIn } from '../../support/gitRepo';
import { cliTestKit, runCliProcess, type CliRun } from '../../support/cliRunner';
import { ScriptedServer, planStepOf } from '../../support/scriptedServer';
import { call, text } from '../../support/scriptSteps';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';

/** Step 1 appends a line to log.txt (not idempotent: run twice, the line is there twice); step 2 creates notes.txt. */
function plan() {
  return {
    format_version: '1.0',
    goal: 'Log and notes',
    steps: [
      { step_number: 1, action: 'Append the line one to log.txt', reason: 'log', tools_needed: ['run_command'], estimated_time: '1m', files: ['log.txt'], commands: ['echo one >> log.txt'], check: 'grep -q one log.txt' },
      { step_number: 2, action: 'Create notes.txt with the line hello', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: ['notes.txt'], commands: [], check: 'grep -q hello notes.txt' },
    ],
    estimated_total_time: '2m',
    risks: [],
    prerequisites: [],
  };
}

const stepOne = () => [call('run_command', { command: 'echo one >> log.txt' }), text('Appended.')];

describe('tandem run --resume ID on a plan task (built CLI, scripted server)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-resumeplan-' });
  let dataDir: string;
  let planFile: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-resumeplan-data-'));
    planFile = path.join(dataDir, 'plan.json');
    fs.writeFileSync(planFile, JSON.stringify(plan()));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const env = () => ({ TANDEM_DATA_DIR: dataDir });
  const events = (r: CliRun) => r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => HostEvent.parse(JSON.parse(l)));
  const steps = (r: CliRun) => events(r).filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
  const taskId = (r: CliRun) => /tandem run --resume (\S+)/.exec(r.stderr)?.[1] ?? assert.fail(`no task id in:\n${r.stderr}`);
  const log = () => fs.readFileSync(path.join(kit.ws, 'log.txt'), 'utf8');

  /** Run 1: step 1 done, step 2 writes a file its scope does not name: exit 3 on the amendment. */
  async function stopOnAmendment(): Promise<string> {
    const first = await kit.run([
      ...stepOne(),
      call('write_file', { path: 'notes.txt', content: 'hello\n' }),
      call('write_file', { path: 'extra.txt', content: 'x\n' }),
      text('never requested'),
    ], ['run', '--role', 'actor', '--plan', planFile, '--approve', 'plan'], env());
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stderr, /add it to step 2 of the plan file \(files: extra\.txt\)/);
    assert.equal(log(), 'one\n');
    return taskId(first);
  }

  it('amendment → widen the plan file → --resume ID --plan FILE continues at step 2 as a new version; the done step is not applied twice', async () => {
    const id = await stopOnAmendment();
    const widened = plan();
    widened.steps[1]!.files.push('extra.txt');
    fs.writeFileSync(planFile, JSON.stringify(widened));
    const second = await kit.run([
      call('write_file', { path: 'extra.txt', content: 'x\n' }),
      text('Created.'),
    ], ['run', '--resume', id, '--plan', planFile, '--approve', 'plan', '--json'], env());
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(steps(second), ['step_started:2', 'step_done:2']);
    assert.equal(log(), 'one\n', 'step 1 ran once');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'extra.txt'), 'utf8'), 'x\n');
    const version = events(second).find((e) => e.type === 'plan_version') as Extract<HostEvent, { type: 'plan_version' }>;
    assert.equal(version.version, 2, 'the widened file is a new version of the task\'s plan');
    // The Actor of the resumed run is asked for step 2, never step 1.
    const briefs = kit.server!.chatRequests().map((b) => JSON.stringify(b.messages.at(-1)));
    assert.ok(briefs.every((m) => !/Step 1\b/.test(m) || /Step 2\b/.test(m)), briefs.join('\n'));
  });

  it('"Continue" without the plan exits non-zero while a step is not done, and says which', async () => {
    const id = await stopOnAmendment();
    const r = await kit.run([text('Continuing.')], ['run', '--resume', id, '--approve', 'plan', 'Continue'], env());
    assert.notEqual(r.code, 0, r.stderr);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /step 2 .*not done|not done[\s\S]*step 2/);
    assert.match(r.stderr, /--resume \S+ --plan/);
  });

  it('a run killed (SIGKILL) mid-step resumes: the done step stays done, the interrupted one runs again', async () => {
    const server = await ScriptedServer.start([...stepOne(), { ...text('never answered'), firstChunkDelayMs: 60_000 }]);
    try {
      const killed = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', server.url, '--role', 'actor', '--plan', planFile, '--approve', 'plan', '--json'], {
        env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', ...env() },
        onStdout: (all, child) => {
          if (/"type":"step_started"[^\n]*"step_number":2/.test(all) && child.exitCode === null) child.kill('SIGKILL');
        },
      });
      assert.equal(killed.code, null, `killed by the signal: ${killed.stderr}`);
    } finally {
      await server.close();
    }
    const list = await runCliProcess(kit.cli, ['history', '--workspace', kit.ws, '--json'], { env: env() });
    // One JSON line per saved task.
    const id = (JSON.parse(list.stdout.split('\n')[0] || '{}') as { id?: string }).id ?? assert.fail(`no saved task: ${list.stdout} ${list.stderr}`);
    const resumed = await kit.run([
      call('write_file', { path: 'notes.txt', content: 'hello\n' }),
      text('Created.'),
    ], ['run', '--resume', id, '--plan', planFile, '--approve', 'plan', '--json'], env());
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(steps(resumed), ['step_started:2', 'step_done:2']);
    assert.equal(log(), 'one\n');
  });
});


/**
 * A branching plan: step 1 (ready at once) writes a.txt, step 2 needs step 1, step 3 (ready at once,
 * numbered after the first unfinished step) appends a line to log.txt: not idempotent.
 */
function branchingPlan() {
  return {
    format_version: '1.0',
    goal: 'Notes and a log',
    steps: [
      { step_number: 1, action: 'Write a.txt', reason: 'a', tools_needed: ['write_file'], estimated_time: '1m', files: ['a.txt'], commands: [], check: 'test -s a.txt', depends_on: [] },
      { step_number: 2, action: 'Write c.txt', reason: 'c', tools_needed: ['write_file'], estimated_time: '1m', files: ['c.txt'], commands: [], check: 'test -s c.txt', depends_on: [1] },
      { step_number: 3, action: 'Append the line three to log.txt', reason: 'log', tools_needed: ['run_command'], estimated_time: '1m', files: ['log.txt'], commands: ['echo three >> log.txt'], check: 'grep -q three log.txt', depends_on: [] },
    ],
    estimated_total_time: '3m',
    risks: [],
    prerequisites: [],
  };
}

// Runs on both kinds of step workspace: the copy-on-write view and the worktree it falls back to.
for (const kind of STEP_WORKSPACE_KINDS) {
describe(`on ${kind.name}`, function () {
  useStepWorkspaceKind(kind);

  describe('tandem run --resume ID --plan FILE on a branching plan (built CLI, scripted server, git workspace)', function () {
    this.timeout(90_000);
    const kit = cliTestKit({
      prefix: 'tandem-resumegraph-',
      realpath: true,
      setup: (ws) => void commitFiles(ws, { 'README.md': 'project\n' }),
    });
    let dataDir: string;
    let planFile: string;
    beforeEach(() => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-resumegraph-data-'));
      planFile = path.join(dataDir, 'plan.json');
      fs.writeFileSync(planFile, JSON.stringify(branchingPlan()));
    });
    afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = () => ({ TANDEM_DATA_DIR: dataDir });
    const stepEvents = (r: CliRun) => r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => HostEvent.parse(JSON.parse(l)))
      .filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);

    it('killed after a later-numbered branch finished: the resumed run never asks that step again and its change is applied once', async () => {
      // Run 1, two steps side by side: step 3 appends its line and ends done; step 1's answer never comes.
      const server = await ScriptedServer.start([], {
        lanes: {
          keyOf: planStepOf,
          steps: {
            1: [{ ...text('never answered'), firstChunkDelayMs: 60_000 }],
            3: [call('run_command', { command: 'echo three >> log.txt' }), text('Appended.')],
          },
        },
      });
      try {
        const killed = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', server.url, '--role', 'actor', '--plan', planFile, '--approve', 'plan', '--json', '--parallel', '2'], {
          env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', ...env() },
          timeoutMs: 50_000,
          onStdout: (all, child) => {
            if (/"type":"step_done"[^\n]*"step_number":3/.test(all) && child.exitCode === null) child.kill('SIGKILL');
          },
        });
        assert.equal(killed.code, null, `killed by the signal: ${killed.stderr}`);
      } finally {
        await server.close();
      }
      assert.equal(fs.readFileSync(path.join(kit.ws, 'log.txt'), 'utf8'), 'three\n', 'step 3 was applied before the kill');
      const list = await runCliProcess(kit.cli, ['history', '--workspace', kit.ws, '--json'], { env: env() });
      const id = (JSON.parse(list.stdout.split('\n')[0] || '{}') as { id?: string }).id ?? assert.fail(`no saved task: ${list.stdout} ${list.stderr}`);

      // Run 2: only steps 1 and 2 have answers; step 3's Actor must never be asked.
      kit.server = await ScriptedServer.start([], {
        lanes: {
          keyOf: planStepOf,
          steps: {
            1: [call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote a.')],
            2: [call('write_file', { path: 'c.txt', content: 'c\n' }), text('Wrote c.')],
          },
        },
      });
      const resumed = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--resume', id, '--plan', planFile, '--approve', 'plan', '--json', '--parallel', '2'], {
        env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', ...env() }, timeoutMs: 50_000,
      });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /keeps step 3 as done in v1/);
      const steps = stepEvents(resumed);
      assert.deepEqual(steps.filter((s) => s.endsWith(':3')), [], steps.join(' '));
      assert.ok(steps.includes('step_done:1') && steps.includes('step_done:2'), steps.join(' '));
      assert.equal(kit.server.chatRequests().filter((b) => planStepOf(b) === '3').length, 0, "step 3's Actor was asked again");
      assert.equal(fs.readFileSync(path.join(kit.ws, 'log.txt'), 'utf8'), 'three\n', "step 3's line is there once");
      assert.equal(fs.readFileSync(path.join(kit.ws, 'c.txt'), 'utf8'), 'c\n');
      assert.equal(gitIn(kit.ws, 'worktree', 'list').trim().split('\n').length, 1, 'the killed run\'s worktree is gone');
    });
  });
});
}
