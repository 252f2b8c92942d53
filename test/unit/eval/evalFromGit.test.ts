/**
 * `tandem eval --from-git 3` on a generated repository: of its commits, the three latest that change
 * both code and tests become tasks (one that changes only code, one only docs, are passed over);
 * each task's copy is the commit's parent, its prompt the commit's message, its verifier the
 * commit's tests run by the repository's own `npm test`; the scripted model that makes each
 * commit's code change passes all three, and one that changes nothing passes none. Built CLI.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer } from '../../support/scriptedServer';
import { nonsenseModel, referenceModel, referenceOf } from '../../support/evalModels';
import { writeFiles } from '../../support/evalFixtures';
import { EvalReport } from '../../../src/core/eval/evalReport';

const test = (name: string, body: string) => `const test = require('node:test');\nconst assert = require('node:assert');\nconst lib = require('../lib');\ntest('${name}', () => { ${body} });\n`;

/** A small library with a history: 3 commits with code and tests, 1 code only, 1 docs only. */
function makeRepository(dir: string): string[] {
  const g = (...a: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...a], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const commit = (files: Record<string, string>, message: string) => {
    writeFiles(dir, files);
    g('add', '-A');
    g('commit', '-qm', message);
    return g('rev-parse', 'HEAD').trim();
  };
  g('init', '-q');
  commit({
    'package.json': JSON.stringify({ name: 'lib', version: '1.0.0', scripts: { test: 'node --test test/' } }),
    'lib/index.js': "module.exports = { ...require('./math') };\n",
    'lib/math.js': 'exports.double = (x) => x * 2;\n',
    'test/math.test.js': test('double', 'assert.equal(lib.double(2), 4);'),
    'README.md': '# lib\n',
  }, 'Start the library');
  const shas = [
    commit({ 'lib/math.js': 'exports.double = (x) => x * 2;\nexports.square = (x) => x * x;\n', 'test/square.test.js': test('square', 'assert.equal(lib.square(3), 9);') }, 'Add square(x), which returns x times x'),
    commit({ 'README.md': '# lib\n\nDoubles and squares.\n' }, 'Say what the library does'),
    commit({ 'lib/text.js': "exports.shout = (s) => s.toUpperCase() + '!';\n", 'lib/index.js': "module.exports = { ...require('./math'), ...require('./text') };\n", 'test/text.test.js': test('shout', "assert.equal(lib.shout('hi'), 'HI!');") }, 'Add shout(s): the text in capitals with an exclamation mark\n\nExported from the package like the math helpers.'),
    commit({ 'lib/math.js': 'exports.double = (x) => x * 2;\nexports.square = (x) => x * x;\nexports.cube = (x) => x * x * x;\n' }, 'Add cube (no test yet)'),
    commit({ 'lib/math.js': "exports.double = (x) => { if (typeof x !== 'number') throw new TypeError('double needs a number'); return x * 2; };\nexports.square = (x) => x * x;\nexports.cube = (x) => x * x * x;\n", 'test/math.test.js': test('double', "assert.equal(lib.double(2), 4); assert.throws(() => lib.double('2'), TypeError);") }, 'double() throws a TypeError when given something other than a number'),
  ];
  return [shas[4]!, shas[2]!, shas[0]!];
}

describe('tandem eval --from-git (built CLI, scripted server)', function () {
  this.timeout(120_000);
  let cli: string;
  let tmp: string;
  let repo: string;
  let expected: string[];
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-evalgit-'));
    repo = path.join(tmp, 'repo');
    fs.mkdirSync(repo);
    expected = makeRepository(repo);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const out = () => path.join(tmp, 'out');
  const tasksMade = () => {
    const dir = path.join(out(), 'from-git');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((d) => path.join(dir, d)) : [];
  };
  const evalFromGit = async (respond: (b: any) => any, flow: string) => {
    server = await ScriptedServer.start([], { respond });
    return runCliProcess(cli, ['eval', '--from-git', '3', '--flow', flow, '--out', out()], {
      cwd: repo,
      env: { TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' },
      timeoutMs: 110_000,
    });
  };

  it('builds three tasks from the commits that change code and tests, and the reference model passes them', async () => {
    const r = await evalFromGit(referenceModel(() => tasksMade().map(referenceOf)), 'plan');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /3 tasks from .*'s history/);
    const dirs = tasksMade();
    assert.deepEqual(dirs.map((d) => path.basename(d)), expected.map((sha, i) => `0${i + 1}-${sha.slice(0, 10)}`));
    const specs = dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'task.json'), 'utf8')));
    assert.equal(specs[0].prompt, 'double() throws a TypeError when given something other than a number');
    assert.equal(specs[1].prompt, 'Add shout(s): the text in capitals with an exclamation mark\n\nExported from the package like the math helpers.');
    assert.equal(specs[0].verify.command, 'npm test --silent');
    assert.deepEqual(fs.readdirSync(path.join(dirs[1]!, 'verify', 'test')), ['text.test.js']);
    assert.deepEqual(fs.readdirSync(path.join(dirs[1]!, 'reference', 'lib')).sort(), ['index.js', 'text.js']);
    const report = EvalReport.parse(JSON.parse(fs.readFileSync(path.join(out(), 'report.json'), 'utf8')));
    assert.deepEqual(report.results.map((x) => [x.task, x.passed, x.reason ?? '']).sort(), dirs.map((d) => [path.basename(d), true, '']));
    // The agent started from the parent: the commit's new test file was not in its copy (the model read only code).
    const asked = JSON.stringify(server!.chatRequests().map((b) => b.messages));
    assert.ok(!asked.includes("lib.shout('hi')"), "the commit's test reached the agent");
  });

  it('a model that changes nothing passes none of them: the commit\'s tests fail on the parent\'s code', async () => {
    const r = await evalFromGit(nonsenseModel(), 'act');
    assert.equal(r.code, 0, r.stderr);
    const report = EvalReport.parse(JSON.parse(fs.readFileSync(path.join(out(), 'report.json'), 'utf8')));
    assert.equal(report.results.length, 3);
    for (const res of report.results) {
      assert.equal(res.passed, false);
      assert.equal(res.reason, 'no_change');
      assert.match(res.detail!, /verifier exited 1/);
    }
  });
});
