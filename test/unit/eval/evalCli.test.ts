/**
 * `tandem eval` through the built CLI against the scripted server: a model that makes each task's
 * reference change passes every task; one that answers nonsense passes none, and the report says
 * why per task; results are written per task and a second run resumes from them.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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
});
