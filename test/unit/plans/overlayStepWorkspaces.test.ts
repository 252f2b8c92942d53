/**
 * Copy-on-write step workspaces on a real repository, the real kernel overlay and the real sandbox:
 * making one copies nothing; the host's file tools and the step's sandboxed commands see one view;
 * git in the step behaves as in the workspace and cannot change the repository; the patch holds
 * bytes, modes, links and deletions and leaves out what a worktree leaves out; a leftover of a killed
 * process is kept as a patch file; and the same holds for an ordinary user as for root.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OverlayStepWorkspaces } from '../../../src/host/node/cow/overlayStepWorkspaces';
import { gitIn } from '../../support/gitRepo';
import { CHANGED_WHILE_RUNNING } from '../../../src/host/node/cow/readOverlayPatch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { NodeStepWorkspaces } from '../../../src/host/node/nodeStepWorkspaces';
import { GitStepWorkspaces } from '../../../src/host/node/gitStepWorkspaces';
import { decodeStepPatch, encodeStepPatch } from '../../../src/core/planRuns/stepPatchFile';
import { applyStepPatch, onlyConflicts } from '../../../src/core/planRuns/applyStepPatch';
import { STEP_WORKSPACE_KINDS } from '../../support/stepWorkspaceKinds';
import { waitFor } from '../../support/wait';
import type { StepPatchEntry, StepWorkspace } from '../../../src/core/ports/stepWorkspaces';


function repo(files = 0): string {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-')));
  gitIn(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a1\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), 'ignored/\n.env\n');
  fs.writeFileSync(path.join(ws, '.env'), 'WS-SECRET\n');
  fs.mkdirSync(path.join(ws, 'old'));
  fs.writeFileSync(path.join(ws, 'old', 'x.txt'), 'x\n');
  fs.writeFileSync(path.join(ws, 'old', 'y.txt'), 'y\n');
  for (let i = 0; i < files; i++) {
    if (i % 100 === 0) fs.mkdirSync(path.join(ws, `d${i / 100}`));
    fs.writeFileSync(path.join(ws, `d${Math.floor(i / 100)}`, `f${i}.txt`), 'z'.repeat(4096));
  }
  gitIn(ws, 'add', '-A');
  gitIn(ws, 'commit', '-qm', 'init');
  return ws;
}

/** Bytes allocated under a folder (what tmpfs holds), links not followed. */
function allocated(dir: string): number {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    const st = fs.lstatSync(d, { throwIfNoEntry: false });
    if (!st) continue;
    total += st.blocks * 512;
    if (st.isDirectory()) for (const n of (() => { try { return fs.readdirSync(d); } catch { return []; } })()) stack.push(path.join(d, n));
  }
  return total;
}

const stepFolder = (s: StepWorkspace) => path.dirname(s.root.replace(/^\/proc\/\d+\/root/, ''));

async function run(root: string, command: string) {
  const r = await new NodeCommandRunner().run(command, { cwd: root, timeoutMs: 30_000, signal: new AbortController().signal, isolation: { roots: [root], workspace: 'writable', network: false } });
  return r;
}

const summary = (e: StepPatchEntry) => e.kind === 'file' ? [e.path, 'file', e.mode.toString(8), Buffer.from(e.bytes).toString('latin1')] : e.kind === 'symlink' ? [e.path, 'symlink', e.target] : [e.path, 'deletion'];

describe('copy-on-write step workspaces (real overlay, real sandbox)', function () {
  this.timeout(60_000);
  let ws: string;
  let dir: string;
  let steps: OverlayStepWorkspaces;
  beforeEach(() => {
    ws = repo();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-steps-'));
    steps = new OverlayStepWorkspaces({ dir });
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies nothing when made: its folder holds what the step writes, and the workspace is never written', async () => {
    fs.rmSync(ws, { recursive: true, force: true });
    ws = repo(2000);
    const s = await steps.create(ws, 'step1');
    try {
      assert.ok(allocated(stepFolder(s)) < 64 * 1024, `a new step holds ${allocated(stepFolder(s))} bytes for a workspace of 8 MB`);
      const f = new NodeWorkspaceFs([s.root]);
      assert.equal(await f.readText(path.join(f.roots[0]!, 'd19', 'f1999.txt')), 'z'.repeat(4096), 'the step sees the workspace');
      await f.writeText(path.join(f.roots[0]!, 'd0', 'f0.txt'), 'changed by the step\n');
      assert.equal(fs.readFileSync(path.join(ws, 'd0', 'f0.txt'), 'utf8'), 'z'.repeat(4096), 'the workspace is untouched');
      assert.equal(fs.readFileSync(path.join(stepFolder(s), 'upper', 'd0', 'f0.txt'), 'utf8'), 'changed by the step\n', 'the write is in the step\'s own folder');
    } finally {
      await steps.remove(s);
    }
    assert.equal(fs.existsSync(stepFolder(s)), false, 'removed whole');
  });

  it("the file tools and the step's sandboxed commands see one view; the commands cannot read the workspace's secrets", async () => {
    const s = await steps.create(ws, 'step1');
    try {
      const f = new NodeWorkspaceFs([s.root]);
      const root = f.roots[0]!;
      await f.writeText(path.join(root, 'from-tool.txt'), 'written by a file tool\n');
      const r = await run(root, 'cat from-tool.txt; echo "written by a command" > from-cmd.txt; rm b.txt; cat .env; echo "[$(cat .env)]"');
      assert.equal(r.exitCode, 0, r.output);
      assert.match(r.output, /written by a file tool/);
      assert.match(r.output, /\[\]/, 'the secret file is empty to the command');
      assert.doesNotMatch(r.output, /WS-SECRET/);
      assert.equal(await f.readText(path.join(root, 'from-cmd.txt')), 'written by a command\n');
      assert.equal(await f.stat(path.join(root, 'b.txt')), undefined, 'the command\'s deletion is seen by the tools');
      assert.deepEqual((await f.readDir(root)).map((e) => e.name).sort(), ['.env', '.git', '.gitignore', 'a.txt', 'from-cmd.txt', 'from-tool.txt', 'old']);
      // A path the command printed (the namespace's spelling) means the same file to the tools.
      const printed = (await run(root, 'pwd')).output.trim();
      assert.equal(await f.realpath(path.join(printed, 'from-cmd.txt')), path.join(root, 'from-cmd.txt'));
      assert.equal(await f.readTextWithin(path.join(root, 'from-cmd.txt'), root, 1000), 'written by a command\n');
      assert.ok(fs.existsSync(path.join(ws, 'b.txt')) && !fs.existsSync(path.join(ws, 'from-cmd.txt')), 'the workspace is untouched');
    } finally {
      await steps.remove(s);
    }
  });

  it("git in the step shows the workspace's and the step's changes, and cannot change the repository", async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a2 (uncommitted in the workspace)\n');
    const head = gitIn(ws, 'rev-parse', 'HEAD');
    const config = fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8');
    const s = await steps.create(ws, 'step1');
    try {
      const root = new NodeWorkspaceFs([s.root]).roots[0]!;
      const st = await run(root, 'echo step > new.txt && echo more >> b.txt && git status --short && git diff --stat');
      assert.equal(st.exitCode, 0, st.output);
      assert.match(st.output, / M a\.txt/);
      assert.match(st.output, / M b\.txt/);
      assert.match(st.output, /\?\? new\.txt/);
      assert.match(st.output, /2 files changed/);
      const w = await run(root, 'git add -A 2>&1; git -c user.name=x -c user.email=x@x commit -qm step 2>&1; git config core.hooksPath /tmp 2>&1; echo "exit 1" > .git/hooks/pre-commit 2>&1; true');
      assert.match(w.output, /Read-only file system/);
      assert.equal(gitIn(ws, 'rev-parse', 'HEAD'), head);
      assert.equal(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8'), config);
      assert.equal(fs.existsSync(path.join(ws, '.git', 'hooks', 'pre-commit')), false);
      assert.deepEqual((await steps.readPatch(s)).entries.map((e) => e.path), ['b.txt', 'new.txt'], 'nothing of .git is a change of the step');
    } finally {
      await steps.remove(s);
    }
  });

  it('the patch: bytes, modes, links and deletions; ignored files and files only opened are left out; a path the workspace changed meanwhile matches nothing', async () => {
    const s = await steps.create(ws, 'step1');
    try {
      const root = new NodeWorkspaceFs([s.root]).roots[0]!;
      const r = await run(root, [
        "printf '\\x89PNG\\x00\\xff' > logo.bin",
        'printf "#!/bin/sh\\n" > run.sh && chmod 755 run.sh',
        'ln -s a.txt link.txt',
        'rm -r old && mkdir old && echo z > old/z.txt',
        'touch a.txt',
        'mkdir -p ignored && echo build > ignored/out.txt',
        'echo changed > b.txt',
      ].join(' && '));
      assert.equal(r.exitCode, 0, r.output);
      // The user changes b.txt in the workspace while the step runs.
      fs.writeFileSync(path.join(ws, 'b.txt'), 'b2 by the user\n');
      const p = await steps.readPatch(s);
      assert.deepEqual(p.entries.map(summary), [
        ['b.txt', 'file', '644', 'changed\n'],
        ['link.txt', 'symlink', 'a.txt'],
        ['logo.bin', 'file', '644', '\x89PNG\x00\xff'],
        ['old/x.txt', 'deletion'],
        ['old/y.txt', 'deletion'],
        ['old/z.txt', 'file', '644', 'z\n'],
        ['run.sh', 'file', '755', '#!/bin/sh\n'],
      ]);
      assert.deepEqual(p.entries.find((e) => e.path === 'b.txt')!.before, CHANGED_WHILE_RUNNING);
      assert.equal(p.entries.find((e) => e.path === 'old/x.txt')!.before?.kind, 'file');
      assert.equal(p.entries.find((e) => e.path === 'logo.bin')!.before, null);
    } finally {
      await steps.remove(s);
    }
  });

  it("a FIFO is no change (git sees none in a worktree), a link to one is refused by both names, and a path beyond a workspace link is read, not an error", async () => {
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.symlinkSync(dir, path.join(ws, 'sub', 'data'));
    const s = await steps.create(ws, 'step1');
    try {
      const root = new NodeWorkspaceFs([s.root]).roots[0]!;
      const made = await run(root, 'mkfifo lone && rm sub/data && mkdir sub/data && echo x > sub/data/new.txt');
      assert.equal(made.exitCode, 0, made.output);
      assert.deepEqual((await steps.readPatch(s)).entries.map(summary), [['sub/data', 'deletion'], ['sub/data/new.txt', 'file', '644', 'x\n']]);
      const linked = await run(root, 'mkfifo pipe && ln -s pipe report.txt');
      assert.equal(linked.exitCode, 0, linked.output);
      await assert.rejects(steps.readPatch(s), /pipe: is a FIFO \(named pipe\).*and report\.txt is a link to it/);
    } finally {
      await steps.remove(s);
    }
  });

  it("a file the workspace gains while the step runs (another step applied) is never read as the step's deletion", async () => {
    const s = await steps.create(ws, 'step1');
    try {
      const f = new NodeWorkspaceFs([s.root]);
      await f.writeText(path.join(f.roots[0]!, 'mine.txt'), 'mine\n');
      await f.writeText(path.join(f.roots[0]!, 'old', 'x.txt'), 'x2\n');
      // Something in the step is reading these folders (a search, a command): while a folder is open,
      // overlayfs lists it as it was when the reading began.
      const reading = [fs.opendirSync(f.roots[0]!), fs.opendirSync(path.join(f.roots[0]!, 'old'))];
      for (const d of reading) d.readSync();
      // Another step's changes land in the workspace meanwhile.
      fs.writeFileSync(path.join(ws, 'theirs.txt'), 'theirs\n');
      fs.writeFileSync(path.join(ws, 'old', 'theirs.txt'), 'theirs\n');
      try {
        assert.deepEqual((await steps.readPatch(s)).entries.map(summary), [['mine.txt', 'file', '644', 'mine\n'], ['old/x.txt', 'file', '644', 'x2\n']]);
      } finally {
        for (const d of reading) d.closeSync();
      }
    } finally {
      await steps.remove(s);
    }
  });

  it('a view whose holding process ended is never read as a step that changed nothing', async () => {
    const s = await steps.create(ws, 'step1');
    try {
      await new NodeWorkspaceFs([s.root]).writeText(path.join(s.root, 'mine.txt'), 'mine\n');
      const holder = Number(/^\/proc\/(\d+)\/root/.exec(s.root)![1]);
      process.kill(holder, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      await assert.rejects(steps.readPatch(s), /the step's copy-on-write view is gone \(the process holding it, \d+, ended\)/);
    } finally {
      await steps.remove(s);
    }
    assert.equal(fs.existsSync(stepFolder(s)), false);
  });

  it("a killed process's step is kept as a patch file at the next sweep and removed; a live process's is left alone", async () => {
    const mod = JSON.stringify(require.resolve('../../../src/host/node/cow/overlayStepWorkspaces'));
    const child = spawn(process.execPath, ['-e', `const { OverlayStepWorkspaces } = require(${mod}); new OverlayStepWorkspaces({ dir: ${JSON.stringify(dir)} }).create(${JSON.stringify(ws)}, 'step2').then((s) => { require('fs').writeFileSync(s.root + '/half.txt', 'half done\\n'); require('fs').rmSync(s.root + '/a.txt'); console.log(s.root); setInterval(() => {}, 1000); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
    const live = await steps.create(ws, 'step1');
    const keepIn = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-kept-'));
    try {
      assert.deepEqual(await steps.sweep(ws, keepIn), [], "a live process's step stays");
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const left = await steps.sweep(ws, keepIn);
      assert.equal(left.length, 1, JSON.stringify(left));
      assert.match(path.basename(left[0]!.dir), /^step2-/);
      const decoded = decodeStepPatch(fs.readFileSync(left[0]!.patch!, 'utf8'));
      assert.ok('patch' in decoded, JSON.stringify(decoded));
      assert.deepEqual(decoded.patch.entries.map(summary), [['a.txt', 'deletion'], ['half.txt', 'file', '644', 'half done\n']]);
      assert.equal(fs.existsSync(left[0]!.dir), false);
      assert.equal(fs.existsSync(stepFolder(live)), true, 'the live step is still there');
    } finally {
      await steps.remove(live);
      fs.rmSync(keepIn, { recursive: true, force: true });
    }
  });

  it("a killed process's step, kept at the next sweep: an untracked file only its commands changed, deleted meanwhile, is a conflict there too", async () => {
    fs.writeFileSync(path.join(ws, 'old', 'notes.txt'), "the user's untracked notes\n");
    const mod = JSON.stringify(require.resolve('../../../src/host/node/cow/overlayStepWorkspaces'));
    // Written as a command writes (past the file tools, which note what they write over).
    const child = spawn(process.execPath, ['-e', `const { OverlayStepWorkspaces } = require(${mod}); new OverlayStepWorkspaces({ dir: ${JSON.stringify(dir)} }).create(${JSON.stringify(ws)}, 'step3').then((s) => { require('fs').appendFileSync(s.root + '/old/notes.txt', 'more\\n'); console.log(s.root); setInterval(() => {}, 1000); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
    const keepIn = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-kept-'));
    try {
      // The step's list of the workspace's untracked files is kept by the time a run could crash mid-step.
      const base = fs.readdirSync(dir, { recursive: true }).map(String).find((p) => /step3-[0-9a-f]+$/.test(p));
      assert.ok(base, fs.readdirSync(dir, { recursive: true }).join(', '));
      await waitFor(() => fs.existsSync(path.join(dir, base, 'untracked-at-start')), 'the step to keep its list of untracked files');
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(path.join(ws, 'old', 'notes.txt'));
      const left = await steps.sweep(ws, keepIn);
      assert.equal(left.length, 1, JSON.stringify(left));
      const decoded = decodeStepPatch(fs.readFileSync(left[0]!.patch!, 'utf8'));
      assert.ok('patch' in decoded, JSON.stringify(decoded));
      assert.deepEqual(decoded.patch.entries.map((e) => [e.path, e.before === null ? 'started from nothing' : 'started from a file']), [['old/notes.txt', 'started from a file']]);
      const applied = await applyStepPatch(decoded.patch, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });
      assert.ok(!applied.ok && onlyConflicts(applied.refusals), JSON.stringify(applied));
      assert.equal(fs.existsSync(path.join(ws, 'old', 'notes.txt')), false, 'never made again');
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(keepIn, { recursive: true, force: true });
    }
  });

  it('works the same for an ordinary user as for root (no privilege: a user namespace of its own)', async function () {
    // Run as `nobody` when the tests run as root; as this user otherwise.
    const asRoot = process.getuid?.() === 0;
    const script = `
      const { OverlayStepWorkspaces } = require(${JSON.stringify(require.resolve('../../../src/host/node/cow/overlayStepWorkspaces'))});
      const { NodeWorkspaceFs } = require(${JSON.stringify(require.resolve('../../../src/host/node/nodeWorkspaceFs'))});
      const { NodeCommandRunner } = require(${JSON.stringify(require.resolve('../../../src/host/node/nodeCommandRunner'))});
      (async () => {
        const steps = new OverlayStepWorkspaces({ dir: process.argv[3] });
        const s = await steps.create(process.argv[2], 'step1');
        const f = new NodeWorkspaceFs([s.root]);
        await f.writeText(f.roots[0] + '/tool.txt', 'tool\\n');
        const r = await new NodeCommandRunner().run('cat tool.txt > cmd.txt && id -u', { cwd: f.roots[0], timeoutMs: 30000, signal: new AbortController().signal, isolation: { roots: f.roots, workspace: 'writable', network: false } });
        const p = await steps.readPatch(s);
        await steps.remove(s);
        console.log(JSON.stringify({ exit: r.exitCode, output: r.output, paths: p.entries.map((e) => e.path) }));
      })().catch((e) => { console.error(e); process.exit(1); });`;
    // One file anyone may read: the repository's own folders may be closed to `nobody` (a clone under /root).
    const bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-bundle-')), 'as-user.cjs');
    esbuild.buildSync({ stdin: { contents: script, resolveDir: __dirname, loader: 'js' }, bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'error' });
    fs.chmodSync(path.dirname(bundle), 0o755);
    let argv = [process.execPath, bundle, ws, dir];
    if (asRoot) {
      for (const p of [ws, dir]) execFileSync('chown', ['-R', 'nobody:', p]);
      argv = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', 'env', `HOME=${dir}`, ...argv];
    }
    const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 50_000 });
    fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout.trim().split('\n').pop()!);
    assert.equal(got.exit, 0, got.output);
    assert.deepEqual(got.paths, ['cmd.txt', 'tool.txt']);
    assert.equal(fs.readdirSync(dir).length, 0, 'nothing left');
  });
});

describe('step workspaces on Node: copy-on-write, or a git worktree with one line saying why', function () {
  this.timeout(60_000);
  let ws: string;
  let dir: string;
  const lines: string[] = [];
  const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m), debug() {} };
  beforeEach(() => {
    ws = repo();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-steps-'));
    lines.length = 0;
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const kindOf = (s: StepWorkspace) => (s.root.startsWith('/proc/') ? 'copy-on-write' : 'worktree');

  it('copy-on-write by default on Linux, saying nothing', async () => {
    const steps = new NodeStepWorkspaces({ dir, env: {}, logger });
    const s = await steps.create(ws, 'step1');
    await steps.remove(s);
    assert.equal(kindOf(s), 'copy-on-write');
    assert.deepEqual(lines, []);
  });

  it('TANDEM_STEP_WORKSPACES=worktree: worktrees, and one line says why', async () => {
    const steps = new NodeStepWorkspaces({ dir, env: { TANDEM_STEP_WORKSPACES: 'worktree' }, logger });
    const made = [await steps.create(ws, 'step1'), await steps.create(ws, 'step2')];
    await Promise.all(made.map((s) => s.ready));
    for (const s of made) await steps.remove(s);
    assert.deepEqual(made.map(kindOf), ['worktree', 'worktree']);
    assert.deepEqual(lines, ['Step workspaces: each step running beside another gets a full git worktree, not a copy-on-write view: TANDEM_STEP_WORKSPACES=worktree asks for worktrees.']);
  });

  it("where the kernel refuses the overlay (step folders on an overlayfs, as in a container whose /dev/shm is small), worktrees, and one line gives the kernel's words", async () => {
    // Another step's copy-on-write view is an overlayfs: step folders there cannot be an overlay's upper folder.
    const outer = new OverlayStepWorkspaces({ dir });
    const other = repo();
    const host = await outer.create(other, 'outer');
    const steps = new NodeStepWorkspaces({ env: {}, logger, overlay: new OverlayStepWorkspaces({ dir: path.join(host.root, 'steps') }), git: new GitStepWorkspaces({ dir }) });
    const made = [await steps.create(ws, 'step1'), await steps.create(ws, 'step2')];
    await Promise.all(made.map((s) => s.ready));
    for (const s of made) await steps.remove(s);
    assert.deepEqual(made.map(kindOf), ['worktree', 'worktree']);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /full git worktree, not a copy-on-write view: the overlay could not be mounted \(mount: .+: cannot mount overlay read-only\.\)\.$/);
    await outer.remove(host);
    fs.rmSync(other, { recursive: true, force: true });
  });
});

for (const kind of STEP_WORKSPACE_KINDS) describe(`a step's changes against a workspace that changed under it (real git, real files; ${kind.name})`, function () {
  this.timeout(60_000);
  let ws: string;
  let dir: string;
  let steps: NodeStepWorkspaces;
  const logger = { info() {}, warn() {}, error() {}, debug() {} };
  beforeEach(() => {
    ws = repo();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cow-steps-'));
    steps = new NodeStepWorkspaces({ dir, env: kind.env ? { TANDEM_STEP_WORKSPACES: kind.env } : {}, logger });
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a file the step changed and the workspace deleted meanwhile is a conflict, never made again; a file the step made beside it applies', async () => {
    fs.writeFileSync(path.join(ws, 'notes.txt'), "the user's untracked notes\n");
    const s = await steps.create(ws, 'step1');
    await s.ready;
    let patch;
    try {
      const f = new NodeWorkspaceFs([s.root]);
      const root = f.roots[0]!;
      await f.writeText(path.join(root, 'a.txt'), 'a from the step\n');
      await f.writeText(path.join(root, 'new.txt'), 'made by the step\n');
      await f.writeText(path.join(root, 'notes.txt'), 'notes edited by the step\n');
      const r = await run(root, 'echo more >> old/x.txt && echo b2 > b.txt');
      assert.equal(r.exitCode, 0, r.output);
      // Meanwhile the user (or another step applied) deletes them in the workspace.
      fs.rmSync(path.join(ws, 'a.txt'));
      fs.rmSync(path.join(ws, 'notes.txt'));
      fs.rmSync(path.join(ws, 'old'), { recursive: true });
      gitIn(ws, 'rm', '-q', 'b.txt');
      patch = await steps.readPatch(s);
    } finally {
      await steps.remove(s);
    }
    assert.deepEqual(patch.entries.map((e) => [e.path, e.before === null ? 'started from nothing' : 'started from a file']), [
      ['a.txt', 'started from a file'],
      ['b.txt', 'started from a file'],
      ['new.txt', 'started from nothing'],
      ['notes.txt', 'started from a file'],
      ['old/x.txt', 'started from a file'],
    ]);
    const applied = await applyStepPatch(patch, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });
    assert.ok(!applied.ok && onlyConflicts(applied.refusals), JSON.stringify(applied));
    assert.deepEqual(applied.refusals.map((x) => x.path), ['a.txt', 'b.txt', 'notes.txt', 'old/x.txt']);
    assert.deepEqual(['a.txt', 'b.txt', 'notes.txt', 'old', 'new.txt'].filter((p) => fs.existsSync(path.join(ws, p))), [], 'nothing made again, nothing half-applied');
    // The file the step made in that same folder is no conflict.
    assert.deepEqual(await applyStepPatch({ entries: patch.entries.filter((e) => e.path === 'new.txt') }, { workspace: ws, fs: new NodeWorkspaceFs([ws]) }), { ok: true, applied: ['new.txt'] });
  });

  it("an untracked file only the step's commands changed, deleted by the workspace meanwhile, is a conflict, never made again; a file a command made beside it applies", async () => {
    fs.writeFileSync(path.join(ws, 'old', 'notes.txt'), "the user's untracked notes\n");
    const s = await steps.create(ws, 'step1');
    await s.ready;
    let patch;
    try {
      const root = new NodeWorkspaceFs([s.root]).roots[0]!;
      const r = await run(root, 'echo more >> old/notes.txt && echo made > old/made.txt');
      assert.equal(r.exitCode, 0, r.output);
      // Meanwhile the user deletes the notes: their folder changes, as when another step's apply lands there.
      fs.rmSync(path.join(ws, 'old', 'notes.txt'));
      patch = await steps.readPatch(s);
    } finally {
      await steps.remove(s);
    }
    assert.deepEqual(patch.entries.map((e) => [e.path, e.before === null ? 'started from nothing' : 'started from a file']), [
      ['old/made.txt', 'started from nothing'],
      ['old/notes.txt', 'started from a file'],
    ]);
    const applied = await applyStepPatch(patch, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });
    assert.ok(!applied.ok && onlyConflicts(applied.refusals), JSON.stringify(applied));
    assert.deepEqual(applied.refusals.map((x) => x.path), ['old/notes.txt']);
    assert.deepEqual(['old/notes.txt', 'old/made.txt'].filter((p) => fs.existsSync(path.join(ws, p))), [], 'nothing made again, nothing half-applied');
    assert.deepEqual(await applyStepPatch({ entries: patch.entries.filter((e) => e.path === 'old/made.txt') }, { workspace: ws, fs: new NodeWorkspaceFs([ws]) }), { ok: true, applied: ['old/made.txt'] });
  });

  it("what the step's own .gitignore ignores is left out of its patch, as git in the step sees it", async () => {
    const s = await steps.create(ws, 'step1');
    await s.ready;
    try {
      const f = new NodeWorkspaceFs([s.root]);
      const root = f.roots[0]!;
      // Ignore files are written by a file tool (the user approves it; a command may not make one).
      await f.writeText(path.join(root, '.gitignore'), `${await f.readText(path.join(root, '.gitignore'))}build.log\n`);
      await f.writeText(path.join(root, 'pkg', '.gitignore'), 'out/\n');
      const r = await run(root, 'echo noise > build.log && echo kept > kept.txt && mkdir pkg/out && echo o > pkg/out/o.js && echo src > pkg/a.js');
      assert.equal(r.exitCode, 0, r.output);
      assert.deepEqual((await steps.readPatch(s)).entries.map((e) => e.path), ['.gitignore', 'kept.txt', 'pkg/.gitignore', 'pkg/a.js']);
      // The step takes its rule back: the file is part of its result again.
      await f.writeText(path.join(root, 'pkg', '.gitignore'), '# nothing ignored\n');
      assert.deepEqual((await steps.readPatch(s)).entries.map((e) => e.path), ['.gitignore', 'kept.txt', 'pkg/.gitignore', 'pkg/a.js', 'pkg/out/o.js']);
    } finally {
      await steps.remove(s);
    }
  });

  it("files the step writes inside a submodule are named as not carried, and applying its patch refuses them by name (never dropped silently); nothing of the step is half-applied", async () => {
    const inner = repo();
    gitIn(ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'mod');
    gitIn(ws, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'submodule');
    // The user works in the submodule too: it has a change of its own, uncommitted.
    fs.writeFileSync(path.join(ws, 'mod', 'a.txt'), 'a1 and the user\'s line\n');
    const s = await steps.create(ws, 'step1');
    await s.ready;
    let patch;
    try {
      const f = new NodeWorkspaceFs([s.root]);
      await f.writeText(path.join(f.roots[0]!, 'mod', 'new.txt'), 'in the submodule\n');
      const r = await run(f.roots[0]!, 'echo by a command > mod/cmd.txt');
      assert.equal(r.exitCode, 0, r.output);
      await f.writeText(path.join(f.roots[0]!, 'mine.txt'), 'mine\n');
      patch = await steps.readPatch(s);
    } finally {
      await steps.remove(s);
      fs.rmSync(inner, { recursive: true, force: true });
    }
    assert.deepEqual(patch.entries.map((e) => e.path), ['mine.txt']);
    assert.deepEqual(patch.notCarried?.map((n) => n.path), ['mod/cmd.txt', 'mod/new.txt']);
    // As a patch file too (a crashed run's, `--emit-patch`, `tandem apply`): the refusal goes with it.
    const decoded = decodeStepPatch(encodeStepPatch(patch));
    assert.ok('patch' in decoded, JSON.stringify(decoded));
    for (const p of [patch, decoded.patch]) {
      const applied = await applyStepPatch(p, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });
      assert.ok(!applied.ok, JSON.stringify(applied));
      assert.deepEqual(applied.refusals.map((x) => x.path), ['mod/cmd.txt', 'mod/new.txt']);
      for (const x of applied.refusals) assert.match(x.rule, /^inside the git submodule mod, another repository/);
      assert.equal(onlyConflicts(applied.refusals), false);
    }
    assert.deepEqual(['mine.txt', 'mod/new.txt', 'mod/cmd.txt'].filter((p) => fs.existsSync(path.join(ws, p))), [], 'nothing applied, nothing half-applied');
    assert.equal(fs.readFileSync(path.join(ws, 'mod', 'a.txt'), 'utf8'), 'a1 and the user\'s line\n', "the submodule's own change untouched");
  });

  it('a folder the workspace has, moved by mv, is recorded as its files gone and made again, and applies', async () => {
    const s = await steps.create(ws, 'step1');
    await s.ready;
    let patch;
    try {
      const root = new NodeWorkspaceFs([s.root]).roots[0]!;
      const r = await run(root, 'mv old moved && ls moved');
      assert.equal(r.exitCode, 0, r.output);
      patch = await steps.readPatch(s);
    } finally {
      await steps.remove(s);
    }
    assert.deepEqual(patch.entries.map(summary), [
      ['moved/x.txt', 'file', '644', 'x\n'],
      ['moved/y.txt', 'file', '644', 'y\n'],
      ['old/x.txt', 'deletion'],
      ['old/y.txt', 'deletion'],
    ]);
    assert.deepEqual(await applyStepPatch(patch, { workspace: ws, fs: new NodeWorkspaceFs([ws]) }), { ok: true, applied: ['moved/x.txt', 'moved/y.txt', 'old/x.txt', 'old/y.txt'] });
    assert.deepEqual([fs.existsSync(path.join(ws, 'old')), fs.readFileSync(path.join(ws, 'moved', 'y.txt'), 'utf8')], [false, 'y\n'], 'the folder moved, none left empty behind');
  });

  it("a program's own rename of a workspace folder: done in a worktree; refused (EXDEV) in a copy-on-write step with a note saying how to move it, and nothing half-moved", async () => {
    const s = await steps.create(ws, 'step1');
    await s.ready;
    try {
      const root = new NodeWorkspaceFs([s.root]).roots[0]!;
      const r = await run(root, `node -e "require('fs').renameSync('old', 'moved')"`);
      const patch = await steps.readPatch(s);
      if (kind.env === 'worktree') {
        assert.equal(r.exitCode, 0, r.output);
        assert.deepEqual(patch.entries.map((e) => e.path), ['moved/x.txt', 'moved/y.txt', 'old/x.txt', 'old/y.txt']);
        return;
      }
      assert.notEqual(r.exitCode, 0);
      assert.match(r.output, /EXDEV/);
      assert.equal(r.sandboxNotes?.length, 1, JSON.stringify(r.sandboxNotes));
      assert.match(r.sandboxNotes![0]!, /copy-on-write workspace a folder the workspace has cannot be renamed in place.*Move it with `mv`/);
      assert.deepEqual(patch.entries, []);
    } finally {
      await steps.remove(s);
    }
  });
});
