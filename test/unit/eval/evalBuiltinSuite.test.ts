/**
 * The built-in suite (eval-suite/) through the built CLI with no --suite: every task validates,
 * documents where it comes from (project, commit, licence; the licence kept), and its verifier
 * decides — a scripted model that makes each task's reference change passes 100 % in the plan flow,
 * and one that answers nonsense passes 0 %, each task saying why.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer } from '../../support/scriptedServer';
import { nonsenseModel, referenceModel, referenceOf } from '../../support/evalModels';
import { EvalReport } from '../../../src/core/eval/evalReport';
import { findTaskFolders, loadTask } from '../../../src/host/node/eval/evalTasks';

const SUITE = path.resolve('eval-suite');

describe('the built-in eval suite (built CLI, scripted server)', function () {
  this.timeout(600_000);
  let cli: string;
  let tmp: string;
  let server: ScriptedServer | undefined;
  const dirs = findTaskFolders(SUITE);
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-evalsuite-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('has about 20 tasks in JavaScript, TypeScript and Python, each documented with its project, commit and licence', () => {
    assert.ok(dirs.length >= 20, `${dirs.length} tasks`);
    const readme = fs.readFileSync(path.join(SUITE, 'README.md'), 'utf8');
    const languages = new Set<string>();
    for (const dir of dirs) {
      const t = loadTask(dir, path.relative(SUITE, dir));
      assert.ok(!('error' in t), 'error' in t ? t.error : '');
      if ('error' in t) continue;
      const s = t.spec.source!;
      assert.ok(s && s.commit && /^[0-9a-f]{40}$/.test(s.commit) && s.license && s.url, `${t.id}: source`);
      assert.ok(readme.includes(`\`${t.id}\``) && readme.includes(s.commit), `${t.id} is in the README`);
      assert.ok(fs.existsSync(path.join(SUITE, 'licenses', `${s.project}-LICENSE`)), `${s.project}'s licence is kept`);
      assert.ok(fs.existsSync(path.join(dir, 'repo', 'LICENSE')), `${t.id}: the snapshot keeps the project's LICENSE`);
      languages.add(t.spec.language!);
    }
    assert.deepEqual([...languages].sort(), ['javascript', 'python', 'typescript']);
    // TypeScript tasks: at least three, each verified by its commit's own .ts tests through the compiler the runner offers.
    const ts = dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'task.json'), 'utf8'))).filter((t) => t.language === 'typescript');
    assert.ok(ts.length >= 3, `${ts.length} TypeScript tasks`);
    for (const t of ts) assert.equal(t.verify.typescript, true, t.source.url);
    // Plan-worthy tasks: the commit changed several code files, and each is tagged so.
    const planWorthy = dirs.filter((d) => Object.keys(referenceOf(d).files).length >= 2);
    assert.ok(planWorthy.length >= 3, `${planWorthy.length} tasks change several files`);
    for (const d of planWorthy) assert.ok(JSON.parse(fs.readFileSync(path.join(d, 'task.json'), 'utf8')).tags.includes('plan-worthy'), d);
  });

  const evalSuite = async (respond: (b: any) => any, args: string[]) => {
    server = await ScriptedServer.start([], { respond });
    return runCliProcess(cli, ['eval', '--out', path.join(tmp, 'out'), '--jobs', '3', ...args], {
      cwd: tmp,
      env: { TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' },
      timeoutMs: 590_000,
    });
  };
  const report = () => EvalReport.parse(JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'report.json'), 'utf8')));

  it('the reference model passes every task (plan flow)', async () => {
    const r = await evalSuite(referenceModel(dirs.map(referenceOf)), []);
    assert.equal(r.code, 0, r.stderr);
    const rep = report();
    assert.equal(rep.results.length, dirs.length);
    const failed = rep.results.filter((x) => !x.passed).map((x) => `${x.task}: ${x.reason} ${x.detail}`);
    assert.deepEqual(failed, []);
    assert.match(r.stdout, new RegExp(`${dirs.length}/${dirs.length} passed \\(100 %\\)`));
  });

  it('without a TypeScript compiler a TypeScript task stops before the agent starts, saying why', async () => {
    const empty = fs.mkdtempSync(path.join(tmp, 'no-esbuild-'));
    server = await ScriptedServer.start([], { respond: referenceModel(dirs.map(referenceOf)) });
    const r = await runCliProcess(cli, ['eval', '--out', path.join(tmp, 'out'), '--tasks', 'ts/*', '--flow', 'act'], {
      cwd: tmp,
      env: { TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', TANDEM_EVAL_ESBUILD: empty },
      timeoutMs: 120_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const rep = report();
    assert.ok(rep.results.length >= 3);
    for (const x of rep.results) {
      assert.equal(x.passed, false, x.task);
      assert.equal(x.reason, 'setup_failed', x.task);
      assert.match(x.detail!, /compiles TypeScript, and TANDEM_EVAL_ESBUILD=.* holds no esbuild package/, x.task);
      assert.equal(x.modelRequests, 0, `${x.task}: no model was asked`);
    }
    assert.equal(server.chatRequests().length, 0);
  });

  it('a nonsense model passes none, and each task says why', async () => {
    const r = await evalSuite(nonsenseModel(), ['--flow', 'act']);
    assert.equal(r.code, 0, r.stderr);
    const rep = report();
    assert.equal(rep.results.length, dirs.length);
    for (const x of rep.results) {
      assert.equal(x.passed, false, x.task);
      assert.equal(x.reason, 'no_change', x.task);
      assert.match(x.detail!, /the agent changed no file; the check failed:\nverifier exited 1/, x.task);
    }
    assert.match(r.stdout, /0\/\d+ passed \(0 %\)/);
  });
});
