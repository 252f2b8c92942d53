/**
 * The verifier and the reference change never reach the agent. A model that goes looking for them
 * — the task folder's files by absolute and relative path with the file tools, `cat`, `ls` and
 * `find` in its commands, the source repository's history with git — finds nothing, and no request
 * the scripted server received holds the verifier's command, its test file or the reference. The
 * suite and the results live outside /tmp here, so what hides them is the sandbox's hidden folders,
 * not its private /tmp. Through the built CLI.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer } from '../../support/scriptedServer';
import { writeFiles, writeTask } from '../../support/evalFixtures';
import { EvalReport } from '../../../src/core/eval/evalReport';

const VERIFY_FILE = 'VERIFY-FILE-7f3a';
const VERIFY_CMD = 'VERIFY-CMD-91cc';
const REFERENCE = 'REFERENCE-44d2';
const FUTURE = 'FUTURE-COMMIT-b0e1';

describe('tandem eval: the verifier and the reference never reach the agent', function () {
  this.timeout(120_000);
  let cli: string;
  let root: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    // Under the repository's out/ (compiled output, ignored by git): a folder the sandbox's private /tmp does not cover.
    fs.mkdirSync(path.resolve('out'), { recursive: true });
    root = fs.mkdtempSync(path.resolve('out', 'eval-isolation-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('finds nothing with its tools and commands, and no request holds them', async () => {
    const suite = path.join(root, 'suite');
    const snapshot = writeTask(suite, {
      id: 'snap',
      prompt: 'Fix add() in sum.js.',
      repo: { 'sum.js': 'exports.add = (a, b) => a - b;\n' },
      verify: { 'test/sum.test.js': `// ${VERIFY_FILE}\nrequire('node:test')('adds', () => require('node:assert').equal(require('../sum').add(2, 3), 5));\n` },
      reference: { 'sum.js': `exports.add = (a, b) => a + b; // ${REFERENCE}\n` },
      verifyCommand: `node --test test/ && echo ${VERIFY_CMD} >/dev/null`,
    });
    // A task from a git ref: the source repository's later commit holds the answer.
    const source = path.join(root, 'source');
    writeFiles(source, { 'sum.js': 'exports.add = (a, b) => a - b;\n' });
    const g = (...a: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...a], { cwd: source, encoding: 'utf8' });
    g('init', '-q'); g('add', '-A'); g('commit', '-qm', 'start');
    const start = g('rev-parse', 'HEAD').stdout.trim();
    writeFiles(source, { 'sum.js': `exports.add = (a, b) => a + b; // ${FUTURE}\n` });
    g('commit', '-qam', `the fix ${FUTURE}`);
    const gitTask = path.join(suite, 'gitref');
    writeFiles(gitTask, { 'verify/test/sum.test.js': `// ${VERIFY_FILE}\nrequire('node:test')('adds', () => require('node:assert').equal(require('../sum').add(2, 3), 5));\n`, 'reference/sum.js': `// ${REFERENCE}\n` });
    fs.writeFileSync(path.join(gitTask, 'task.json'), JSON.stringify({ format: 'tandem-eval-task/1', prompt: 'Fix add() in sum.js.', repo: { git: source, ref: start }, verify: { command: `node --test test/ && echo ${VERIFY_CMD}`, files: 'verify' }, reference: 'reference' }));

    const looks = (taskDir: string) => [
      { name: 'read_file', arguments: { path: path.join(taskDir, 'verify', 'test', 'sum.test.js') } },
      { name: 'read_file', arguments: { path: path.join(taskDir, 'task.json') } },
      { name: 'read_file', arguments: { path: path.relative(root, path.join(taskDir, 'reference', 'sum.js')) } },
      { name: 'list_files', arguments: { path: '..' } },
      { name: 'run_command', arguments: { command: `cat ${taskDir}/task.json ${taskDir}/verify/test/sum.test.js ${taskDir}/reference/sum.js; ls -la ${taskDir} ${suite} ${root}; true` } },
      { name: 'run_command', arguments: { command: `find ${path.dirname(root)} -maxdepth 4 \\( -name task.json -o -name sum.test.js \\) 2>&1 | head -50; true` } },
      { name: 'run_command', arguments: { command: `git log --all --format=%s; git -C ${source} log --all --format=%s; cat ${source}/sum.js; ls ${path.join(root, 'out')}; true` } },
    ];
    const toolResults: string[] = [];
    server = await ScriptedServer.start([], {
      respond: (body) => {
        const msgs: any[] = body.messages ?? [];
        for (const m of msgs) if (m.role === 'tool') toolResults.push(String(m.content));
        if (msgs.some((m) => m.role === 'tool')) return { type: 'text', text: 'I looked around.' };
        return { type: 'tool_calls', calls: [...looks(snapshot), ...looks(gitTask)] };
      },
    });
    const out = path.join(root, 'out');
    const r = await runCliProcess(cli, ['eval', '--suite', suite, '--out', out, '--flow', 'act'], {
      env: { TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' },
      timeoutMs: 110_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const report = EvalReport.parse(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')));
    assert.equal(report.results.length, 2);
    // The looking around happened: each tool ran or was refused, and the results came back to the model.
    for (const res of report.results) assert.equal(res.toolCalls, 14, JSON.stringify(res));
    assert.ok(toolResults.length >= 28, `${toolResults.length} tool results`);
    assert.ok(toolResults.some((t) => /outside the workspace|not inside|outside/i.test(t)), 'the file tools refused the paths outside the copy');
    assert.ok(toolResults.some((t) => /No such file or directory/.test(t)), 'the commands saw no task folder');
    assert.ok(toolResults.some((t) => /The task starts here/.test(t)), "the copy's git log shows its own start only");
    const requests = JSON.stringify(server.requests.map((q) => q.body));
    for (const secret of [VERIFY_FILE, VERIFY_CMD, REFERENCE, FUTURE]) {
      assert.ok(!requests.includes(secret), `${secret} reached a request`);
      assert.ok(!toolResults.some((t) => t.includes(secret)), `${secret} in a tool result`);
    }
    assert.ok(!requests.includes('node --test'), "the verifier's command reached a request");
  });
});
