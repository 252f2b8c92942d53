import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalCommandRunner } from '../../../src/host/vscode/terminalCommandRunner';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { resolveTerminalVariables, userTerminalEnv } from '../../../src/host/vscode/userTerminalEnv';
import * as os from 'node:os';
import { isAlive, removeDir, tempDir } from './helpers';
import { sleep, waitFor } from '../../support/wait';

const opts = (cwd: string, extra: Partial<{ timeoutMs: number; signal: AbortSignal }> = {}) => ({
  cwd, timeoutMs: 30_000, signal: new AbortController().signal, ...extra,
});

describe('VS Code host: terminal command runner (shell integration)', function () {
  this.timeout(60_000);
  let dir: string;
  let runner: TerminalCommandRunner;
  before(() => {
    dir = tempDir('term');
    runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner(), shellIntegrationWaitMs: 15_000 });
  });
  after(() => {
    runner.dispose();
    removeDir(dir);
  });

  it('runs in a visible terminal named Tandem and returns the output and the exit code', async () => {
    const r = await runner.run('echo hi; echo "to stderr" >&2; exit 3', opts(dir));
    console.log(`      (ran through ${runner.usingFallback ? 'the child-process fallback' : 'terminal shell integration'})`);
    assert.equal(r.exitCode, 3);
    assert.match(r.output, /hi/);
    assert.match(r.output, /to stderr/);
    assert.equal(r.timedOut, false);
    assert.equal(r.cancelled, false);
    assert.ok(vscode.window.terminals.some((t) => t.name === 'Tandem'), 'a terminal named Tandem exists');
  });

  it('uses shell integration in this editor (not the fallback)', () => {
    assert.equal(runner.usingFallback, false, 'shell integration came up in the Tandem terminal');
  });

  it('runs in the given folder with a fail-fast shell (a failing stage in a pipe fails the command)', async () => {
    fs.writeFileSync(path.join(dir, 'marker.txt'), 'here');
    const r = await runner.run('cat marker.txt; echo; false | cat; echo never-printed', opts(dir));
    assert.match(r.output, /here/);
    assert.doesNotMatch(r.output, /never-printed/);
    assert.notEqual(r.exitCode, 0);
  });

  it('keeps the user\'s terminal usable after a command that exits', async () => {
    const r = await runner.run('echo again', opts(dir));
    assert.equal(r.exitCode, 0);
    assert.match(r.output, /again/);
  });

  it('runs a multi-line command as one script', async () => {
    const r = await runner.run("x='a b'\necho \"[$x]\"", opts(dir));
    assert.equal(r.exitCode, 0);
    assert.match(r.output, /\[a b\]/);
  });

  it('kills the whole process tree on timeout', async () => {
    const pidFile = path.join(dir, 'timeout.pid');
    const r = await runner.run(`sleep 60 & echo $! > ${pidFile}; wait`, opts(dir, { timeoutMs: 1500 }));
    assert.equal(r.timedOut, true);
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    await waitFor(() => !isAlive(pid), `background sleep ${pid} to die`, 5000);
  });

  it('Stop (abort) ends a running command and kills it', async () => {
    const pidFile = path.join(dir, 'stop.pid');
    const ac = new AbortController();
    const running = runner.run(`echo $$ > ${pidFile}; sleep 60`, opts(dir, { signal: ac.signal }));
    // Right after the timeout test's kill, a loaded machine can take a while to give the shell its prompt back.
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 'the command to start', 45_000);
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    ac.abort();
    const r = await running;
    assert.equal(r.cancelled, true);
    await waitFor(() => !isAlive(pid), `command shell ${pid} to die`, 5000);
    // And the terminal still runs the next command.
    const next = await runner.run('echo after-stop', opts(dir));
    assert.match(next.output, /after-stop/);
  });

  it('caps long output, keeping head and tail', async () => {
    const small = new TerminalCommandRunner({ fallback: new NodeCommandRunner(), shellIntegrationWaitMs: 15_000, maxOutputChars: 3000 });
    try {
      const r = await small.run('echo FIRST; seq 1 20000; echo LAST', opts(dir));
      assert.equal(r.exitCode, 0);
      assert.match(r.output, /^FIRST/);
      assert.match(r.output, /LAST\s*$/);
      assert.match(r.output, /characters of output left out/);
      assert.ok(r.output.length < 3200, `output capped (got ${r.output.length} chars)`);
    } finally {
      small.dispose();
    }
  });
});

describe('VS Code host: terminal command runner (child-process fallback)', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => { dir = tempDir('fallback'); });
  after(() => removeDir(dir));

  it('falls back to a child process when the shell has no integration, still showing a Tandem terminal', async () => {
    // /bin/sh (dash) gets no shell integration: the runner must give up waiting and use the fallback.
    const runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner(), shellIntegrationWaitMs: 1500, shellPath: '/bin/sh' });
    try {
      const r = await runner.run('echo from-fallback; exit 4', opts(dir));
      assert.equal(runner.usingFallback, true);
      assert.equal(r.exitCode, 4);
      assert.match(r.output, /from-fallback/);
      assert.ok(vscode.window.terminals.some((t) => t.name === 'Tandem'));
      // Later commands go straight to the fallback.
      const again = await runner.run('echo second', opts(dir));
      assert.match(again.output, /second/);
    } finally {
      runner.dispose();
      await sleep(100);
    }
  });
});

describe('VS Code host: a sandboxed command in the Tandem terminal', function () {
  this.timeout(60_000);
  let dir: string;
  let outside: string;
  let runner: TerminalCommandRunner;
  before(() => {
    // Under /var/tmp, not /tmp: the sandbox's /tmp is private, so a write to ../ there would vanish instead of failing.
    dir = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-it-sbx-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-it-sbx-out-')));
    fs.mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner(), shellIntegrationWaitMs: 15_000 });
  });
  after(() => {
    runner.dispose();
    removeDir(dir);
    removeDir(outside);
  });
  const sandboxed = (cwd: string) => ({ ...opts(cwd), isolation: { roots: [dir], workspace: 'writable' as const, network: false } });

  it('is available here (bubblewrap works in this container)', async () => {
    assert.deepEqual(await runner.sandboxStatus(), { available: true, networkByDefault: false });
  });

  it('runs the bwrap command line in the terminal: its exit code and output come back, workspace writes land', async () => {
    const r = await runner.run('echo inside > made.txt; cat made.txt; echo to-stderr >&2; exit 7', sandboxed(dir));
    assert.equal(runner.usingFallback, false, 'through shell integration');
    assert.equal(r.exitCode, 7);
    assert.match(r.output, /inside/);
    assert.match(r.output, /to-stderr/);
    assert.equal(fs.readFileSync(path.join(dir, 'made.txt'), 'utf8'), 'inside\n');
  });

  it('the same command line refuses writes outside and under .git, and shows only its own processes', async () => {
    const r = await runner.run(`echo pwned > ${outside}/x.txt`, sandboxed(dir));
    assert.notEqual(r.exitCode, 0);
    assert.match(r.output, /Read-only file system/);
    assert.ok(!fs.existsSync(path.join(outside, 'x.txt')));
    const hook = await runner.run("printf '#!/bin/sh\\n' > .git/hooks/pre-commit", sandboxed(dir));
    assert.match(hook.output, /Read-only file system/);
    assert.ok(!fs.existsSync(path.join(dir, '.git', 'hooks', 'pre-commit')));
    const procs = await runner.run('ls /proc | grep -cE "^[0-9]+$"', sandboxed(dir));
    assert.equal(procs.exitCode, 0);
    assert.ok(Number(procs.output.trim().split(/\s+/).pop()) <= 5, procs.output);
  });
});

describe("VS Code host: the agent's commands see the user's terminal environment setting", function () {
  this.timeout(90_000);
  let dir: string;
  const key = process.platform === 'win32' ? 'env.windows' : process.platform === 'darwin' ? 'env.osx' : 'env.linux';
  const terminalConfig = () => vscode.workspace.getConfiguration('terminal.integrated');
  before(async () => {
    // Under /var/tmp, not /tmp: a sandboxed command's /tmp is private, so the tool there would vanish.
    dir = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-it-env-')));
    fs.mkdirSync(path.join(dir, 'bin'));
    // A `node` of the user's own, found only through the PATH the setting gives (as a version manager's folder is).
    fs.writeFileSync(path.join(dir, 'bin', 'node'), '#!/bin/sh\necho "node-from-the-user-setting $TANDEM_IT_FROM_SETTING"\n', { mode: 0o755 });
    await terminalConfig().update(key, { PATH: `${dir}/bin:\${env:PATH}`, TANDEM_IT_FROM_SETTING: 'yes' }, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await terminalConfig().update(key, undefined, vscode.ConfigurationTarget.Global);
    removeDir(dir);
  });

  it('in the Tandem terminal, plain and sandboxed: the setting\'s PATH is kept, the launcher still works', async () => {
    const runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner(), shellIntegrationWaitMs: 15_000 });
    try {
      const plain = await runner.run('node --version', opts(dir));
      assert.equal(runner.usingFallback, false, 'through shell integration');
      assert.match(plain.output, /node-from-the-user-setting yes/, plain.output);
      const boxed = await runner.run('node --version', { ...opts(dir), isolation: { roots: [dir], workspace: 'writable' as const, network: false } });
      assert.equal(boxed.exitCode, 0, boxed.output);
      assert.match(boxed.output, /node-from-the-user-setting yes/, boxed.output);
    } finally {
      runner.dispose();
      await sleep(100);
    }
  });

  it('in the child-process fallback (no shell integration) too', async () => {
    const runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner({ env: userTerminalEnv }), shellIntegrationWaitMs: 1500, shellPath: '/bin/sh' });
    try {
      const r = await runner.run('node --version', opts(dir));
      assert.equal(runner.usingFallback, true);
      assert.match(r.output, /node-from-the-user-setting yes/, r.output);
    } finally {
      runner.dispose();
      await sleep(100);
    }
  });

  it('resolves ${env:…}, ${workspaceFolder} and ${userHome} as VS Code does; others stay as written', () => {
    assert.equal(resolveTerminalVariables('/w/bin:${env:P}:${userHome}:${other}', { P: '/a:/b' }, '/w'), `/w/bin:/a:/b:${os.homedir()}:\${other}`);
    assert.equal(resolveTerminalVariables('${workspaceFolder}/bin', {}, '/ws'), '/ws/bin');
  });
});
