/**
 * Step worktrees on a real git repository: made from the workspace as it is (uncommitted and
 * untracked files included, ignored ones not), changes read back per file, applied all or nothing
 * (a file the workspace changed meanwhile refuses the whole apply), and leftovers of a crashed
 * process removed on the next start while a live owner's are kept.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyStepChanges, createStepWorktree, removeLeftoverWorktrees, removeStepWorktree, stepChanges, worktreesBase, worktreeUnavailable, type WorkspaceWriter } from '../../../src/core/planRuns/stepWorktree';

const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

function repo(): string {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-wt-')));
  gitIn(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a1\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), 'ignored/\n');
  gitIn(ws, 'add', '-A');
  gitIn(ws, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  return ws;
}

const nodeWriter: WorkspaceWriter = {
  read: async (abs) => fs.promises.readFile(abs, 'utf8').catch(() => null),
  write: async (abs, text) => { await fs.promises.mkdir(path.dirname(abs), { recursive: true }); await fs.promises.writeFile(abs, text); },
  delete: async (abs) => fs.promises.rm(abs, { force: true }),
};

describe('step worktrees (real git)', function () {
  this.timeout(30_000);
  let ws: string;
  beforeEach(() => { ws = repo(); });
  afterEach(async () => {
    await removeLeftoverWorktrees(ws);
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('starts from the workspace as it is: uncommitted changes and untracked files, not ignored ones', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a2 (uncommitted)\n');
    fs.rmSync(path.join(ws, 'b.txt'));
    fs.writeFileSync(path.join(ws, 'new.txt'), 'untracked\n');
    fs.mkdirSync(path.join(ws, 'ignored'));
    fs.writeFileSync(path.join(ws, 'ignored', 'x.txt'), 'ignored\n');
    const wt = await createStepWorktree(ws, 'step1');
    try {
      assert.equal(fs.readFileSync(path.join(wt.root, 'a.txt'), 'utf8'), 'a2 (uncommitted)\n');
      assert.equal(fs.existsSync(path.join(wt.root, 'b.txt')), false);
      assert.equal(fs.readFileSync(path.join(wt.root, 'new.txt'), 'utf8'), 'untracked\n');
      assert.equal(fs.existsSync(path.join(wt.root, 'ignored', 'x.txt')), false);
      assert.deepEqual(await stepChanges(wt), [], 'nothing changed yet');
    } finally {
      await removeStepWorktree(wt);
    }
    assert.equal(fs.existsSync(wt.dir), false);
    assert.doesNotMatch(gitIn(ws, 'worktree', 'list'), /step1/);
    assert.equal(fs.existsSync(path.resolve(ws, gitIn(ws, 'rev-parse', '--git-common-dir').trim(), 'worktrees', path.basename(wt.dir))), false, "git's record of it is gone");
  });

  it('applies a step\'s changes back whole, and refuses the whole apply when the workspace changed a file it touches', async () => {
    const wt = await createStepWorktree(ws, 'step2');
    fs.writeFileSync(path.join(wt.root, 'a.txt'), 'a from the step\n');
    fs.writeFileSync(path.join(wt.root, 'c.txt'), 'c from the step\n');
    fs.rmSync(path.join(wt.root, 'b.txt'));
    const changes = await stepChanges(wt);
    assert.deepEqual(changes, [
      { path: 'a.txt', before: 'a1\n', after: 'a from the step\n' },
      { path: 'b.txt', before: 'b1\n', after: null },
      { path: 'c.txt', before: null, after: 'c from the step\n' },
    ]);
    // Meanwhile the workspace changed b.txt (another step, or the user).
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b changed in the workspace\n');
    const refused = await applyStepChanges(ws, changes, nodeWriter);
    assert.deepEqual(refused, { ok: false, conflicts: ['b.txt'] });
    // Never half-applied: a.txt and c.txt are untouched too.
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a1\n');
    assert.equal(fs.existsSync(path.join(ws, 'c.txt')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b changed in the workspace\n');
    // Put back as the step found it, the same changes apply whole.
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
    assert.deepEqual(await applyStepChanges(ws, changes, nodeWriter), { ok: true, applied: ['a.txt', 'b.txt', 'c.txt'] });
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a from the step\n');
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'c.txt'), 'utf8'), 'c from the step\n');
    // Applied, not committed: committing stays the user's.
    assert.equal(gitIn(ws, 'rev-list', '--count', 'HEAD').trim(), '1');
    await removeStepWorktree(wt);
  });

  it('removes the worktrees of a process that died (a crash) on the next start, and keeps a live one\'s', async () => {
    // A child process makes a worktree and is killed before it can remove it.
    const script = `require(${JSON.stringify(require.resolve('../../../src/core/planRuns/stepWorktree'))}).createStepWorktree(${JSON.stringify(ws)}, 'crashed').then((wt) => { console.log(wt.dir); setInterval(() => {}, 1000); });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const leftover = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const mine = await createStepWorktree(ws, 'live');
    assert.ok(fs.existsSync(leftover));
    assert.match(gitIn(ws, 'worktree', 'list'), /crashed/);

    const removed = await removeLeftoverWorktrees(ws);
    assert.deepEqual(removed, [{ dir: leftover, patch: null }], 'it had changed nothing: no patch');
    assert.equal(fs.existsSync(leftover), false);
    assert.doesNotMatch(gitIn(ws, 'worktree', 'list'), /crashed/);
    assert.ok(fs.existsSync(mine.dir), 'a live process\'s worktree is kept');
    await removeStepWorktree(mine);
    assert.equal(fs.existsSync(worktreesBase(ws)), false, 'the workspace\'s folder of worktrees goes once it is empty');
    assert.equal(gitIn(ws, 'worktree', 'list').trim().split('\n').length, 1, 'git forgot both');
  });

  it('an empty folder of worktrees an earlier run left is removed on the next start', async () => {
    fs.mkdirSync(worktreesBase(ws), { recursive: true });
    await removeLeftoverWorktrees(ws);
    assert.equal(fs.existsSync(worktreesBase(ws)), false);
  });

  it('says why outside git (or before the first commit) steps get no worktree', async () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-nogit-'));
    try {
      assert.match((await worktreeUnavailable(plain)) ?? '', /not in a git repository/);
      gitIn(plain, 'init', '-q');
      assert.match((await worktreeUnavailable(plain)) ?? '', /no commit yet/);
      assert.equal(await worktreeUnavailable(ws), undefined);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});
