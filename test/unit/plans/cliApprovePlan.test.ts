/**
 * `--approve plan` through the built CLI (child process, scripted server, no terminal): a plan's
 * in-scope edits and commands run unasked; an action outside the step's scope is an amendment
 * that no flag allows — the run stops with exit 3 and prints it. `--approve all` does not allow one either.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { buildCli, runCliProcess, type CliRun } from '../../support/cliRunner';
import { call, text } from '../../support/scriptSteps';

/** Step 1 may create notes.txt and run `wc`; its check greps the file. Step 2 may only run `cat notes.txt`. */
function scopedPlan() {
  return {
    format_version: '1.0',
    goal: 'Create notes.txt',
    steps: [
      { step_number: 1, action: 'Create notes.txt with the line hello', reason: 'notes', tools_needed: ['write_file', 'run_command'], estimated_time: '1m', files: ['notes.txt'], commands: ['wc'], check: 'grep -q hello notes.txt' },
      { step_number: 2, action: 'Show notes.txt', reason: 'see it', tools_needed: ['run_command'], estimated_time: '1m', files: [], commands: ['cat notes.txt'], check: 'test -s notes.txt' },
    ],
    estimated_total_time: '2m',
    risks: [],
    prerequisites: [],
  };
}

describe('tandem run --plan --approve plan (built CLI, scripted server)', function () {
  this.timeout(30_000);
  let cli: string;
  let server: ScriptedServer | undefined;
  let ws: string;
  let planFile: string;

  before(async () => { cli = await buildCli(); });
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-approveplan-'));
    planFile = path.join(os.tmpdir(), `${path.basename(ws)}-plan.json`);
    fs.writeFileSync(planFile, JSON.stringify(scopedPlan()));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(planFile, { force: true });
  });

  async function run(steps: ScriptStep[], approve: string): Promise<CliRun> {
    server = await ScriptedServer.start(steps);
    return runCliProcess(cli, ['run', '--workspace', ws, '--base-url', server.url, '--role', 'actor', '--plan', planFile, '--approve', approve, '--json', '--no-history'], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
  }
  const events = (r: CliRun) => r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l)));

  it('allows what each step declares without asking and exits 0 when every step is done', async () => {
    const r = await run([
      call('write_file', { path: 'notes.txt', content: 'hello\n' }),
      call('run_command', { command: 'wc -l notes.txt' }),
      text('Created.'),
      call('run_command', { command: 'cat notes.txt' }),
      text('It says hello.'),
    ], 'plan');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'hello\n');
    const ev = events(r);
    assert.deepEqual(ev.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`), ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2']);
    assert.equal(ev.filter((e) => e.type === 'amendment').length, 0);
  });

  for (const approve of ['plan', 'all']) {
    it(`--approve ${approve}: an edit outside the step's scope is refused as an amendment, the run stops with exit 3 and prints it`, async () => {
      const r = await run([
        call('write_file', { path: 'notes.txt', content: 'hello\n' }),
        call('write_file', { path: 'other.txt', content: 'not in the plan\n' }),
        text('should never be requested'),
      ], approve);
      assert.equal(r.code, 3, r.stderr);
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'hello\n', 'the in-scope edit ran');
      assert.equal(fs.existsSync(path.join(ws, 'other.txt')), false, 'the amendment did not');
      assert.equal(server!.chatRequests().length, 2, 'no request after the refused amendment');
      const amendment = events(r).find((e) => e.type === 'amendment');
      assert.ok(amendment && amendment.type === 'amendment');
      assert.equal(amendment.amendment.outcome, 'refused');
      assert.equal(amendment.amendment.text, 'Step 1 wants to create other.txt, which the plan did not name');
      assert.deepEqual(amendment.amendment.add, { files: ['other.txt'] });
      assert.match(r.stderr, /tandem: stopped on an amendment to plan v1: Step 1 wants to create other\.txt, which the plan did not name\./);
      assert.match(r.stderr, /add it to step 1 of the plan file \(files: other\.txt\)/);
      const failed = events(r).find((e) => e.type === 'step_failed');
      assert.ok(failed && failed.type === 'step_failed' && /amendment/.test(failed.reason ?? ''));
    });
  }

  it('the CI story: exit 3 on the amendment; the plan file widened as printed; the rerun ends with a failing check (exit 1)', async () => {
    const script = () => [
      call('write_file', { path: 'notes.txt', content: 'hello\n' }),
      call('write_file', { path: 'log.txt', content: 'wrote notes\n' }),
      text('Created.'),
      call('run_command', { command: 'cat notes.txt' }),
      text('Shown.'),
    ];
    const plan = scopedPlan();
    plan.steps[1]!.check = 'grep -q goodbye notes.txt';
    fs.writeFileSync(planFile, JSON.stringify(plan));
    const first = await run(script(), 'plan');
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stderr, /add it to step 1 of the plan file \(files: log\.txt\)/);
    await server!.close();
    server = undefined;
    // What a person does with the printed amendment: add it to the plan, and run again on a clean tree.
    plan.steps[0]!.files.push('log.txt');
    fs.rmSync(path.join(ws, 'notes.txt'), { force: true });
    fs.writeFileSync(planFile, JSON.stringify(plan));
    const second = await run(script(), 'plan');
    assert.equal(second.code, 1, second.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'log.txt'), 'utf8'), 'wrote notes\n');
    const ev = events(second);
    assert.equal(ev.filter((e) => e.type === 'amendment').length, 0);
    assert.deepEqual(ev.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`), ['step_started:1', 'step_done:1', 'step_started:2', 'step_failed:2']);
    assert.match(second.stderr, /step 2 failed: the check `grep -q goodbye notes\.txt` exited 1/);
  });

  it('a command outside the step\'s commands is an amendment too (exit 3), and nothing of it runs', async () => {
    const r = await run([
      call('write_file', { path: 'notes.txt', content: 'hello\n' }),
      call('run_command', { command: 'wc -l notes.txt; touch ran.txt' }),
      text('should never be requested'),
    ], 'plan');
    assert.equal(r.code, 3, r.stderr);
    assert.equal(fs.existsSync(path.join(ws, 'ran.txt')), false);
    assert.match(r.stderr, /Step 1 wants to run `wc -l notes\.txt; touch ran\.txt`, which the plan did not name/);
  });
});
