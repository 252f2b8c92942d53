/**
 * `tandem eval` against a real llama-server running the tiny hand-weighted model (it calls a tool,
 * then says "OK": no model that can do a task). Two tasks of the built-in suite run end to end
 * through the built CLI in the plan flow: none passes, each says why, and the report is written
 * (JSON, Markdown, HTML) without an error.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess } from '../support/cliRunner';
import { TINY_MODEL } from './support/llamaAgent';
import { requireLlamaServer, startLlamaServer, type RunningLlamaServer } from './support/llamaServer';
import { EvalReport, FAILURE_REASONS } from '../../src/core/eval/evalReport';

describe('tandem eval against a real llama-server', function () {
  this.timeout(900_000);
  let server: RunningLlamaServer | undefined;
  let cli: string;
  let tmp: string;

  before(async () => {
    await requireLlamaServer();
    cli = await buildCli();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-llama-eval-'));
  });
  after(async function () {
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('runs two built-in tasks end to end, passes none, and writes the report', async function () {
    server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: true });
    const out = path.join(tmp, 'out');
    const r = await runCliProcess(cli, ['eval', '--tasks', 'js/bytes-add-option-unit', '--tasks', 'py/tomli-tomli-loads-*', '--models', `planner=${TINY_MODEL},actor=${TINY_MODEL}`, '--base-url', server.baseURL, '--out', out], {
      cwd: tmp,
      env: { TANDEM_API_KEY: 'sk-no-key-needed' },
      timeoutMs: 880_000,
    });
    if (r.code !== 0) console.error(`--- llama-server log (tail) ---\n${server.log().slice(-3000)}`);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/);
    const report = EvalReport.parse(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')));
    assert.deepEqual(report.results.map((x) => x.task).sort(), ['js/bytes-add-option-unit', 'py/tomli-tomli-loads-raise-typeerror-not']);
    for (const x of report.results) {
      assert.equal(x.passed, false, x.task);
      assert.ok(x.reason && (FAILURE_REASONS as readonly string[]).includes(x.reason) && x.detail, `${x.task}: ${x.reason}`);
      // The model cannot change code: whatever it did, the task changed nothing — no valid plan, steps
      // that changed nothing, or a plan the Reviewer gave no valid verdict on (not executed, as in the chat).
      assert.ok(x.reason === 'no_change' || (x.reason === 'plan_rejected' && /^the Reviewer (gave no valid verdict|objected)/.test(x.detail!)), `${x.task}: ${x.reason} ${x.detail}`);
      assert.deepEqual(x.changedFiles, [], x.task);
      assert.ok(x.modelRequests >= 1 && x.tokensIn > 0, `${x.task}: the server was asked (${x.modelRequests} requests)`);
    }
    assert.equal(report.assignments[0]!.passed, 0);
    assert.ok(server.chatRequests() >= 2);
    assert.match(fs.readFileSync(path.join(out, 'report.md'), 'utf8'), /\| py\/tomli-tomli-loads-raise-typeerror-not \| fail: /);
    assert.ok(fs.readFileSync(path.join(out, 'report.html'), 'utf8').includes('<svg'));
    assert.match(r.stdout, /0\/2 passed \(0 %\)/);
  });
});
