/**
 * The one function that writes a step patch into a workspace, on real files: whole or nothing,
 * never through a link, the write tools' rules on every path, bytes, modes and hostile names kept
 * exactly; and the sweep of a gone run's step workspaces, which never touches another repository's.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyStepPatch } from '../../../src/core/planRuns/applyStepPatch';
import { commitFiles, gitIn } from '../../support/gitRepo';
import { decodeStepPatch, encodeStepPatch } from '../../../src/core/planRuns/stepPatchFile';
import type { StepPatch, StepPatchEntry } from '../../../src/core/ports/stepWorkspaces';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { GitStepWorkspaces, worktreesBase } from '../../../src/host/node/gitStepWorkspaces';

const file = (p: string, text: string | Buffer, mode = 0o644): StepPatchEntry => ({ path: p, kind: 'file', mode, bytes: new Uint8Array(Buffer.from(text)), before: null });
const link = (p: string, target: string): StepPatchEntry => ({ path: p, kind: 'symlink', target, before: null });
const apply = (ws: string, entries: StepPatchEntry[], inScope?: (p: string) => boolean) => applyStepPatch({ entries }, { workspace: ws, fs: new NodeWorkspaceFs([ws]), ...(inScope ? { inScope } : {}) });
/** Everything under `dir`, names only (temporary files would show). */
const names = (dir: string): string[] => fs.readdirSync(dir, { recursive: true }).map(String).sort();

describe('applyStepPatch: a step patch onto a workspace (real files)', () => {
  let ws: string;
  let outside: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-apply-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-apply-out-')));
    fs.writeFileSync(path.join(ws, 'keep.txt'), 'keep\n');
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('hostile names, bytes and modes land exactly, and survive the patch file', async () => {
    const hostile = ['-rf', 'new\nline.txt', ' lead and trail ', 'ünï cødé/naïve.md', '$(touch pwned)', '*?[x].txt', 'back\\slash', '"quoted"', 'a:b', '.hidden'];
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0xfe, 0x0d, 0x0a]);
    const patch: StepPatch = { entries: [...hostile.map((h) => file(h, `${h}\n`)), file('logo.bin', bytes), file('run.sh', '#!/bin/sh\n', 0o755)] };
    const decoded = decodeStepPatch(encodeStepPatch(patch));
    assert.ok('patch' in decoded, JSON.stringify(decoded));
    const r = await apply(ws, decoded.patch.entries);
    assert.ok(r.ok, JSON.stringify(r));
    for (const h of hostile) assert.equal(fs.readFileSync(path.join(ws, h), 'utf8'), `${h}\n`, h);
    assert.deepEqual(fs.readFileSync(path.join(ws, 'logo.bin')), bytes);
    assert.equal(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777, 0o755);
    assert.equal(fs.existsSync(path.join(ws, 'pwned')), false);
    assert.ok(!names(ws).some((n) => n.includes('tandem-apply')), 'no temporary file is left');
  });

  it('refuses paths that are not one plain place: ./a.txt, a/../b, absolute, empty parts', async () => {
    for (const p of ['./a.txt', 'a/../keep.txt', `${ws}/a.txt`, 'a//b.txt', 'a/.', '..']) {
      const r = await apply(ws, [file(p, 'x\n')]);
      assert.ok(!r.ok && r.refusals[0]!.path === p, `${p}: ${JSON.stringify(r)}`);
    }
    assert.deepEqual(names(ws), ['keep.txt']);
  });

  it('never writes through a link on the way, and then applies nothing at all', async () => {
    fs.mkdirSync(path.join(ws, 'data'));
    fs.symlinkSync(outside, path.join(ws, 'data', 'link'));
    const r = await apply(ws, [file('a.txt', 'a\n'), file('data/link/new.txt', 'x\n')]);
    assert.deepEqual(r, { ok: false, refusals: [{ path: 'data/link/new.txt', rule: "data/link on the way is a link in the workspace; a step's change is never written through a link" }] });
    assert.deepEqual(fs.readdirSync(outside), []);
    assert.equal(fs.existsSync(path.join(ws, 'a.txt')), false, 'whole or nothing');
  });

  it('applies a link only when it stays inside the workspace and leads to nothing the agent may not read', async () => {
    fs.writeFileSync(path.join(ws, '.gitignore'), '.env\nprivate/\n');
    fs.writeFileSync(path.join(ws, '.env'), 'SECRET\n');
    fs.mkdirSync(path.join(ws, 'private'));
    fs.symlinkSync(outside, path.join(ws, 'escape'));
    const refused: [string, RegExp][] = [
      ['/etc/passwd', /a link to an absolute path/],
      ['../outside.txt', /a link leading out of the workspace/],
      ['escape/x', /through the workspace's own links/],
      ['.env', /a link to a secret file \(\.env\)/],
      ['private/k', /ignore rules keep from the agent/],
      ['.git/config', /git's own files/],
    ];
    for (const [target, why] of refused) {
      const r = await apply(ws, [link('l', target)]);
      assert.ok(!r.ok && why.test(r.refusals[0]!.rule), `${target}: ${JSON.stringify(r)}`);
    }
    assert.equal(fs.existsSync(path.join(ws, 'l')), false);
    const ok = await apply(ws, [link('docs/readme', '../keep.txt')]);
    assert.ok(ok.ok, JSON.stringify(ok));
    assert.equal(fs.readlinkSync(path.join(ws, 'docs', 'readme')), '../keep.txt');
  });

  it('holds the write tools\' rules: .git, git\'s own files a .git file names, files that run code, ignore files, the scope', async () => {
    fs.writeFileSync(path.join(ws, '.git'), 'gitdir: .repo\n');
    fs.mkdirSync(path.join(ws, '.repo'));
    fs.writeFileSync(path.join(ws, '.repo', 'config'), '[core]\n');
    const refused: [string, RegExp][] = [
      ['.git/hooks/pre-commit', /inside \.git/],
      ['.repo/config', /git's own file/],
      ['.github/workflows/ci.yml', /can make code run by itself/],
      ['.cargo/config.toml', /can make code run by itself/],
      ['.claude/settings.json', /can make code run by itself/],
      ['.envrc', /can make code run by itself/],
      ['sub/.tandemignore', /decides what the agent may read/],
    ];
    for (const [p, why] of refused) {
      const r = await apply(ws, [file(p, 'x\n')]);
      assert.ok(!r.ok && why.test(r.refusals[0]!.rule), `${p}: ${JSON.stringify(r)}`);
    }
    const scoped = await apply(ws, [file('src/a.ts', 'a\n'), file('other.ts', 'o\n')], (p) => p.startsWith('src/'));
    assert.deepEqual(scoped, { ok: false, refusals: [{ path: 'other.ts', rule: "outside the step's files" }] });
    assert.equal(fs.readFileSync(path.join(ws, '.repo', 'config'), 'utf8'), '[core]\n');
  });

  it('a file the step turned into a folder is replaced; a deletion deletes the file, never a link\'s target', async () => {
    fs.writeFileSync(path.join(ws, 'x'), 'was a file\n');
    fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(ws, 'ln'));
    const sha = (s: string) => require('node:crypto').createHash('sha256').update(s).digest('hex');
    const r = await applyStepPatch({ entries: [
      { path: 'ln', kind: 'deletion', before: { kind: 'symlink', sha256: sha(path.join(outside, 'target.txt')) } },
      { path: 'x', kind: 'deletion', before: { kind: 'file', sha256: sha('was a file\n') } },
      file('x/y.txt', 'now a folder\n'),
    ] }, { workspace: ws, fs: new NodeWorkspaceFs([ws]) });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(fs.readFileSync(path.join(ws, 'x', 'y.txt'), 'utf8'), 'now a folder\n');
    assert.equal(fs.existsSync(path.join(ws, 'ln')), false);
    assert.equal(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'outside\n');
  });
});

describe('sweeping a gone run\'s step workspaces never touches look-alikes (real git)', function () {
  this.timeout(30_000);
  const made: string[] = [];
  const repo = (name: string) => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), name)));
    made.push(dir);
    return commitFiles(dir, { 'a.txt': 'a\n' });
  };
  after(() => { for (const d of made) fs.rmSync(d, { recursive: true, force: true }); });

  it("a repository's sweep leaves another repository's leftovers, and a look-alike folder of the workspace's, alone", async () => {
    const a = repo('tandem-sweep-a-');
    // A look-alike: the same name with a suffix, and a folder inside it named like a worktree.
    const b = `${a}-2`;
    fs.mkdirSync(b);
    made.push(b);
    gitIn(b, 'init', '-q');
    fs.writeFileSync(path.join(b, 'b.txt'), 'b\n');
    gitIn(b, 'add', '-A');
    gitIn(b, 'commit', '-qm', 'i');
    fs.mkdirSync(path.join(a, 'step1-deadbeef'));
    fs.writeFileSync(path.join(a, 'step1-deadbeef.owner'), '999999\n');
    const mod = JSON.stringify(require.resolve('../../../src/host/node/gitStepWorkspaces'));
    const child = spawn(process.execPath, ['-e', `new (require(${mod}).GitStepWorkspaces)().create(${JSON.stringify(b)}, 'step1').then(async (s) => { await s.ready; console.log(s.root); setInterval(() => {}, 1000); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const leftB = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const steps = new GitStepWorkspaces();
    assert.deepEqual(await steps.sweep(a, path.join(a, '..', 'kept-a')), []);
    assert.ok(fs.existsSync(leftB), "the other repository's leftover is not this workspace's to remove");
    assert.ok(fs.existsSync(path.join(a, 'step1-deadbeef')) && fs.existsSync(path.join(a, 'step1-deadbeef.owner')), 'a folder in the workspace named like a worktree is the user\'s');
    assert.notEqual(worktreesBase(a), worktreesBase(b));
    assert.equal((await steps.sweep(b, fs.mkdtempSync(path.join(os.tmpdir(), 'kept-b-')))).length, 1);
    assert.equal(fs.existsSync(leftB), false);
  });
});
