/**
 * `tandem eval` through the built CLI against the scripted server: a model that makes each task's
 * reference change passes every task; one that answers nonsense passes none, and the report says
 * why per task; results are written per task and a second run resumes from them.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { waitUntil } from '../../support/wait';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer } from '../../support/scriptedServer';
import { nonsenseModel, referenceModel, referenceOf } from '../../support/evalModels';
import { TWO_TASKS, writeTask } from '../../support/evalFixtures';
import { EvalReport } from '../../../src/core/eval/evalReport';

describe('tandem eval (built CLI, scripted server)', function () {
  this.timeout(120_000);
  let cli: string;
  let tmp: string;
  let suite: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-evalcli-'));
    suite = path.join(tmp, 'suite');
    for (const t of TWO_TASKS) writeTask(suite, t);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const evalRun = async (respond: (b: any) => any, args: string[]) => {
    server = await ScriptedServer.start([], { respond });
    return runCliProcess(cli, ['eval', '--suite', suite, '--out', path.join(tmp, 'out'), ...args], {
      env: { TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', TANDEM_PRICES: '{"m-plan":{"input":1,"output":2},"m-act":{"input":0.5,"output":1}}' },
      timeoutMs: 110_000,
    });
  };
  const report = () => EvalReport.parse(JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'report.json'), 'utf8')));

  it('the reference model passes every task in the plan flow, with tokens and cost per role', async () => {
    const refs = TWO_TASKS.map((t) => referenceOf(path.join(suite, t.id)));
    const r = await evalRun(referenceModel(refs), ['--models', 'planner=m-plan,actor=m-act']);
    assert.equal(r.code, 0, r.stderr);
    const rep = report();
    assert.equal(rep.assignments.length, 1);
    assert.equal(rep.assignments[0]!.assignment, 'planner=m-plan,actor=m-act,reviewer=m-plan');
    assert.equal(rep.assignments[0]!.passed, 2, JSON.stringify(rep.results.map((x) => [x.task, x.reason, x.detail])));
    for (const res of rep.results) {
      assert.ok(res.byRole.planner!.requests >= 1 && res.byRole.actor!.requests >= 1 && res.byRole.reviewer!.requests === 1, JSON.stringify(res.byRole));
      assert.ok(res.costUsd! > 0);
      assert.deepEqual(res.verdicts, ['ok']);
    }
    assert.equal(rep.results.find((x) => x.task === 'js/greet-shout')!.steps!.total, 3);
    assert.match(r.stdout, /2\/2 passed \(100 %\)/);
    assert.match(r.stderr, /\[#+-*\] 1\/2 .*ETA/);
    assert.ok(fs.readFileSync(path.join(tmp, 'out', 'report.html'), 'utf8').includes('<svg'));
    assert.match(fs.readFileSync(path.join(tmp, 'out', 'report.md'), 'utf8'), /\| js\/sum-fix \| pass/);
  });

  it('a nonsense model passes none, and each task says why (no change)', async () => {
    const r = await evalRun(nonsenseModel(), ['--flow', 'act']);
    assert.equal(r.code, 0, r.stderr);
    const rep = report();
    assert.equal(rep.assignments[0]!.passed, 0);
    for (const res of rep.results) {
      assert.equal(res.passed, false);
      assert.equal(res.reason, 'no_change');
      assert.match(res.detail!, /changed no file; the check failed/);
    }
    assert.match(fs.readFileSync(path.join(tmp, 'out', 'report.md'), 'utf8'), /fail: no change/);
  });

  it('results are kept per task: a second run with the same --out runs only what is missing', async () => {
    const refs = TWO_TASKS.map((t) => referenceOf(path.join(suite, t.id)));
    const first = await evalRun(referenceModel(refs), ['--flow', 'act', '--tasks', 'js/sum-*']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(report().results.length, 1);
    await server!.close();
    const second = await evalRun(referenceModel(refs), ['--flow', 'act']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /1 of 2 already done/);
    const asked = server!.chatRequests().map((b) => JSON.stringify(b.messages));
    assert.ok(asked.length > 0 && asked.every((m) => m.includes('shout') && !m.includes('subtracts')), 'only the missing task ran');
    assert.deepEqual(report().results.map((x) => [x.task, x.passed]).sort(), [['js/greet-shout', true], ['js/sum-fix', true]]);
  });

  it('eval compare says task by task what changed, and exits 1 on a regression', async () => {
    const refs = TWO_TASKS.map((t) => referenceOf(path.join(suite, t.id)));
    const a = await evalRun(referenceModel(refs), ['--flow', 'act', '--out', path.join(tmp, 'a'), '--models', 'actor=m-act']);
    assert.equal(a.code, 0, a.stderr);
    await server!.close();
    const b = await evalRun(nonsenseModel(), ['--flow', 'act', '--out', path.join(tmp, 'b'), '--models', 'actor=m-act']);
    assert.equal(b.code, 0, b.stderr);
    const c = await runCliProcess(cli, ['eval', 'compare', path.join(tmp, 'a', 'report.json'), path.join(tmp, 'b', 'report.json')]);
    assert.equal(c.code, 1, c.stderr);
    assert.match(c.stdout, /actor=m-act,planner=m-act,reviewer=m-act|planner=m-act,actor=m-act,reviewer=m-act: 2\/2 \(100 %\) → 0\/2 \(0 %\)/);
    assert.match(c.stdout, /- js\/sum-fix: pass → fail: no change/);
    assert.match(c.stdout, /- js\/greet-shout: pass → fail: no change/);
    assert.match(c.stdout, /0 improved, 2 regressed/);
    const back = await runCliProcess(cli, ['eval', 'compare', path.join(tmp, 'b', 'report.json'), path.join(tmp, 'a', 'report.json')]);
    assert.equal(back.code, 0);
    assert.match(back.stdout, /\+ js\/sum-fix: fail: no change → pass/);
    const bad = await runCliProcess(cli, ['eval', 'compare', path.join(tmp, 'a', 'report.json'), path.join(suite, 'js', 'sum-fix', 'task.json')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /is not an eval report/);
  });

  it('counts what went wrong on the way: a failed tool call, a refused edit, an amendment, a replan', async () => {
    const planV = (n: number) => ({
      name: 'propose_plan',
      arguments: {
        format_version: '1.0', goal: `Fix add() (v${n})`, estimated_total_time: '1 min', risks: [], prerequisites: [],
        steps: [{ step_number: 1, action: 'Make add() in sum.js add', reason: 'the bug', tools_needed: ['read_file', 'write_file'], estimated_time: '1 min', files: ['sum.js'], commands: [], check: "node -e \"process.exit(require('./sum').add(2, 3) === 5 ? 0 : 1)\"" }],
      },
    });
    const stumbling = (body: any) => {
      const messages: any[] = body.messages ?? [];
      if (body.response_format?.json_schema?.name === 'tandem_review') return { type: 'json', value: { verdict: 'ok', reasons: ['fine'], concerns: [] } };
      const said = messages.filter((m) => m.role === 'user').map((m) => String(m.content)).join('\n');
      if (!said.includes('subtracts')) return { type: 'text', text: 'not this task' };
      const tools: string[] = (body.tools ?? []).map((t: any) => t.function?.name);
      const last = messages[messages.length - 1];
      if (tools.includes('propose_plan')) return last?.role === 'tool' ? { type: 'text', text: 'Proposed.' } : { type: 'tool_calls', calls: [planV(/Replan/.test(said) ? 2 : 1)] };
      /** Tool-calling answers since the Actor was asked to carry out plan v`n`. */
      const callsSince = (n: number) => {
        const from = messages.findIndex((m) => m.role === 'user' && String(m.content).startsWith(`Carry out approved plan v${n}`));
        return messages.slice(from).filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
      };
      if (!/Carry out approved plan v2/.test(said)) {
        // v1: a read that fails, an edit outside the copy (refused), a file outside the step (an amendment), and no fix.
        if (callsSince(1) === 0) return { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'missing.js' } }, { name: 'write_file', arguments: { path: '../outside.txt', content: 'x\n' } }, { name: 'write_file', arguments: { path: 'notes.txt', content: 'notes\n' } }] };
        return { type: 'text', text: 'Done, I think.' };
      }
      const calls = callsSince(2);
      if (calls === 0) return { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'sum.js' } }] };
      if (calls === 1) return { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'sum.js', content: 'exports.add = (a, b) => a + b;\n' } }] };
      return { type: 'text', text: 'Fixed.' };
    };
    const r = await evalRun(stumbling, ['--tasks', 'js/sum-fix']);
    assert.equal(r.code, 0, r.stderr);
    const [res] = report().results;
    assert.equal(res!.passed, true, `${res!.reason} ${res!.detail}`);
    assert.equal(res!.failedToolCalls, 1, JSON.stringify(res));
    assert.equal(res!.toolCalls, 7, 'two plans, three calls in v1, a read and a write in v2 (the checks are not the model\'s calls)');
    assert.equal(res!.refusedEdits, 1);
    assert.equal(res!.amendments, 1);
    assert.equal(res!.replans, 1);
    assert.deepEqual(res!.steps, { done: 1, total: 1 });
    assert.equal(res!.byRole.planner!.requests, 2, 'the Planner planned twice');
    assert.deepEqual(res!.changedFiles.sort(), ['notes.txt', 'sum.js']);
    assert.match(fs.readFileSync(path.join(tmp, 'out', 'report.md'), 'utf8'), /\| js\/sum-fix \| [^|]+ \| 7 \| 1 \| 1 \| 1 \| 1 \| ok \| 1\/1 \|/);
  });

  /** A Reviewer that says revise to the first `objections` plan versions it sees, then ok; a Planner and an Actor that fix add(). */
  const reviewedModel = (objections: number) => {
    let reviews = 0;
    return (body: any) => {
      const messages: any[] = body.messages ?? [];
      if (body.response_format?.json_schema?.name === 'tandem_review') {
        return ++reviews <= objections
          ? { type: 'json', value: { verdict: 'revise', reasons: ['Step 1 does not say how it proves add() adds.'], concerns: [{ step: 1, file: null, line: null, text: 'Check add(2, 3) === 5 after the write.' }] } }
          : { type: 'json', value: { verdict: 'ok', reasons: ['fine'], concerns: [] } };
      }
      const said = messages.filter((m) => m.role === 'user').map((m) => String(m.content)).join('\n');
      if (!said.includes('subtracts')) return { type: 'text', text: 'not this task' };
      const tools: string[] = (body.tools ?? []).map((t: any) => t.function?.name);
      const last = messages[messages.length - 1];
      if (tools.includes('propose_plan')) {
        if (last?.role === 'tool') return { type: 'text', text: 'Proposed.' };
        const v = said.match(/Revise plan v(\d+)/g)?.length ?? 0;
        return { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: {
          format_version: '1.0', goal: `Fix add() (v${v + 1})`, estimated_total_time: '1 min', risks: [], prerequisites: [],
          steps: [{ step_number: 1, action: 'Make add() in sum.js add', reason: 'the bug', tools_needed: ['read_file', 'write_file'], estimated_time: '1 min', files: ['sum.js'], commands: [], check: "node -e \"process.exit(require('./sum').add(2, 3) === 5 ? 0 : 1)\"" }],
        } }] };
      }
      // The Actor's tool-calling answers since it was asked to carry out the plan.
      const from = messages.findIndex((m) => m.role === 'user' && String(m.content).startsWith('Carry out approved plan'));
      const calls = messages.slice(from).filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
      if (calls === 0) return { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'sum.js' } }] };
      if (calls === 1) return { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'sum.js', content: 'exports.add = (a, b) => a + b;\n' } }] };
      return { type: 'text', text: 'Fixed.' };
    };
  };

  it("the Reviewer's objection goes back to the Planner as Revise, and the version it passes is the one executed", async () => {
    const r = await evalRun(reviewedModel(1), ['--tasks', 'js/sum-fix']);
    assert.equal(r.code, 0, r.stderr);
    const [res] = report().results;
    assert.equal(res!.passed, true, `${res!.reason} ${res!.detail}`);
    assert.deepEqual(res!.verdicts, ['revise', 'ok'], 'v1 objected to, v2 passed');
    assert.equal(res!.byRole.planner!.requests, 2, 'planned, then revised');
    // The Planner was told what the Reviewer said, as a user's Revise would tell it.
    const revise = server!.chatRequests().map((b) => (b.messages ?? []).map((m: any) => String(m.content)).join('\n')).find((t) => /Revise plan v1/.test(t));
    assert.ok(revise, 'a Revise request reached the Planner');
    assert.match(revise!, /Step 1 does not say how it proves add\(\) adds\./);
    assert.match(revise!, /step 1 .*Check add\(2, 3\) === 5 after the write\./);
    // The executed plan is the version the Reviewer passed.
    assert.ok(server!.chatRequests().some((b) => (b.messages ?? []).some((m: any) => /Carry out approved plan v2/.test(String(m.content)))));
    assert.ok(!server!.chatRequests().some((b) => (b.messages ?? []).some((m: any) => /Carry out approved plan v1/.test(String(m.content)))));
  });

  it('a plan the Reviewer still objects to is not executed: the task fails as plan rejected, saying why', async () => {
    const r = await evalRun(reviewedModel(99), ['--tasks', 'js/sum-fix']);
    assert.equal(r.code, 0, r.stderr);
    const [res] = report().results;
    assert.equal(res!.passed, false);
    assert.equal(res!.reason, 'plan_rejected');
    assert.match(res!.detail!, /^the Reviewer objected to plan v2 \(revise\): Step 1 does not say how it proves add\(\) adds\.; the plan was not executed$/);
    assert.deepEqual(res!.verdicts, ['revise', 'revise'], 'one revision (--replans 1), both versions objected to');
    assert.equal(res!.byRole.actor, undefined, 'the Actor was never asked');
    assert.deepEqual(res!.changedFiles, []);
    assert.match(r.stderr, /fail \(plan rejected: the Reviewer objected to plan v2/);
    assert.match(fs.readFileSync(path.join(tmp, 'out', 'report.md'), 'utf8'), /\| js\/sum-fix \| fail: plan rejected/);
  });

  it('a run stopped by a task limit fails as budget hit, saying which limit', async () => {
    writeTask(suite, { ...TWO_TASKS[0]!, id: 'js/limited', limits: { toolCalls: 2 } });
    const reader = () => ({ type: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] });
    const r = await evalRun(reader, ['--tasks', 'js/limited', '--flow', 'act']);
    assert.equal(r.code, 0, r.stderr);
    const [res] = report().results;
    assert.equal(res!.passed, false);
    assert.equal(res!.reason, 'budget_hit');
    assert.match(res!.detail!, /stopped at the limit of 2 tool calls per turn/);
    assert.match(r.stderr, /fail \(budget hit: stopped at the limit of 2 tool calls per turn\)/);
  });

  it('resumes after a kill: the results written before it are kept, and only the rest runs', async () => {
    const refs = TWO_TASKS.map((t) => referenceOf(path.join(suite, t.id)));
    // Each answer a little late, so the kill lands between the first result and the second.
    server = await ScriptedServer.start([], { respond: referenceModel(refs), answerDelayMs: 300 });
    const out = path.join(tmp, 'out');
    const env = { ...process.env, TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(tmp, 'data') };
    const child = spawn(process.execPath, [cli, 'eval', '--suite', suite, '--out', out, '--flow', 'act'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const results = path.join(out, 'results');
    const written = () => (fs.existsSync(results) ? fs.readdirSync(results, { recursive: true }).filter((f) => String(f).endsWith('.json')).length : 0);
    await waitUntil(() => written() >= 1, 'the first result file', 60_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    const kept = written();
    assert.ok(kept >= 1 && kept < 2, `${kept} results when it was killed`);
    const files = fs.readdirSync(results, { recursive: true }).map(String).join(' ');
    const [done, rest] = files.includes('greet-shout') ? ['shout', 'subtracts'] : ['subtracts', 'shout'];
    const asked = server.chatRequests().length;
    const again = await runCliProcess(cli, ['eval', '--suite', suite, '--out', out, '--flow', 'act'], { env: { TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 60_000 });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /1 of 2 already done/);
    const later = server.chatRequests().slice(asked).map((b) => JSON.stringify(b.messages));
    assert.ok(later.length > 0 && later.every((m) => m.includes(rest) && !m.includes(done)), 'only the task without a result ran again');
    assert.deepEqual(report().results.map((x) => x.passed), [true, true]);
  });
});
