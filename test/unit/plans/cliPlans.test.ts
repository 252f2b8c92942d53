/**
 * The plan hand-off through the built CLI (child process) against the scripted server:
 * `tandem plan --out FILE`, then `tandem run --role actor --plan FILE --json`.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { type ScriptStep } from '../../support/scriptedServer';
import { type CliRun, cliTestKit, runCliProcess } from '../../support/cliRunner';
import { goodPlan, planWithUnknownTool } from './planFixtures';
import { text } from '../../support/scriptSteps';

const propose = (plan: unknown): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan as Record<string, unknown> }] });
const question = { question: 'Which file should I change?', context: null, severity: 'major', options: [{ label: 'notes.txt', value: 'notes', description: null }, { label: 'readme', value: 'readme', description: null }], default: 'notes', allow_custom: false };

/** A plan whose first step writes a file, so the Actor's run changes something visible. */
function writingPlan() {
  return goodPlan({
    goal: 'Create notes.txt',
    steps: [
      { step_number: 1, action: 'Create notes.txt containing the line hello', reason: 'the user wants notes', tools_needed: ['write_file'], estimated_time: '1 min', files: ['notes.txt'], check: 'grep -q hello notes.txt' },
      { step_number: 2, action: 'Read notes.txt back to check it', reason: 'verify', tools_needed: ['read_file'], estimated_time: '1 min', files: ['notes.txt'], check: 'test -s notes.txt' },
    ],
  });
}

describe('tandem plan / run --plan (built CLI, scripted server)', function () {
  this.timeout(30_000);
  const kit = cliTestKit({ prefix: 'tandem-cliplan-' });
  const out = () => path.join(kit.ws, 'plans', 'plan.json');
  const tandem = kit.run;
  const jsonEvents = (r: CliRun) => r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l)));

  it('tandem plan writes the validated plan with its provenance (exit 0)', async () => {
    const r = await tandem([propose(goodPlan())], ['plan', 'add a --verbose flag', '--out', out()]);
    assert.equal(r.code, 0, r.stderr);
    const file = JSON.parse(fs.readFileSync(out(), 'utf8'));
    assert.equal(file.format_version, '1.0');
    assert.equal(file.steps.length, 2);
    assert.equal(file.provenance.via, 'tool');
    assert.equal(file.provenance.model, 'gpt-4o-mini');
    assert.match(r.stderr, /plan v1 \(2 steps\) written to/);
    assert.equal(kit.server!.chatRequests()[0].messages[0].content.includes('Planner'), true);
  });

  it('tandem plan shows each step on stderr as a slow model writes it, then writes the validated plan', async () => {
    const slow: ScriptStep = { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: writingPlan() as Record<string, unknown> }], argChunkSize: 9, chunkDelayMs: 3 };
    const r = await tandem([slow], ['plan', 'create notes', '--out', out()]);
    assert.equal(r.code, 0, r.stderr);
    const drafted = r.stderr.split('\n').filter((l) => l.startsWith('… plan step'));
    assert.deepEqual(drafted, ['… plan step 1: Create notes.txt containing the line hello', '… plan step 2: Read notes.txt back to check it']);
    assert.equal(JSON.parse(fs.readFileSync(out(), 'utf8')).steps.length, 2);
  });

  it('tandem plan exits 1 with the errors and writes nothing when the plan never validates', async () => {
    const r = await tandem([propose(planWithUnknownTool()), propose(planWithUnknownTool()), propose(planWithUnknownTool()), text('never')], ['plan', 'add a flag', '--out', out()]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /this plan could not be validated \(after 2 repairs\)/);
    assert.match(r.stderr, /step 2: tools_needed names unknown tool 'sed'/);
    assert.equal(fs.existsSync(out()), false);
    assert.equal(kit.server!.chatRequests().length, 3);
  });

  it('tandem plan on an endpoint without structured outputs: 400 → extraction, logged (exit 0)', async () => {
    const r = await tandem([
      text('I would add the option in src/args.ts.'),
      { type: 'fault', fault: 'server_error', status: 400, message: 'response_format json_schema is not supported' },
      text('Here it is:\n```json\n' + JSON.stringify(goodPlan()) + '\n```'),
    ], ['plan', 'add a flag', '--out', out()], { TANDEM_LOG: 'info' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /using JSON extraction from text/);
    const reqs = kit.server!.chatRequests();
    assert.equal(reqs[1].response_format.type, 'json_schema');
    assert.equal(reqs[2].response_format, undefined);
    assert.equal(JSON.parse(fs.readFileSync(out(), 'utf8')).provenance.via, 'extraction');
  });

  it('run --role actor --plan FILE executes it step by step with step events in --json (exit 0)', async () => {
    fs.mkdirSync(path.dirname(out()), { recursive: true });
    fs.writeFileSync(out(), JSON.stringify(writingPlan()));
    const r = await tandem([
      { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      text('Created notes.txt.'),
      { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      text('It says hello.'),
    ], ['run', '--role', 'actor', '--plan', out(), '--approve', 'all', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'notes.txt'), 'utf8'), 'hello\n');
    const events = jsonEvents(r);
    const steps = events.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
    assert.deepEqual(steps, ['step_started:1', 'step_done:1', 'step_started:2', 'step_done:2']);
    const planCard = events.find((e) => e.type === 'card_added' && e.card.kind === 'plan');
    assert.ok(planCard && planCard.type === 'card_added' && planCard.card.kind === 'plan' && planCard.card.plan?.goal === 'Create notes.txt');
    assert.ok(events.some((e) => e.type === 'card_added' && e.card.kind === 'text' && /^Executing plan v1: Create notes\.txt/.test(e.card.text)));
    const reqs = kit.server!.chatRequests();
    assert.match(reqs[0].messages.at(-1).content, /Carry out approved plan v1[\s\S]*Do step 1 of 2/);
    assert.ok(!JSON.stringify(reqs[0].messages).includes('(execute the plan in'), 'the placeholder prompt never reaches the model');
  });

  it('a step whose command was refused is not reported done: step_unverified with why, exit 1 (never "Executed")', async () => {
    fs.mkdirSync(path.dirname(out()), { recursive: true });
    const plan = goodPlan({
      goal: 'Make build.txt',
      steps: [{ step_number: 1, action: 'Run make to create build.txt', reason: 'build', tools_needed: ['run_command'], estimated_time: '1 min', files: ['build.txt'], commands: ['touch build.txt'] }],
    });
    fs.writeFileSync(out(), JSON.stringify(plan));
    const r = await tandem([
      { type: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'touch build.txt' } }] },
      text('Done: build.txt is created.'),
    ], ['run', '--role', 'actor', '--plan', out(), '--approve', 'edits', '--json']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(fs.existsSync(path.join(kit.ws, 'build.txt')), false, 'the command never ran');
    const events = jsonEvents(r);
    const steps = events.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
    assert.deepEqual(steps, ['step_started:1', 'step_unverified:1']);
    const unverified = events.find((e) => e.type === 'step_unverified') as any;
    assert.match(unverified.reason, /run_command \(\$ touch build\.txt\) was rejected/);
    assert.match(r.stderr, /plan v1 is not done \(0 of 1 steps done with evidence\)[\s\S]*step 1 unverified: run_command/);
  });

  it('a step whose check exits non-zero ends failed and the run exits 1', async () => {
    fs.mkdirSync(path.dirname(out()), { recursive: true });
    const plan = writingPlan();
    plan.steps[0].check = 'grep -q goodbye notes.txt';
    fs.writeFileSync(out(), JSON.stringify(plan));
    const r = await tandem([
      { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      text('Created notes.txt.'),
      text('never requested: the run stops at the failed step'),
    ], ['run', '--role', 'actor', '--plan', out(), '--approve', 'all', '--json']);
    assert.equal(r.code, 1, r.stderr);
    const events = jsonEvents(r);
    const steps = events.filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
    assert.deepEqual(steps, ['step_started:1', 'step_failed:1']);
    assert.match((events.find((e) => e.type === 'step_failed') as any).reason, /the check `grep -q goodbye notes\.txt` exited 1/);
    assert.equal(kit.server!.chatRequests().length, 2);
  });

  it('a task started by run --role actor --plan FILE is titled from the plan in tandem history', async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cliplan-data-'));
    try {
      fs.mkdirSync(path.dirname(out()), { recursive: true });
      fs.writeFileSync(out(), JSON.stringify(writingPlan()));
      const r = await tandem([
        { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
        text('Created notes.txt.'),
        text('Checked.'),
      ], ['run', '--role', 'actor', '--plan', out(), '--approve', 'all'], { TANDEM_DATA_DIR: data });
      assert.equal(r.code, 0, r.stderr);
      const list = await runCliProcess(kit.cli, ['history', '--workspace', kit.ws, '--json'], { env: { TANDEM_DATA_DIR: data } });
      assert.equal(list.code, 0, list.stderr);
      const tasks = list.stdout.trim().split('\n').map((l) => JSON.parse(l) as { title: string });
      assert.deepEqual(tasks.map((t) => t.title), ['Execute plan: Create notes.txt']);
      const shown = await runCliProcess(kit.cli, ['history', '--workspace', kit.ws], { env: { TANDEM_DATA_DIR: data } });
      assert.match(shown.stdout, /Execute plan: Create notes\.txt/);
      assert.doesNotMatch(shown.stdout, /no request yet/);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });

  it('run --plan with an invalid plan file exits 1 and never calls the model', async () => {
    fs.mkdirSync(path.dirname(out()), { recursive: true });
    const bad = writingPlan();
    bad.steps[0].files = ['../../outside.txt'];
    fs.writeFileSync(out(), JSON.stringify(bad));
    const r = await tandem([text('never')], ['run', '--role', 'actor', '--plan', out()]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /not valid, so it was not executed/);
    assert.match(r.stderr, /step 1: file '\.\.\/\.\.\/outside\.txt' goes up with '\.\.' and is outside the workspace/);
    assert.equal(kit.server!.chatRequests().length, 0);
  });

  it('a question during planning: answered with --answer default', async () => {
    const r = await tandem([{ type: 'tool_calls', calls: [{ name: 'ask_question', arguments: question }] }, propose(goodPlan())], ['plan', 'change a file', '--out', out(), '--answer', 'default']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(kit.server!.chatRequests()[1].messages.at(-1).content, /The user chose: notes/);
    assert.ok(fs.existsSync(out()));
  });

  it('a question during planning without --answer: exit 3, the question printed, nothing written', async () => {
    const r = await tandem([{ type: 'tool_calls', calls: [{ name: 'ask_question', arguments: question }] }, propose(goodPlan())], ['plan', 'change a file', '--out', out()]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Which file should I change\?/);
    assert.match(r.stderr, /notes: notes\.txt \(default\)/);
    assert.equal(fs.existsSync(out()), false);
    assert.equal(kit.server!.chatRequests().length, 1);
  });
});
