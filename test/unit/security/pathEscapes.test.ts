/**
 * Promise 2: paths are checked after resolving symlinks. Every trick below is tried through the
 * built CLI with `--approve all` and headless without a flag: nothing outside is written or
 * deleted, and the files outside are byte-for-byte unchanged. The TOCTOU cases (a folder or a
 * file swapped for a symlink while the approval is pending) run in-process with a person-like
 * approver that swaps it and then approves: the write must re-resolve and refuse.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptStep, ScriptedServer } from '../../support/scriptedServer';
import { buildCli } from '../../support/cliRunner';
import { harness, type Harness } from '../../support/agentHarness';
import { approvalFromFlag } from '../../../src/core/policy/approvalPolicy';
import { calls, runCliAgainst, tc, tempDir, text, treeFingerprint } from './securityKit';

interface Trick {
  name: string;
  /** Sets up the workspace (symlinks etc.) and returns the tool calls. */
  calls(ws: string, out: string): ReturnType<typeof tc>[];
}

const edit = (p: string) => tc('edit_file', { path: p, edits: [{ old_text: 'outside original', new_text: 'PWNED' }] });
const write = (p: string) => tc('write_file', { path: p, content: 'PWNED\n' });
const patchOf = (p: string) => tc('apply_patch', { patch: `--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-outside original\n+PWNED\n` });

const TRICKS: Trick[] = [
  {
    name: 'a symlinked file pointing outside (read, write, edit, patch, delete)',
    calls(ws, out) {
      fs.symlinkSync(path.join(out, 'victim.txt'), path.join(ws, 'innocent.txt'));
      return [tc('read_file', { path: 'innocent.txt' }), write('innocent.txt'), edit('innocent.txt'), patchOf('innocent.txt'), tc('delete_file', { path: 'innocent.txt' })];
    },
  },
  {
    name: 'a symlinked folder pointing outside (new file, overwrite, delete)',
    calls(ws, out) {
      fs.symlinkSync(out, path.join(ws, 'vendor'));
      return [write('vendor/planted.txt'), write('vendor/victim.txt'), edit('vendor/victim.txt'), tc('delete_file', { path: 'vendor/victim.txt' }), tc('run_command', { command: 'touch planted-by-cwd.txt', cwd: 'vendor' })];
    },
  },
  {
    name: 'a chain of symlinks (inside → inside → outside)',
    calls(ws, out) {
      fs.symlinkSync(out, path.join(ws, 'hop2'));
      fs.symlinkSync('hop2', path.join(ws, 'hop1'));
      fs.symlinkSync(path.join('hop1', 'victim.txt'), path.join(ws, 'hop0.txt'));
      return [write('hop0.txt'), edit('hop0.txt'), write('hop1/planted.txt')];
    },
  },
  {
    name: 'a dangling symlink used to create a file outside',
    calls(ws, out) {
      fs.symlinkSync(path.join(out, 'planted.txt'), path.join(ws, 'dangling.txt'));
      fs.symlinkSync(path.join(out, 'newdir'), path.join(ws, 'danglingdir'));
      return [write('dangling.txt'), write('danglingdir/planted.txt'), tc('apply_patch', { patch: '--- /dev/null\n+++ b/dangling.txt\n@@ -0,0 +1 @@\n+PWNED\n' })];
    },
  },
  {
    name: '.. segments',
    calls(_ws, out) {
      const o = path.basename(out);
      return [write(`../${o}/victim.txt`), write(`src/../../${o}/planted.txt`), edit(`./src/../../${o}/victim.txt`), patchOf(`../${o}/victim.txt`)];
    },
  },
  {
    name: 'absolute paths outside',
    calls(_ws, out) {
      return [write(path.join(out, 'victim.txt')), write(path.join(out, 'planted.txt')), tc('delete_file', { path: path.join(out, 'victim.txt') }), patchOf(path.join(out, 'victim.txt').slice(1))];
    },
  },
  {
    name: 'the sibling prefix (/ws-evil beside /ws)',
    calls(ws) {
      // `out` is a separate temp dir; the sibling is created next to ws by the test below.
      return [write(`${ws}-evil/victim.txt`), write(`${ws}-evil/planted.txt`), write(`../${path.basename(ws)}-evil/planted2.txt`), tc('delete_file', { path: `${ws}-evil/victim.txt` })];
    },
  },
  {
    name: 'trailing slashes and ./ tricks through a symlinked folder',
    calls(ws, out) {
      fs.symlinkSync(out, path.join(ws, 'ext'));
      return [write('./ext/./planted.txt'), write('ext//planted.txt'), write('.//ext/../ext/victim.txt'), write('ext/victim.txt/'), tc('delete_file', { path: 'ext/' }), write('src/./../ext/planted.txt')];
    },
  },
  {
    name: '~ and the home folder',
    calls() {
      return [write('~/tandem-security-planted.txt')];
    },
  },
];

describe('security: paths outside the workspace are never written (built CLI)', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let out: string;
  let server: ScriptedServer | undefined;

  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-paths-');
    out = tempDir('tandem-sec-paths-out-');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'keep.ts'), 'keep\n');
    fs.writeFileSync(path.join(out, 'victim.txt'), 'outside original\n');
    fs.mkdirSync(`${ws}-evil`);
    fs.writeFileSync(path.join(`${ws}-evil`, 'victim.txt'), 'outside original\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const d of [ws, out, `${ws}-evil`]) fs.rmSync(d, { recursive: true, force: true });
  });

  for (const mode of [['--approve', 'all'], []] as const) {
    for (const t of TRICKS) {
      it(`${mode.length ? '--approve all' : 'headless, no flag'}: ${t.name}`, async () => {
        const cs = t.calls(ws, out);
        // One call per message, each followed by a harmless read, so the consecutive-error guard never skips one.
        const steps: ScriptStep[] = cs.map((c) => calls(c, tc('read_file', { path: 'src/keep.ts' })));
        steps.push(text('done'));
        const outsideBefore = treeFingerprint(out);
        const evilBefore = treeFingerprint(`${ws}-evil`);
        const home = process.env.HOME ?? '/root';
        const r = await runCliAgainst(cli, steps, ws, ['--role', 'actor', ...mode, '--json', 'go'], { TANDEM_MAX_TOOL_CALLS: '500' });
        server = r.server;
        assert.equal(r.run.code, 0, r.run.stderr);
        assert.deepEqual(treeFingerprint(out), outsideBefore, 'the outside folder is unchanged');
        assert.deepEqual(treeFingerprint(`${ws}-evil`), evilBefore, 'the sibling folder is unchanged');
        assert.equal(fs.existsSync(path.join(home, 'tandem-security-planted.txt')), false);
        assert.equal(fs.existsSync(path.join(ws, '~')), false, 'no folder named ~ either');
        // Nothing was planted inside by following a link the wrong way either.
        const inside = Object.keys(treeFingerprint(ws)).filter((k) => /planted|PWNED/.test(k));
        assert.deepEqual(inside, []);
        // Every attempt ended refused/rejected/error, none done.
        const status = new Map<string, { tool: string; status: string; error?: string }>();
        for (const line of r.run.stdout.trim().split('\n')) {
          const e = JSON.parse(line);
          if (e.type === 'card_added' && e.card.kind === 'tool_call') status.set(e.card.id, { tool: e.card.tool, status: e.card.status });
          if (e.type === 'card_patched' && status.has(e.id)) Object.assign(status.get(e.id)!, e.patch);
        }
        const attempts = [...status.values()].filter((_, i) => i % 2 === 0);
        assert.equal(attempts.length, cs.length);
        for (const a of attempts) assert.notEqual(a.status, 'done', `${a.tool} was done: ${JSON.stringify(a)}`);
        const outsideRefusals = attempts.filter((a) => /outside the workspace/.test(a.error ?? '')).length;
        assert.ok(outsideRefusals >= Math.ceil(cs.length / 2), `most refusals name the outside path: ${JSON.stringify(attempts)}`);
      });
    }
  }

  it('a symlinked workspace root: inside writes work, escapes through it do not', async () => {
    const linkParent = tempDir('tandem-sec-wslink-');
    const wsLink = path.join(linkParent, 'ws');
    fs.symlinkSync(ws, wsLink);
    try {
      const outsideBefore = treeFingerprint(out);
      const steps: ScriptStep[] = [
        calls(tc('write_file', { path: 'made.txt', content: 'inside\n' })),
        calls(tc('write_file', { path: path.join(wsLink, 'made2.txt'), content: 'inside via link\n' })),
        calls(tc('write_file', { path: path.join(wsLink, '..', '..', path.basename(out), 'victim.txt'), content: 'PWNED' }), tc('read_file', { path: 'made.txt' })),
        calls(tc('write_file', { path: path.join(linkParent, 'beside.txt'), content: 'PWNED' }), tc('read_file', { path: 'made.txt' })),
        text('done'),
      ];
      const r = await runCliAgainst(cli, steps, ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
      server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      // The CLI was given the real folder; run it again through the link as its --workspace.
      await server.close();
      const r2 = await runCliAgainst(cli, steps.map((s) => s), wsLink, ['--role', 'actor', '--approve', 'all', 'go'], {});
      server = r2.server;
      assert.equal(r2.run.code, 0, r2.run.stderr);
      assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'inside\n');
      assert.equal(fs.readFileSync(path.join(ws, 'made2.txt'), 'utf8'), 'inside via link\n');
      assert.deepEqual(treeFingerprint(out), outsideBefore);
      assert.equal(fs.existsSync(path.join(linkParent, 'beside.txt')), false);
    } finally {
      fs.rmSync(linkParent, { recursive: true, force: true });
    }
  });
});

describe('security: a path swapped for a symlink while its approval is pending is re-resolved (TOCTOU)', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  let out: string;
  beforeEach(() => {
    out = tempDir('tandem-sec-toctou-out-');
    fs.writeFileSync(path.join(out, 'victim.txt'), 'outside original\n');
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    fs.rmSync(out, { recursive: true, force: true });
  });

  /** A person who, while the diff is open, swaps `swap` (relative to ws) for a symlink to `out`, then approves. */
  async function swapDuringApproval(steps: ScriptStep[], files: Record<string, string>, swap: string, asFile = false): Promise<void> {
    let ref: Harness | undefined;
    h = await harness({
      files,
      settings: (s) => ({ ...s, approval: approvalFromFlag(undefined, true) }),
      approver: {
        request: async (req) => {
          if (req.info.kind !== 'outside_workspace') {
            const p = path.join(ref!.ws, swap);
            fs.rmSync(p, { recursive: true, force: true });
            fs.symlinkSync(asFile ? path.join(out, 'victim.txt') : out, p);
          }
          // Outside-workspace questions are answered no: only the swap could get a write out.
          return { approved: req.info.kind !== 'outside_workspace' };
        },
      },
      steps,
    });
    ref = h;
    await h.agent.send('go');
  }

  it('write_file: a folder replaced by a symlink to outside between check and write', async () => {
    const before = treeFingerprint(out);
    await swapDuringApproval([calls(tc('write_file', { path: 'sub/victim.txt', content: 'PWNED\n' })), text('ok')], { 'sub/keep.txt': 'k\n' }, 'sub');
    assert.deepEqual(treeFingerprint(out), before, `outside changed: ${fs.readdirSync(out)}`);
    assert.notEqual(h!.toolCards()[0]!.status, 'done');
  });

  it('write_file creating a new file in a folder that becomes a symlink', async () => {
    const before = treeFingerprint(out);
    await swapDuringApproval([calls(tc('write_file', { path: 'sub/planted.txt', content: 'PWNED\n' })), text('ok')], { 'sub/keep.txt': 'k\n' }, 'sub');
    assert.deepEqual(treeFingerprint(out), before, `outside changed: ${fs.readdirSync(out)}`);
  });

  it('edit_file: the file itself replaced by a symlink to an outside file', async () => {
    const before = treeFingerprint(out);
    await swapDuringApproval(
      [calls(tc('read_file', { path: 'victim.txt' })), calls(tc('edit_file', { path: 'victim.txt', edits: [{ old_text: 'outside original', new_text: 'PWNED' }] })), text('ok')],
      { 'victim.txt': 'outside original\n' },
      'victim.txt',
      true,
    );
    assert.deepEqual(treeFingerprint(out), before, fs.readFileSync(path.join(out, 'victim.txt'), 'utf8'));
  });

  it('apply_patch: a folder replaced by a symlink between check and write', async () => {
    const before = treeFingerprint(out);
    await swapDuringApproval(
      [calls(tc('read_file', { path: 'sub/victim.txt' })), calls(tc('apply_patch', { patch: '--- a/sub/victim.txt\n+++ b/sub/victim.txt\n@@ -1 +1 @@\n-outside original\n+PWNED\n' })), text('ok')],
      { 'sub/victim.txt': 'outside original\n' },
      'sub',
    );
    assert.deepEqual(treeFingerprint(out), before, fs.readFileSync(path.join(out, 'victim.txt'), 'utf8'));
  });

  it('delete_file: a folder replaced by a symlink between check and delete', async () => {
    const before = treeFingerprint(out);
    await swapDuringApproval([calls(tc('delete_file', { path: 'sub/victim.txt' })), text('ok')], { 'sub/victim.txt': 'inside\n' }, 'sub');
    assert.deepEqual(treeFingerprint(out), before);
  });
});
