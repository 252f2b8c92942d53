/**
 * Step workspaces as git worktrees (the StepWorkspaces port's host implementation) on a real git
 * repository: made from the workspace as it is (uncommitted and untracked files included, ignored
 * ones not), changes read back as a step patch, applied all or nothing by applyStepPatch (a file the
 * workspace changed meanwhile refuses the whole apply), and leftovers of a crashed process swept on
 * the next start while a live owner's are kept.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitStepWorkspaces, worktreesBase } from '../../../src/host/node/gitStepWorkspaces';
import { applyStepPatch } from '../../../src/core/planRuns/applyStepPatch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import type { StepPatch } from '../../../src/core/ports/stepWorkspaces';
import { commitFiles, gitIn } from '../../support/gitRepo';

const steps = new GitStepWorkspaces();
const createStepWorktree = async (ws: string, label: string) => {
  const s = await steps.create(ws, label);
  await s.ready;
  return s;
};
const keepIn = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-wt-kept-'));
/** A patch's entries as texts (null: deleted), for comparing. */
const asTexts = (p: StepPatch) => p.entries.map((e) => ({ path: e.path, after: e.kind === 'file' ? Buffer.from(e.bytes).toString('utf8') : e.kind === 'symlink' ? `-> ${e.target}` : null, before: e.before === null ? null : e.before.kind }));
const apply = (ws: string, patch: StepPatch) => applyStepPatch(patch, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });

const repo = () => commitFiles(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-wt-'))), { 'a.txt': 'a1\n', 'b.txt': 'b1\n', '.gitignore': 'ignored/\n' });

describe('step worktrees (real git)', function () {
  this.timeout(30_000);
  let ws: string;
  beforeEach(() => { ws = repo(); });
  afterEach(async () => {
    await steps.sweep(ws, keepIn());
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
      assert.deepEqual((await steps.readPatch(wt)).entries, [], 'nothing changed yet');
    } finally {
      await steps.remove(wt);
    }
    assert.equal(fs.existsSync(wt.root), false);
    assert.doesNotMatch(gitIn(ws, 'worktree', 'list'), /step1/);
    assert.equal(fs.existsSync(path.resolve(ws, gitIn(ws, 'rev-parse', '--git-common-dir').trim(), 'worktrees', path.basename(wt.root))), false, "git's record of it is gone");
  });

  it('applies a step\'s changes back whole, and refuses the whole apply when the workspace changed a file it touches', async () => {
    const wt = await createStepWorktree(ws, 'step2');
    fs.writeFileSync(path.join(wt.root, 'a.txt'), 'a from the step\n');
    fs.writeFileSync(path.join(wt.root, 'c.txt'), 'c from the step\n');
    fs.rmSync(path.join(wt.root, 'b.txt'));
    const changes = await steps.readPatch(wt);
    assert.deepEqual(asTexts(changes), [
      { path: 'a.txt', before: 'file', after: 'a from the step\n' },
      { path: 'b.txt', before: 'file', after: null },
      { path: 'c.txt', before: null, after: 'c from the step\n' },
    ]);
    // Meanwhile the workspace changed b.txt (another step, or the user).
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b changed in the workspace\n');
    const refused = await apply(ws, changes);
    assert.deepEqual(refused, { ok: false, refusals: [{ path: 'b.txt', rule: 'the workspace changed it since the step started' }] });
    // Never half-applied: a.txt and c.txt are untouched too.
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a1\n');
    assert.equal(fs.existsSync(path.join(ws, 'c.txt')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b changed in the workspace\n');
    // Put back as the step found it, the same changes apply whole.
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
    assert.deepEqual(await apply(ws, changes), { ok: true, applied: ['a.txt', 'b.txt', 'c.txt'] });
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a from the step\n');
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'c.txt'), 'utf8'), 'c from the step\n');
    // Applied, not committed: committing stays the user's.
    assert.equal(gitIn(ws, 'rev-list', '--count', 'HEAD').trim(), '1');
    await steps.remove(wt);
  });

  it('a step is made while untracked files come and go in the workspace (another step\'s apply renaming its temporary files into place)', async () => {
    // The graph bench lost a step this way: git listed `.b.txt.….tandem-apply`, gone a moment later,
    // and the worktree could not be made ("pathspec … did not match any files").
    let stop = false;
    const churn = (async () => {
      for (let i = 0; !stop; i++) {
        const tmp = path.join(ws, `.out${i % 50}.txt.tandem-apply`);
        await fs.promises.writeFile(tmp, `${i}\n`);
        await fs.promises.rename(tmp, path.join(ws, `out${i % 50}.txt`));
      }
    })();
    try {
      for (let i = 0; i < 25; i++) {
        const wt = await createStepWorktree(ws, `step${i}`);
        assert.equal(fs.readFileSync(path.join(wt.root, 'a.txt'), 'utf8'), 'a1\n');
        assert.deepEqual((await steps.readPatch(wt)).entries, []);
        await steps.remove(wt);
      }
    } finally {
      stop = true;
      await churn;
    }
  });

  it('removes the worktrees of a process that died (a crash) on the next start, and keeps a live one\'s', async () => {
    // A child process makes a worktree and is killed before it can remove it.
    const script = `const W = require(${JSON.stringify(require.resolve('../../../src/host/node/gitStepWorkspaces'))}).GitStepWorkspaces; new W().create(${JSON.stringify(ws)}, 'crashed').then(async (wt) => { await wt.ready; console.log(wt.root); setInterval(() => {}, 1000); });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const leftover = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const mine = await createStepWorktree(ws, 'live');
    assert.ok(fs.existsSync(leftover));
    assert.match(gitIn(ws, 'worktree', 'list'), /crashed/);

    const removed = await steps.sweep(ws, keepIn());
    assert.deepEqual(removed, [{ kind: 'worktree', dir: leftover, patch: null }], 'it had changed nothing: no patch');
    assert.equal(fs.existsSync(leftover), false);
    assert.doesNotMatch(gitIn(ws, 'worktree', 'list'), /crashed/);
    assert.ok(fs.existsSync(mine.root), 'a live process\'s worktree is kept');
    await steps.remove(mine);
    assert.equal(fs.existsSync(worktreesBase(ws)), false, 'the workspace\'s folder of worktrees goes once it is empty');
    assert.equal(gitIn(ws, 'worktree', 'list').trim().split('\n').length, 1, 'git forgot both');
  });

  it('an empty folder of worktrees an earlier run left is removed on the next start', async () => {
    fs.mkdirSync(worktreesBase(ws), { recursive: true });
    await steps.sweep(ws, keepIn());
    assert.equal(fs.existsSync(worktreesBase(ws)), false);
  });

  it('says why outside git (or before the first commit) steps get no worktree', async () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-nogit-'));
    try {
      assert.match((await steps.unavailable(plain)) ?? '', /not in a git repository/);
      gitIn(plain, 'init', '-q');
      assert.match((await steps.unavailable(plain)) ?? '', /no commit yet/);
      assert.equal(await steps.unavailable(ws), undefined);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});
